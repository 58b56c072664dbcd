import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { compileFlowGraph, FLOW_FIRED_BY_HOST, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowGraphSource } from '../src/index.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README graph is the exploding barrel example', () => {
  const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(json).toBeDefined();
  expect(JSON.parse(json!)).toEqual(explodingBarrel);
});

test('the README example runs as written', () => {
  const barrelSource = explodingBarrel;
  // --- README example, verbatim ---
  const log: string[] = [];
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'spawn_effect', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`effect ${call.string(0)}`) });
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`sound ${call.string(0)}`) });
  registry.defineAction({
    name: 'push_actor',
    inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }],
    run: (call) => log.push(`push ${call.number(0)} by ${call.number(1)}`),
  });
  registry.defineAction({ name: 'destroy_unit', run: (call) => log.push(`destroy ${call.instance.unit}`) });

  const file = compileFlowGraph(barrelSource, registry); // one ArrayBuffer: save it, ship it
  const program = loadFlowProgram(file, registry); // shared by every barrel
  const runtime = new FlowRuntime();
  const barrel = program.instantiate(7); // unit 7: one memcpy of the dynamic template

  runtime.collision(barrel, 100); // health 100 -> 60
  runtime.collision(barrel, 101); // 60 -> 20
  runtime.collision(barrel, 102); // 20 -> -20: the fuse is lit
  runtime.update(barrel, 0.25);
  runtime.update(barrel, 0.25); // half a second later:
  // --- end of README example ---
  expect(log).toEqual(['effect fx/barrel_explosion', 'sound sfx/explosion', 'push 102 by 50', 'destroy 7']);
  // The README's code block is this code.
  expect(readme).toContain("const barrel = program.instantiate(7); // unit 7: one memcpy of the dynamic template");
  expect(readme).toContain("// log: ['effect fx/barrel_explosion', 'sound sfx/explosion', 'push 102 by 50', 'destroy 7']");
});

test('the README live-debugging example runs as written', () => {
  const barrelSource: FlowGraphSource = explodingBarrel;
  const log: string[] = [];
  const registry = new FlowRegistry();
  for (const name of ['spawn_effect', 'play_sound']) registry.defineAction({ name, inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(call.string(0)) });
  registry.defineAction({ name: 'push_actor', inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }], run: () => log.push('push') });
  registry.defineAction({ name: 'destroy_unit', run: (call) => log.push(`destroy ${call.instance.unit}`) });
  const program = loadFlowProgram(compileFlowGraph(barrelSource, registry), registry);
  const runtime = new FlowRuntime();
  const barrel = program.instantiate(7);
  runtime.collision(barrel, 100);
  const code = `
const crate = program.instantiate(8); // the instance the tool watches
const watch = runtime.watch(crate, { records: 256 });
runtime.setBreakpoint(crate, 'fuse');
runtime.collision(crate, 1);
expect(watch.record(0)).toEqual({ node: 0, id: 'hit', socket: FLOW_FIRED_BY_HOST, values: [1] });
expect(watch.lastValues('damage')).toEqual([100, 40, 60]); // inputs a, b, then output result
watch.clear(); // the engine sends the frame to the tool, then clears it
runtime.collision(crate, 2);
runtime.collision(crate, 3); // health -20: once fires, and crate pauses before fuse
expect(runtime.debugStatus(crate).nodeId).toBe('fuse');
runtime.update(crate, 1); // paused: its time stands still; barrel and the rest run on
runtime.clearBreakpoint(crate, 'fuse');
runtime.continue(crate); // fuse runs: lit for 0.5 s
runtime.update(crate, 0.5); // boom
expect(log).toEqual(['fx/barrel_explosion', 'sfx/explosion', 'push', 'destroy 8']);

// Saved in the editor: damage is 10 now. Recompile, reload; barrel keeps its health of 60.
const edited = { ...barrelSource, nodes: barrelSource.nodes.map((n) => (n.id === 'damage' ? { ...n, inputs: { b: 10 } } : n)) };
const report = runtime.reload([barrel, crate], loadFlowProgram(compileFlowGraph(edited, registry), registry));
expect(report.variablesKept).toEqual(['health']);
runtime.collision(barrel, 4);
expect(barrel.state[barrel.program.variable('health').slot]).toBe(50);
`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the README's block as written
  const run = new Function('program', 'runtime', 'barrel', 'barrelSource', 'registry', 'log', 'expect', 'FLOW_FIRED_BY_HOST', 'compileFlowGraph', 'loadFlowProgram', code) as (...args: unknown[]) => void;
  run(program, runtime, barrel, barrelSource, registry, log, expect, FLOW_FIRED_BY_HOST, compileFlowGraph, loadFlowProgram);
  const block = /## Live debugging[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block?.trim()).toBe(code.trim());
});

test('the shipped JSON Schema accepts the example and describes every top-level key', () => {
  const schema = JSON.parse(readFileSync(new URL('../schema/flow-graph.schema.json', import.meta.url), 'utf8')) as {
    required: string[];
    properties: Record<string, unknown>;
    $defs: { node: { properties: Record<string, unknown> }; link: { properties: Record<string, unknown> } };
  };
  expect(schema.required).toEqual(['flow', 'kind', 'nodes']);
  for (const key of Object.keys(explodingBarrel)) expect(schema.properties).toHaveProperty(key);
  for (const node of explodingBarrel.nodes) for (const key of Object.keys(node)) expect(schema.$defs.node.properties).toHaveProperty(key);
  for (const link of [...explodingBarrel.events!, ...explodingBarrel.links!]) for (const key of Object.keys(link)) expect(schema.$defs.link.properties).toHaveProperty(key);
});

test('the README SJSON level graph compiles and runs', () => {
  const text = /```text\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(text).toBeDefined();
  const played: string[] = [];
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: (call) => played.push(call.string(0)) });
  const program = loadFlowProgram(compileFlowGraph(text!, registry), registry);
  new FlowRuntime().levelLoaded(program.instantiate());
  expect(played).toEqual(['music/level1']);
});

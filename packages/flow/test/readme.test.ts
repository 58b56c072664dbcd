import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram } from '../src/index.ts';

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

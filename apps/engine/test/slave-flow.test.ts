// Live Flow debugging over the protocol: the real slave server and real WebSocket tools, over an
// engine whose Flow graphs are real (@cuttle/flow programs compiled with the engine's actions)
// and whose frames are blank, so no GPU is needed. slave-reload.test.ts runs the same messages
// against a real engine process.
import { compileFlowGraph, loadFlowProgram, type FlowGraphSource } from '@cuttle/flow';
import { afterEach, describe, expect, test } from 'vitest';
import { EngineError } from '../src/errors.ts';
import { checkCamera, type CameraInput } from '../src/runtime/camera.ts';
import type { RenderedFrame } from '../src/runtime/engine.ts';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowScripts, type FlowGraphReload, type FlowUnitPlacement } from '../src/runtime/flow-scripts.ts';
import type { LogFn } from '../src/runtime/world.ts';
import { ACTIVITY_INTERVAL_MS, MAX_ACTIVITY_NODES, MAX_ACTIVITY_VALUES, MAX_BREAKPOINTS } from '../src/slave/flow-debugger.ts';
import { SlaveServer } from '../src/slave/server.ts';
import type { SlaveEngine } from '../src/slave/slave-engine.ts';
import { ticker } from './flow-graphs.ts';
import { connect, TOKEN, type ToolClient } from './slave-helpers.ts';

/** 300 (lerp, variable/set) pairs, all fired by one timer: 601 nodes run on each tick. */
function big(): FlowGraphSource {
  const nodes: object[] = [{ id: 'tick', type: 'event/timer', inputs: { period: 0.05 } }];
  const events: object[] = [];
  const links: object[] = [];
  for (let i = 0; i < 300; i++) {
    nodes.push({ id: `mix${i}`, type: 'math/lerp', inputs: { a: i, b: i + 1, t: 0.5 } }, { id: `set${i}`, type: 'variable/set', settings: { variable: 'v' } });
    events.push({ from: 'tick.tick', to: `set${i}.in` });
    links.push({ from: `mix${i}.result`, to: `set${i}.value` });
  }
  return { flow: 1, kind: 'unit', variables: { v: { type: 'float', value: 0 } }, nodes, events, links } as FlowGraphSource;
}

const LEVEL: FlowGraphSource = { flow: 1, kind: 'level', nodes: [{ id: 'start', type: 'event/level_loaded' }, { id: 'title', type: 'action/set_title', inputs: { text: 'hello' } }], events: [{ from: 'start.out', to: 'title.in' }] };

const UNITS: FlowUnitPlacement[] = [
  { unit: 'lamp_00', graph: 'flow/ticker', entity: 1 },
  { unit: 'lamp_01', graph: 'flow/ticker', entity: 2 },
  { unit: 'lamp_02', graph: 'flow/ticker', entity: 3 },
  { unit: 'big', graph: 'flow/big', entity: 4 },
];

/** Engine.reload's Flow path and World.update's Flow step, over graphs held in memory. */
class FlowEngine implements SlaveEngine {
  readonly lines: string[] = [];
  log: LogFn = (level, system, message) => { this.lines.push(`[${level}] ${system}: ${message}`); };
  readonly level = 'levels/fake';
  generation = 0;
  readonly renderer = { ssao: true };
  readonly registry = createFlowRegistry();
  readonly graphs = new Map<string, FlowGraphSource>([['flow/ticker', ticker(1)], ['flow/big', big()], ['flow/level', LEVEL]]);
  world: { title: string; listUnits(): unknown[]; flow: FlowScripts };
  #camera: CameraInput = { position: [0, 1, 5], target: [0, 0, 0] };
  ticks = 0;

  constructor() {
    this.world = { title: 'fake', listUnits: () => [], flow: this.build(UNITS) };
  }

  build(units: FlowUnitPlacement[]): FlowScripts {
    const flow = new FlowScripts(this.registry, (name) => {
      const source = this.graphs.get(name);
      if (!source) throw new EngineError(`${name}.flow is not in the compiled data`);
      return { program: loadFlowProgram(compileFlowGraph(source, this.registry), this.registry), types: source.nodes.map((n) => n.type) };
    }, units, 'flow/level');
    flow.start();
    return flow;
  }

  get camera(): CameraInput {
    return this.#camera;
  }

  set camera(camera: CameraInput) {
    this.#camera = checkCamera(camera);
  }

  reload(paths: readonly string[]): { ok: true; generation: number; mode: 'in-place'; flow: FlowGraphReload[] } | { ok: false; error: string } {
    try {
      const flow = this.world.flow.reload(paths.map((p) => p.replace(/\.flow$/, '')));
      return { ok: true, generation: ++this.generation, mode: 'in-place', flow };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  tick(): void {
    this.ticks++;
    this.world.flow.update(1 / 60);
  }

  renderFrame(width: number, height: number): Promise<RenderedFrame> {
    this.tick();
    return Promise.resolve({ width, height, pixels: new Uint8Array(width * height * 4), cpu: { update: 0, record: 0, readback: 0 }, gpu: {}, generation: this.generation, flowFailure: null });
  }

  ticksOf(unit: string): number {
    const { instance } = this.world.flow.find(unit)!;
    return instance.state[instance.program.variable('ticks').slot]!;
  }
}

let server: SlaveServer | undefined;
let engine: FlowEngine;
const tools: ToolClient[] = [];
afterEach(async () => {
  for (const tool of tools.splice(0)) tool.close();
  await server?.close();
  server = undefined;
});

async function start(): Promise<void> {
  engine = new FlowEngine();
  server = await SlaveServer.start({ engine, host: '127.0.0.1', port: 0, token: TOKEN, allowedOrigins: [], commands: {} });
}

async function tool(): Promise<ToolClient> {
  const client = await connect(server!.url);
  tools.push(client);
  await client.next((m) => m.type === 'hello');
  return client;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Sends a flow message with a fresh id and waits for the reply carrying that id. */
let nextId = 1;
async function ask(client: ToolClient, message: object): Promise<Record<string, unknown>> {
  const id = nextId++;
  client.send({ type: 'flow', id, ...message });
  return client.next((m) => m.id === id);
}

describe('watching', () => {
  test('list names the units that run graphs; watch names the real node ids and pins; activity says which nodes ran with their values', async () => {
    await start();
    const t = await tool();
    const list = await ask(t, { action: 'list' });
    expect(list).toMatchObject({ type: 'flow.units', more: 0 });
    expect(list.units).toEqual([
      { unit: null, graph: 'flow/level.flow', kind: 'level', nodes: 2 },
      { unit: 'lamp_00', graph: 'flow/ticker.flow', kind: 'unit', nodes: 4 },
      { unit: 'lamp_01', graph: 'flow/ticker.flow', kind: 'unit', nodes: 4 },
      { unit: 'lamp_02', graph: 'flow/ticker.flow', kind: 'unit', nodes: 4 },
      { unit: 'big', graph: 'flow/big.flow', kind: 'unit', nodes: 601 },
    ]);
    const watching = await ask(t, { action: 'watch', unit: 'lamp_01' });
    expect(watching).toMatchObject({ type: 'flow.watching', watching: true, unit: 'lamp_01', graph: 'flow/ticker.flow', kind: 'unit', nodeCount: 4, nodesCut: 0, breakpoints: [], paused: null });
    expect(watching.nodes).toEqual([
      { id: 'tick', type: 'event/timer', pins: ['period'] },
      { id: 'get', type: 'variable/get', pins: ['value'] },
      { id: 'add', type: 'math/add', pins: ['a', 'b', 'result'] },
      { id: 'set', type: 'variable/set', pins: ['value'] },
    ]);
    const activity = await t.next((m) => m.type === 'flow.activity');
    expect(activity.unit).toBe('lamp_01');
    const ran = new Map(activity.ran as [string, number][]);
    // variable/get shares its variable's slot: it never runs, and its pin is the variable.
    expect([...ran.keys()].sort()).toEqual(['add', 'set', 'tick']);
    const values = activity.values as Record<string, number[]>;
    // add: a (ticks before), b = 1, result = a + 1; set stored the result.
    expect(values.add![1]).toBe(1);
    expect(values.add![2]).toBe(values.add![0]! + 1);
    expect(values.set![0]).toBe(values.add![2]);
    expect(activity.cut).toEqual({ nodes: 0, values: 0 });
  }, 30_000);

  test('activity comes at most every 100 ms, only when something ran, cut to its bounds', async () => {
    await start();
    const t = await tool();
    await ask(t, { action: 'watch', unit: 'big' });
    await sleep(1500);
    const activity = t.messages.filter((m) => m.type === 'flow.activity');
    expect(activity.length).toBeGreaterThan(3);
    expect(activity.length).toBeLessThanOrEqual(1500 / ACTIVITY_INTERVAL_MS + 2);
    for (const a of activity.slice(1)) expect(a.ms as number).toBeGreaterThanOrEqual(ACTIVITY_INTERVAL_MS - 1);
    for (const a of activity) {
      const ran = a.ran as [string, number][];
      const values = a.values as Record<string, unknown[]>;
      const cut = a.cut as { nodes: number; values: number };
      expect(ran.length).toBe(MAX_ACTIVITY_NODES);
      expect(ran.length + cut.nodes).toBe(601);
      expect(Object.values(values).reduce((n, v) => n + v.length, 0)).toBeLessThanOrEqual(MAX_ACTIVITY_VALUES);
      expect(Object.keys(values).length + cut.values).toBe(ran.length);
      expect(cut.values).toBeGreaterThan(0);
      expect(JSON.stringify(a).length).toBeLessThan(16 * 1024);
    }
    // The level graph ran once, at load: watching it sends no activity at all.
    const quiet = await tool();
    await ask(quiet, { action: 'watch', unit: null });
    await sleep(400);
    expect(quiet.messages.filter((m) => m.type === 'flow.activity')).toEqual([]);
  }, 30_000);
});

describe('breakpoints', () => {
  test('a breakpoint pauses one unit while the other units and the frames go on; step and continue', async () => {
    await start();
    const t = await tool();
    t.send({ type: 'frame', width: 64, height: 16, fps: 30, quality: 50 });
    await ask(t, { action: 'watch', unit: 'lamp_00' });
    expect(await ask(t, { action: 'breakpoint', node: 'set', on: true })).toMatchObject({ type: 'flow.breakpoints', unit: 'lamp_00', nodes: ['set'] });
    const paused = await t.next((m) => m.type === 'flow.paused');
    expect(paused).toMatchObject({ unit: 'lamp_00', node: 'set', why: 'breakpoint' });
    const held = engine.ticksOf('lamp_00');
    const others = engine.ticksOf('lamp_01');
    const frames = t.frames.length;
    await sleep(500);
    expect(engine.ticksOf('lamp_00')).toBe(held);
    expect(engine.ticksOf('lamp_01')).toBeGreaterThan(others + 3);
    expect(t.frames.length).toBeGreaterThan(frames + 3);

    // step: the held node (set) runs, and the unit stops before the next node to run (tick, in a later update).
    t.messages.length = 0;
    t.send({ type: 'flow', action: 'step' });
    expect(await t.next((m) => m.type === 'flow.resumed')).toMatchObject({ unit: 'lamp_00', stepping: true });
    expect(await t.next((m) => m.type === 'flow.paused')).toMatchObject({ unit: 'lamp_00', node: 'tick', why: 'step' });
    expect(engine.ticksOf('lamp_00')).toBe(held + 1);

    // continue: it runs on to the breakpoint again; cleared, it runs freely.
    t.messages.length = 0;
    t.send({ type: 'flow', action: 'continue' });
    expect(await t.next((m) => m.type === 'flow.resumed')).toMatchObject({ stepping: false });
    expect(await t.next((m) => m.type === 'flow.paused')).toMatchObject({ node: 'set', why: 'breakpoint' });
    await ask(t, { action: 'breakpoint', node: 'set', on: false });
    t.send({ type: 'flow', action: 'continue' });
    const before = engine.ticksOf('lamp_00');
    await until(() => engine.ticksOf('lamp_00') > before + 3, 'lamp_00 to run again');
    expect(engine.world.flow.runtime.debugStatus(engine.world.flow.find('lamp_00')!.instance)).toMatchObject({ paused: false, breakpoints: [] });
  }, 30_000);

  test('a tool that disconnects takes its breakpoints with it and its paused unit runs on', async () => {
    await start();
    const t = await tool();
    const other = await tool();
    await ask(other, { action: 'watch', unit: 'lamp_02' });
    await ask(t, { action: 'watch', unit: 'lamp_02' });
    await ask(t, { action: 'breakpoint', node: 'set', on: true });
    await t.next((m) => m.type === 'flow.paused');
    // The other watcher is told too, and why.
    expect(await other.next((m) => m.type === 'flow.paused')).toMatchObject({ unit: 'lamp_02', node: 'set', why: 'breakpoint' });
    const instance = engine.world.flow.find('lamp_02')!.instance;
    t.close();
    await until(() => !engine.world.flow.runtime.isPaused(instance), 'lamp_02 to run on');
    expect(await other.next((m) => m.type === 'flow.resumed')).toMatchObject({ unit: 'lamp_02' });
    const status = engine.world.flow.runtime.debugStatus(instance);
    expect(status).toMatchObject({ paused: false, breakpoints: [], watched: true });
    const before = engine.ticksOf('lamp_02');
    await until(() => engine.ticksOf('lamp_02') > before + 2, 'lamp_02 to tick');
    // The last watcher leaves: the instance is back on the fast path.
    other.close();
    await until(() => instance.debug === null, 'lamp_02 unwatched');
  }, 30_000);
});

describe('hostile and malformed flow messages', () => {
  test('each gets an error reply naming the problem and changes nothing', async () => {
    await start();
    const t = await tool();
    const error = async (message: object): Promise<string> => {
      const count = t.messages.filter((m) => m.type === 'error').length;
      t.send(message);
      const reply = await t.next((m) => m.type === 'error' && t.messages.filter((e) => e.type === 'error').indexOf(m) === count);
      return reply.problem as string;
    };
    expect(await error({ type: 'flow', action: 'explode' })).toContain('field action');
    expect(await error({ type: 'flow' })).toContain('field action');
    expect(await error({ type: 'flow', action: 'watch', unit: 'x'.repeat(10_000) })).toContain('field unit: Invalid length');
    expect(await error({ type: 'flow', action: 'breakpoint', node: 'n'.repeat(129), on: true })).toContain('field node: Invalid length');
    expect(await error({ type: 'flow', action: 'watch', unit: 'lamp_00', extra: 1 })).toContain('field extra');
    expect(await error({ type: 'flow', action: 'breakpoint', node: 'set', on: true })).toContain('watch a unit first');
    expect(await error({ type: 'flow', action: 'continue' })).toContain('watch a unit first');
    await ask(t, { action: 'watch', unit: 'lamp_00' });
    expect(await error({ type: 'flow', action: 'watch', unit: 'no_such_unit' })).toContain('unit "no_such_unit" runs no Flow graph');
    expect(await error({ type: 'flow', action: 'breakpoint', node: 'nope', on: true })).toContain('has no node "nope"');
    expect(await error({ type: 'flow', action: 'breakpoint', node: 'add', on: true })).toMatch(/pure/);
    expect(await error({ type: 'flow', action: 'continue' })).toContain('is not paused');
    // Still watching lamp_00, with no breakpoint, running.
    t.messages.length = 0;
    expect(await t.next((m) => m.type === 'flow.activity')).toMatchObject({ unit: 'lamp_00' });
    const instance = engine.world.flow.find('lamp_00')!.instance;
    expect(engine.world.flow.runtime.debugStatus(instance)).toMatchObject({ watched: true, paused: false, breakpoints: [] });
  }, 30_000);

  test(`10,000 breakpoints: ${MAX_BREAKPOINTS} are set, the rest refused; the engine keeps running`, async () => {
    await start();
    const t = await tool();
    await ask(t, { action: 'watch', unit: 'big' });
    t.messages.length = 0;
    for (let i = 0; i < 10_000; i++) t.send({ type: 'flow', action: 'breakpoint', node: `set${i}`, on: true });
    await until(() => t.messages.filter((m) => m.type === 'error' || m.type === 'flow.breakpoints').length === 10_000, '10,000 replies', 50_000);
    expect(t.messages.filter((m) => m.type === 'flow.breakpoints')).toHaveLength(MAX_BREAKPOINTS);
    const errors = t.messages.filter((m) => m.type === 'error');
    expect(errors[0]!.problem).toContain(`already has ${MAX_BREAKPOINTS} breakpoints`);
    expect(errors.every((e) => (e.problem as string).includes('already has'))).toBe(true);
    const instance = engine.world.flow.find('big')!.instance;
    expect(engine.world.flow.runtime.debugStatus(instance).breakpoints).toHaveLength(MAX_BREAKPOINTS);
    const ticks = engine.ticks;
    await until(() => engine.ticks > ticks + 5, 'the engine to tick');
  }, 60_000);
});

describe('reloads', () => {
  test('a recompiled graph switches the running instances and keeps their variables; watchers get the new graph', async () => {
    await start();
    const t = await tool();
    await ask(t, { action: 'watch', unit: 'lamp_00' });
    await ask(t, { action: 'breakpoint', node: 'set', on: true });
    await t.next((m) => m.type === 'flow.paused');
    const kept = engine.ticksOf('lamp_01');
    expect(kept).toBeGreaterThan(0);
    engine.graphs.set('flow/ticker', ticker(100));
    t.messages.length = 0;
    t.send({ type: 'reload', id: 7, resources: ['flow/ticker.flow'] });
    const reloaded = await t.next((m) => m.type === 'reloaded');
    expect(reloaded).toMatchObject({ ok: true, mode: 'in-place' });
    expect((reloaded.flow as FlowGraphReload[])[0]).toMatchObject({ graph: 'flow/ticker.flow', report: { instances: 3, variablesKept: ['ticks'], nodesRemoved: [] } });
    // The value carried over, and the new step adds to it.
    const after = engine.ticksOf('lamp_01');
    expect(after).toBeGreaterThanOrEqual(kept);
    await until(() => engine.ticksOf('lamp_01') >= after + 100, 'the new graph to run');
    expect(engine.ticksOf('lamp_01') % 100).toBe(after % 100);
    // The watcher is told, and its breakpoint followed the node id.
    expect(await t.next((m) => m.type === 'flow.watching')).toMatchObject({ watching: true, unit: 'lamp_00', reason: 'the graph was reloaded', breakpoints: ['set'] });

    // A graph that fails to load leaves the old one running and says why.
    engine.graphs.delete('flow/ticker');
    t.send({ type: 'reload', id: 8, resources: ['flow/ticker.flow'] });
    expect(await t.next((m) => m.type === 'reloaded' && m.id === 8)).toMatchObject({ ok: false, error: 'flow/ticker.flow is not in the compiled data' });
    const before = engine.ticksOf('lamp_01');
    await until(() => engine.ticksOf('lamp_01') >= before + 200, 'the old graph to run on');
  }, 30_000);

  test('a new world: the watch moves to the unit of the same id, or the tool is told it is gone', async () => {
    await start();
    const stays = await tool();
    const gone = await tool();
    await ask(stays, { action: 'watch', unit: 'lamp_00' });
    await ask(gone, { action: 'watch', unit: 'lamp_02' });
    stays.messages.length = 0;
    gone.messages.length = 0;
    engine.world = { ...engine.world, flow: engine.build(UNITS.filter((u) => u.unit !== 'lamp_02')) };
    expect(await gone.next((m) => m.type === 'flow.watching')).toMatchObject({ watching: false, unit: 'lamp_02', reason: 'unit "lamp_02" is gone: the level was reloaded without it.' });
    expect(await stays.next((m) => m.type === 'flow.watching')).toMatchObject({ watching: true, unit: 'lamp_00', reason: 'the level was reloaded' });
    expect(await stays.next((m) => m.type === 'flow.activity')).toMatchObject({ unit: 'lamp_00' });
    expect(engine.world.flow.find('lamp_00')!.instance.debug?.watch).toBeTruthy();
  }, 30_000);
});

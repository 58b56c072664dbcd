import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { H, N, NODE_FIXED_WORDS } from '../src/blob-layout.ts';
import { compileFlowGraph, FlowError, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowProgram } from '../src/index.ts';

function barrelRegistry(log: string[]): FlowRegistry {
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'spawn_effect', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`effect ${call.string(0)}`) });
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`sound ${call.string(0)}`) });
  registry.defineAction({
    name: 'push_actor',
    inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }],
    run: (call) => log.push(`push ${call.number(0)} by ${call.number(1)}`),
  });
  registry.defineAction({ name: 'destroy_unit', run: (call) => log.push(`destroy ${call.instance.unit}`) });
  return registry;
}

/** Node id -> word offset, read from the blob's node table. */
function nodeOffsets(program: FlowProgram): Map<string, number> {
  const s = program.words;
  const table = s[H.nodeTable]!;
  const map = new Map<string, number>();
  for (let i = 0; i < s[table]!; i++) map.set(program.strings[s[table + 2 + 2 * i]!]!, s[table + 1 + 2 * i]!);
  return map;
}

/** Runs the barrel scenario and returns what happened plus the final state. */
function explode(program: FlowProgram, log: string[]): { log: string[]; state: number[] } {
  const runtime = new FlowRuntime();
  const barrel = program.instantiate(7);
  runtime.unitSpawned(barrel);
  for (let actor = 100; actor < 104; actor++) runtime.collision(barrel, actor);
  for (let i = 0; i < 4; i++) runtime.update(barrel, 0.2);
  return { log: [...log], state: Array.from(barrel.state) };
}

describe('the compiled blob', () => {
  const log: string[] = [];
  const registry = barrelRegistry(log);
  const file = compileFlowGraph(explodingBarrel, registry);
  const program = loadFlowProgram(file, registry);
  const nodes = nodeOffsets(program);
  const s = program.words;

  test('the barrel explodes once, half a second after health runs out, pushing the last actor', () => {
    log.length = 0;
    const { log: happened, state } = explode(program, log);
    expect(happened).toEqual(['effect fx/barrel_explosion', 'sound sfx/explosion', 'push 103 by 50', 'destroy 7']);
    expect(state[program.variable('health').slot]).toBe(-60);
  });

  test('shared variables point at the same offset of the dynamic blob', () => {
    const healthSlot = program.variable('health').slot;
    const get = nodes.get('health')!;
    const set = nodes.get('store')!;
    const dead = nodes.get('dead')!;
    // variable/get has no storage of its own: its output is the variable's slot...
    expect(s[get + NODE_FIXED_WORDS + s[get + N.inputs]!]).toBe(healthSlot);
    // ...which variable/set writes and compare reads.
    expect(s[set + N.extra]).toBe(healthSlot);
    expect(s[dead + NODE_FIXED_WORDS]).toBe(healthSlot);
    // The collision's actor slot is the one push_actor reads after the fuse burns.
    const hit = nodes.get('hit')!;
    const push = nodes.get('push')!;
    expect(s[push + NODE_FIXED_WORDS]).toBe(s[hit + NODE_FIXED_WORDS + s[hit + N.inputs]!]);
  });

  test('constants live inline, inside their node record', () => {
    const damage = nodes.get('damage')!;
    const ref = s[damage + NODE_FIXED_WORDS + 1]!;
    expect(ref).toBeLessThan(0);
    expect(program.constants[~ref]).toBe(40);
    const byte = ~ref * 8;
    expect(byte).toBeGreaterThan(damage * 4);
    expect(byte).toBeLessThan(nodes.get('store')! * 4);
  });

  test('node records start with their type id and reference other nodes by offset', () => {
    const hit = nodes.get('hit')!;
    const list = s[hit + NODE_FIXED_WORDS + s[hit + N.inputs]! + s[hit + N.outputs]! + s[hit + N.state]!]!;
    expect(s[list]).toBe(1);
    expect(s[list + 1]).toBe(nodes.get('store'));
    expect(program.stats).toMatchObject({ nodes: 13, dynamicBytes: 6 * 8 });
  });

  test('tickNodes counts the delays and timers update advances', () => {
    const count = (type: string): number => explodingBarrel.nodes.filter((n) => n.type === type).length;
    expect(program.tickNodes).toBe(count('logic/delay') + count('event/timer'));
    expect(program.tickNodes).toBeGreaterThan(0);
    const registry = new FlowRegistry();
    const still = loadFlowProgram(compileFlowGraph({ flow: 1, kind: 'unit', nodes: [{ id: 'spawned', type: 'event/unit_spawned' }] }, registry), registry);
    expect(still.tickNodes).toBe(0);
    const timed = loadFlowProgram(compileFlowGraph({ flow: 1, kind: 'unit', nodes: [{ id: 'a', type: 'event/timer', inputs: { period: 1 } }, { id: 'b', type: 'event/timer', inputs: { period: 2 } }] }, registry), registry);
    expect(timed.tickNodes).toBe(2);
  });

  test('the file is position independent: copied, shifted, saved to disk and read back in one call', () => {
    log.length = 0;
    const reference = explode(program, log);
    const shifted = new Uint8Array(file.byteLength + 16);
    shifted.set(new Uint8Array(file), 16);
    const unaligned = new Uint8Array(file.byteLength + 3);
    unaligned.set(new Uint8Array(file), 3);
    const dir = mkdtempSync(join(tmpdir(), 'cuttle-flow-'));
    try {
      const path = join(dir, 'barrel.flow');
      writeFileSync(path, new Uint8Array(file));
      const copies = [file.slice(0), structuredClone(file), shifted.subarray(16), unaligned.subarray(3), readFileSync(path)];
      for (const copy of copies) {
        log.length = 0;
        expect(explode(loadFlowProgram(copy, registry), log)).toEqual(reference);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an aligned view is used in place, not copied', () => {
    const shifted = new Uint8Array(file.byteLength + 16);
    shifted.set(new Uint8Array(file), 16);
    const loaded = loadFlowProgram(shifted.subarray(16), registry);
    expect(loaded.words.buffer).toBe(shifted.buffer);
    expect(loaded.words.byteOffset).toBe(16);
  });

  test('compiling is deterministic, and SJSON text gives the same bytes as the object', () => {
    const again = compileFlowGraph(explodingBarrel, registry);
    expect(new Uint8Array(again)).toEqual(new Uint8Array(file));
    const sjson = `
      flow = 1, kind = "unit", name = "exploding_barrel"
      variables = { health = { type = "float" value = 100 } }
      nodes = [
        ${explodingBarrel.nodes.map((n) => JSON.stringify(n)).join('\n')}
      ]
      events = ${JSON.stringify(explodingBarrel.events)}
      links = ${JSON.stringify(explodingBarrel.links)}
    `;
    expect(new Uint8Array(compileFlowGraph(sjson, registry))).toEqual(new Uint8Array(file));
  });

  test('running leaves the shared template untouched', () => {
    const before = Array.from(program.template);
    log.length = 0;
    explode(program, log);
    expect(Array.from(program.template)).toEqual(before);
  });

  test('the loader rejects what is not a sound flow file, and unbound actions', () => {
    expect(() => loadFlowProgram(new ArrayBuffer(8), registry)).toThrow(FlowError);
    const bad = file.slice(0);
    new Int32Array(bad)[0] = 0;
    expect(() => loadFlowProgram(bad, registry)).toThrow(/magic/);
    const old = file.slice(0);
    new Int32Array(old)[1] = 99;
    expect(() => loadFlowProgram(old, registry)).toThrow(/version/);
    expect(() => loadFlowProgram(file.slice(0, file.byteLength - 8), registry)).toThrow(/truncated/);
    expect(() => loadFlowProgram(file, new FlowRegistry())).toThrow(/defineAction/);
    const other = new FlowRegistry();
    other.defineAction({ name: 'spawn_effect', run: () => undefined });
    expect(() => loadFlowProgram(file, other)).toThrow(/recompile/);
    expect(() => loadFlowProgram('nope' as unknown as ArrayBuffer, registry)).toThrow(FlowError);
  });

  test('the registry rejects bad action specs', () => {
    const r = new FlowRegistry();
    expect(() => r.defineAction({ name: 'has space', run: () => undefined })).toThrow(FlowError);
    expect(() => r.defineAction({ name: 'x', inputs: [{ name: 'a', type: 'vec3' as 'float' }], run: () => undefined })).toThrow(FlowError);
    expect(() => r.defineAction({ name: 'x', inputs: [{ name: 'a', type: 'float' }, { name: 'a', type: 'int' }], run: () => undefined })).toThrow(FlowError);
    expect(() => r.defineAction({ name: 'x', outputs: [{ name: 'a', type: 'string' }], run: () => undefined })).toThrow(FlowError);
    r.defineAction({ name: 'x', run: () => undefined });
    expect(() => r.defineAction({ name: 'x', run: () => undefined })).toThrow(/already/);
    expect(r.get('action/x')?.eventInputs).toEqual(['in']);
    expect(r.types().length).toBeGreaterThan(30);
  });

  test('actions see typed arguments and write typed results read downstream', () => {
    const out: string[] = [];
    const r = new FlowRegistry();
    r.defineAction({
      name: 'probe',
      inputs: [{ name: 'f', type: 'float' }, { name: 'i', type: 'int' }, { name: 'b', type: 'bool' }, { name: 's', type: 'string' }],
      outputs: [{ name: 'half', type: 'float' }, { name: 'flag', type: 'bool' }],
      run: (call) => {
        out.push(`${call.number(0)} ${call.number(1)} ${call.bool(2)} ${call.string(3)}`);
        call.set(0, call.number(0) / 2);
        call.set(1, !call.bool(2));
        expect(() => call.number(4)).toThrow(FlowError);
        expect(() => { call.set(2, 1); }).toThrow(FlowError);
      },
    });
    r.defineAction({ name: 'show', inputs: [{ name: 'v', type: 'float' }, { name: 'b', type: 'bool' }], run: (call) => out.push(`${call.number(0)} ${call.bool(1)}`) });
    const source = {
      flow: 1,
      kind: 'level',
      nodes: [{ id: 'l', type: 'event/level_loaded' }, { id: 'p', type: 'action/probe', inputs: { f: 3, i: 2, b: true, s: 'hi' } }, { id: 'q', type: 'action/show' }],
      events: [{ from: 'l.out', to: 'p.in' }, { from: 'p.out', to: 'q.in' }],
      links: [{ from: 'p.half', to: 'q.v' }, { from: 'p.flag', to: 'q.b' }],
    };
    const level = loadFlowProgram(compileFlowGraph(source, r), r);
    expect(level.kind).toBe('level');
    const instance = level.instantiate();
    expect(instance.unit).toBe(-1);
    new FlowRuntime().levelLoaded(instance);
    expect(out).toEqual(['3 2 true hi', '1.5 false']);
  });
});

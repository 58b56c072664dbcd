import { describe, expect, test } from 'vitest';
import { compileFlowGraph, FlowError, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowInstance } from '../src/index.ts';
import { e, harness } from './helpers.ts';

const go = { id: 'go', type: 'event/external', settings: { name: 'go' } };

describe('events', () => {
  test('level_loaded, unit_spawned and collision fire their nodes with their values', () => {
    const h = harness({
      nodes: [
        { id: 'loaded', type: 'event/level_loaded' },
        { id: 'spawned', type: 'event/unit_spawned' },
        { id: 'hit', type: 'event/collision' },
        { id: 'a', type: 'action/log', inputs: { tag: 'loaded' } },
        { id: 'b', type: 'action/log_unit' },
        { id: 'c', type: 'action/log_unit' },
      ],
      events: [e('loaded.out', 'a.in'), e('spawned.out', 'b.in'), e('hit.out', 'c.in')],
      links: [e('spawned.unit', 'b.unit'), e('hit.actor', 'c.unit')],
    }, 42);
    h.runtime.levelLoaded(h.instance);
    h.runtime.unitSpawned(h.instance);
    h.runtime.collision(h.instance, 7);
    expect(h.log).toEqual(['loaded', 'unit 42', 'unit 7']);
  });

  test('external events are resolved by name and carry a value', () => {
    const h = harness({
      nodes: [go, { id: 'other', type: 'event/external', settings: { name: 'other' } }, { id: 'l', type: 'action/log_value' }, { id: 'm', type: 'action/log', inputs: { tag: 'other' } }],
      events: [e('go.out', 'l.in'), e('other.out', 'm.in')],
      links: [e('go.value', 'l.value')],
    });
    expect(h.program.externalEventNames()).toEqual(['go', 'other']);
    h.runtime.external(h.instance, h.program.externalEvent('go'), 2.5);
    h.runtime.external(h.instance, h.program.externalEvent('other'));
    expect(h.log).toEqual(['2.5', 'other']);
    expect(() => h.program.externalEvent('nope')).toThrow(FlowError);
    expect(() => { h.runtime.external(h.instance, 9); }).toThrow(FlowError);
  });

  test('timer ticks every period while running, stops and restarts', () => {
    const h = harness({
      nodes: [{ id: 't', type: 'event/timer', inputs: { period: 0.5 } }, { id: 'l', type: 'action/log', inputs: { tag: 'tick' } }, go, { id: 'off', type: 'event/external', settings: { name: 'off' } }],
      events: [e('t.tick', 'l.in'), e('go.out', 't.start'), e('off.out', 't.stop')],
    });
    for (let i = 0; i < 10; i++) h.runtime.update(h.instance, 0.25);
    expect(h.log.length).toBe(5);
    h.runtime.external(h.instance, h.program.externalEvent('off'));
    h.runtime.update(h.instance, 10);
    expect(h.log.length).toBe(5);
    h.runtime.external(h.instance, h.program.externalEvent('go'));
    h.runtime.update(h.instance, 0.4);
    expect(h.log.length).toBe(5);
    h.runtime.update(h.instance, 0.1);
    expect(h.log.length).toBe(6);
  });

  test('a timer with autostart false waits for start', () => {
    const h = harness({
      nodes: [{ id: 't', type: 'event/timer', inputs: { period: 1 }, settings: { autostart: false } }, { id: 'l', type: 'action/log', inputs: { tag: 'tick' } }],
      events: [e('t.tick', 'l.in')],
    });
    h.runtime.update(h.instance, 5);
    expect(h.log).toEqual([]);
  });
});

describe('logic', () => {
  test('branch follows its condition; and/or/not combine bools', () => {
    const h = harness({
      variables: { x: { type: 'bool', value: true }, y: { type: 'bool', value: false } },
      nodes: [
        go,
        { id: 'x', type: 'variable/get', settings: { variable: 'x' } },
        { id: 'y', type: 'variable/get', settings: { variable: 'y' } },
        { id: 'and', type: 'logic/and' },
        { id: 'or', type: 'logic/or' },
        { id: 'not', type: 'logic/not' },
        { id: 'seq', type: 'logic/sequence' },
        { id: 'b1', type: 'logic/branch' },
        { id: 'b2', type: 'logic/branch' },
        { id: 'b3', type: 'logic/branch' },
        { id: 't', type: 'action/log', inputs: { tag: 'T' } },
        { id: 'f', type: 'action/log', inputs: { tag: 'F' } },
      ],
      events: [e('go.out', 'seq.in'), e('seq.out0', 'b1.in'), e('seq.out1', 'b2.in'), e('seq.out2', 'b3.in'), ...['b1', 'b2', 'b3'].flatMap((b) => [e(`${b}.true`, 't.in'), e(`${b}.false`, 'f.in')])],
      links: [e('x.value', 'and.a'), e('y.value', 'and.b'), e('x.value', 'or.a'), e('y.value', 'or.b'), e('y.value', 'not.a'), e('and.result', 'b1.condition'), e('or.result', 'b2.condition'), e('not.result', 'b3.condition')],
    });
    h.runtime.external(h.instance, 0);
    expect(h.log).toEqual(['F', 'T', 'T']);
  });

  test.each([
    ['<', [true, false, false]],
    ['<=', [true, true, false]],
    ['==', [false, true, false]],
    ['!=', [true, false, true]],
    ['>=', [false, true, true]],
    ['>', [false, false, true]],
  ] as const)('compare %s', (op, expected) => {
    const h = harness({
      nodes: [go, { id: 'cmp', type: 'logic/compare', settings: { op }, inputs: { b: 1 } }, { id: 'br', type: 'logic/branch' }, { id: 't', type: 'action/log', inputs: { tag: 'T' } }, { id: 'f', type: 'action/log', inputs: { tag: 'F' } }],
      events: [e('go.out', 'br.in'), e('br.true', 't.in'), e('br.false', 'f.in')],
      links: [e('go.value', 'cmp.a'), e('cmp.result', 'br.condition')],
    });
    for (const a of [0, 1, 2]) h.runtime.external(h.instance, 0, a);
    expect(h.log).toEqual(expected.map((v) => (v ? 'T' : 'F')));
  });

  test('gate passes while open; open, close and toggle change it', () => {
    const h = harness({
      nodes: [go, ...['open', 'close', 'toggle'].map((n) => ({ id: n, type: 'event/external', settings: { name: n } })), { id: 'g', type: 'logic/gate', settings: { open: false } }, { id: 'l', type: 'action/log', inputs: { tag: 'pass' } }],
      events: [e('go.out', 'g.in'), e('open.out', 'g.open'), e('close.out', 'g.close'), e('toggle.out', 'g.toggle'), e('g.out', 'l.in')],
    });
    const fire = (name: string): void => { h.runtime.external(h.instance, h.program.externalEvent(name)); };
    fire('go');
    fire('open');
    fire('go');
    fire('close');
    fire('go');
    fire('toggle');
    fire('go');
    fire('toggle');
    fire('go');
    expect(h.log).toEqual(['pass', 'pass']);
  });

  test('once passes the first event until reset', () => {
    const h = harness({
      nodes: [go, { id: 'r', type: 'event/external', settings: { name: 'reset' } }, { id: 'o', type: 'logic/once' }, { id: 'l', type: 'action/log', inputs: { tag: 'once' } }],
      events: [e('go.out', 'o.in'), e('r.out', 'o.reset'), e('o.out', 'l.in')],
    });
    for (let i = 0; i < 3; i++) h.runtime.external(h.instance, 0);
    h.runtime.external(h.instance, 1);
    h.runtime.external(h.instance, 0);
    expect(h.log).toEqual(['once', 'once']);
  });

  test('counter counts, fires reached at its target after out, and resets', () => {
    const h = harness({
      nodes: [go, { id: 'r', type: 'event/external', settings: { name: 'reset' } }, { id: 'c', type: 'logic/counter', inputs: { target: 3 } }, { id: 'n', type: 'action/log_value' }, { id: 'done', type: 'action/log', inputs: { tag: 'reached' } }],
      events: [e('go.out', 'c.in'), e('r.out', 'c.reset'), e('c.out', 'n.in'), e('c.reached', 'done.in')],
      links: [e('c.count', 'n.value')],
    });
    for (let i = 0; i < 4; i++) h.runtime.external(h.instance, 0);
    h.runtime.external(h.instance, 1);
    h.runtime.external(h.instance, 0);
    expect(h.log).toEqual(['1', '2', '3', 'reached', '4', '1']);
  });

  test('delay fires after its time, restarts on a new in, and can be cancelled', () => {
    const h = harness({
      nodes: [go, { id: 'x', type: 'event/external', settings: { name: 'cancel' } }, { id: 'd', type: 'logic/delay', inputs: { seconds: 1 } }, { id: 'l', type: 'action/log', inputs: { tag: 'late' } }],
      events: [e('go.out', 'd.in'), e('x.out', 'd.cancel'), e('d.out', 'l.in')],
    });
    h.runtime.external(h.instance, 0);
    h.runtime.update(h.instance, 0.6);
    h.runtime.external(h.instance, 0); // restart
    h.runtime.update(h.instance, 0.6);
    expect(h.log).toEqual([]);
    h.runtime.update(h.instance, 0.4);
    expect(h.log).toEqual(['late']);
    h.runtime.update(h.instance, 5);
    expect(h.log).toEqual(['late']);
    h.runtime.external(h.instance, 0);
    h.runtime.external(h.instance, 1);
    h.runtime.update(h.instance, 5);
    expect(h.log).toEqual(['late']);
  });
});

describe('math and variables', () => {
  test('every math node computes what its description says', () => {
    const cases: [string, Record<string, number>, number][] = [
      ['add', { a: 2, b: 3 }, 5], ['sub', { a: 2, b: 3 }, -1], ['mul', { a: 2, b: 3 }, 6], ['div', { a: 3, b: 2 }, 1.5],
      ['min', { a: 2, b: 3 }, 2], ['max', { a: 2, b: 3 }, 3], ['neg', { a: 2 }, -2], ['abs', { a: -2 }, 2],
      ['sqrt', { a: 9 }, 3], ['floor', { a: 2.7 }, 2], ['sin', { a: 0 }, 0], ['cos', { a: 0 }, 1],
      ['lerp', { a: 2, b: 4, t: 0.25 }, 2.5], ['clamp', { value: 5, min: 0, max: 3 }, 3],
    ];
    for (const [op, inputs, expected] of cases) {
      const h = harness({ nodes: [go, { id: 'm', type: `math/${op}`, inputs }, { id: 'l', type: 'action/log_value' }], events: [e('go.out', 'l.in')], links: [e('m.result', 'l.value')] });
      h.runtime.external(h.instance, 0);
      expect(h.log, op).toEqual([String(expected)]);
    }
  });

  test('variable/set writes the slot variable/get shares; ints widen into floats', () => {
    const h = harness({
      variables: { total: { type: 'float', value: 1 } },
      nodes: [go, { id: 'get', type: 'variable/get', settings: { variable: 'total' } }, { id: 'add', type: 'math/add' }, { id: 'set', type: 'variable/set', settings: { variable: 'total' } }, { id: 'c', type: 'logic/counter' }, { id: 'l', type: 'action/log_value' }],
      events: [e('go.out', 'c.in'), e('c.out', 'set.in'), e('set.out', 'l.in')],
      links: [e('get.value', 'add.a'), e('c.count', 'add.b'), e('add.result', 'set.value'), e('get.value', 'l.value')],
    });
    for (let i = 0; i < 3; i++) h.runtime.external(h.instance, 0);
    expect(h.log).toEqual(['2', '4', '7']);
    expect(h.instance.state[h.program.variable('total').slot]).toBe(7);
  });
});

describe('execution order', () => {
  test('fan-out runs links in source order, depth first', () => {
    const h = harness({
      nodes: [go, { id: 'a', type: 'action/log', inputs: { tag: 'a' } }, { id: 'a2', type: 'action/log', inputs: { tag: 'a2' } }, { id: 'b', type: 'action/log', inputs: { tag: 'b' } }, { id: 'c', type: 'action/log', inputs: { tag: 'c' } }],
      events: [e('go.out', 'a.in'), e('go.out', 'b.in'), e('a.out', 'a2.in'), e('go.out', 'c.in')],
    });
    h.runtime.external(h.instance, 0);
    expect(h.log).toEqual(['a', 'a2', 'b', 'c']);
  });

  test('several event nodes for one event run in source order, each cascade first', () => {
    const h = harness({
      nodes: [{ id: 'h1', type: 'event/collision' }, { id: 'x', type: 'action/log', inputs: { tag: 'x' } }, { id: 'h2', type: 'event/collision' }, { id: 'y', type: 'action/log', inputs: { tag: 'y' } }, { id: 'x2', type: 'action/log', inputs: { tag: 'x2' } }],
      events: [e('h2.out', 'y.in'), e('h1.out', 'x.in'), e('x.out', 'x2.in')],
    });
    h.runtime.collision(h.instance, 3);
    expect(h.log).toEqual(['x', 'x2', 'y']);
  });

  test('an event loop is stopped by maxStepsPerCall and the runtime stays usable', () => {
    const h = harness({ nodes: [go, { id: 's', type: 'logic/sequence' }], events: [e('go.out', 's.in'), e('s.out0', 's.in')] });
    const runtime = new FlowRuntime({ maxStepsPerCall: 1000 });
    expect(() => { runtime.external(h.instance, 0); }).toThrow(/event loop/);
    const ok = harness({ nodes: [go, { id: 'l', type: 'action/log', inputs: { tag: 'ok' } }], events: [e('go.out', 'l.in')] });
    runtime.external(ok.instance, 0);
    expect(ok.log).toEqual(['ok']);
  });

  test('a fan-out wider than the stack throws a FlowError naming stackSize', () => {
    const nodes = [go, ...Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, type: 'action/log', inputs: { tag: `${i}` } }))];
    const h = harness({ nodes, events: nodes.slice(1).map((n) => e('go.out', `${n.id}.in`)) });
    expect(() => { new FlowRuntime({ stackSize: 16 }).external(h.instance, 0); }).toThrow(/stackSize/);
    new FlowRuntime({ stackSize: 64 }).external(h.instance, 0);
    expect(h.log.length).toBe(40);
  });

  test('an action may fire events into another instance (re-entrancy); the outer call keeps its inputs', () => {
    const log: string[] = [];
    const registry = new FlowRegistry();
    const runtime = new FlowRuntime();
    const target: { inner?: FlowInstance } = {};
    registry.defineAction({
      name: 'poke',
      inputs: [{ name: 'value', type: 'float' }],
      run: (call) => {
        log.push(`before ${call.number(0)}`);
        if (target.inner && call.instance !== target.inner) runtime.external(target.inner, 0, 9);
        log.push(`after ${call.number(0)}`);
      },
    });
    const source = { flow: 1, kind: 'unit', nodes: [go, { id: 'p', type: 'action/poke' }], events: [e('go.out', 'p.in')], links: [e('go.value', 'p.value')] };
    const program = loadFlowProgram(compileFlowGraph(source, registry), registry);
    const outer = program.instantiate(1);
    target.inner = program.instantiate(2);
    runtime.external(outer, 0, 5);
    expect(log).toEqual(['before 5', 'before 9', 'after 9', 'after 5']);
  });
});

describe('instances', () => {
  test('instances share the program but not their state; reset restores the template', () => {
    const h = harness({ nodes: [go, { id: 'c', type: 'logic/counter' }], events: [e('go.out', 'c.in')] });
    const other = h.program.instantiate(2);
    h.runtime.external(h.instance, 0);
    h.runtime.external(h.instance, 0);
    h.runtime.external(other, 0);
    const slot = h.program.words.length; // not a slot; just to show the state arrays differ
    expect(slot).toBeGreaterThan(0);
    expect(Array.from(h.instance.state)).not.toEqual(Array.from(other.state));
    h.instance.reset();
    expect(Array.from(h.instance.state)).toEqual(Array.from(h.program.template));
    expect(h.instance.program).toBe(other.program);
  });

  test('bad runtime arguments throw FlowError', () => {
    expect(() => new FlowRuntime({ stackSize: 2 })).toThrow(FlowError);
    expect(() => new FlowRuntime({ maxStepsPerCall: 0 })).toThrow(FlowError);
    const h = harness({ nodes: [go] });
    expect(() => { h.runtime.update(h.instance, -1); }).toThrow(FlowError);
    expect(() => h.program.instantiate(1.5)).toThrow(FlowError);
    expect(() => h.program.variable('nope')).toThrow(FlowError);
  });
});

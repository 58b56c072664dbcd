import { FlowRegistry } from '@cuttle/flow';
import { describe, expect, test } from 'vitest';
import { FLOW_PIN_COLOURS, FlowDocument, FlowEditorError } from '../src/index.ts';
import { fixture, hostRegistry, notARegistry, openBarrel, thrown } from './helpers.ts';

describe('opening a graph', () => {
  test('nodes, positions, links, comment boxes, groups and variables of the source', () => {
    const doc = openBarrel();
    expect(doc.header).toEqual({ kind: 'unit', name: 'exploding_barrel' });
    expect(doc.nodes.map((n) => n.id)).toEqual(['hit', 'health', 'damage', 'store', 'dead', 'check', 'once', 'fuse', 'boom', 'effect', 'sound', 'push', 'remove']);
    expect(doc.node('damage')).toMatchObject({ type: 'math/sub', x: 240, y: 160, placed: true, inputs: { b: 40 } });
    expect(doc.node('dead')!.settings).toEqual({ op: '<=' });
    expect(doc.links.filter((l) => l.kind === 'event')).toHaveLength(9);
    expect(doc.links.filter((l) => l.kind === 'data')).toHaveLength(5);
    expect(doc.link('data:health.value->damage.a')).toMatchObject({ from: { node: 'health', pin: 'value' }, to: { node: 'damage', pin: 'a' } });
    expect(doc.comments).toEqual([{ id: 'comment', text: 'Collisions take health', x: -20, y: -40, width: 520, height: 300, raw: expect.anything() as unknown }]);
    expect(doc.group('explosion')).toMatchObject({ title: 'Explosion', members: ['effect', 'sound', 'push', 'remove'] });
    expect(doc.variables).toMatchObject([{ name: 'health', type: 'float', value: 100 }]);
    expect(doc.validation.ok).toBe(true);
  });

  test('pins carry kind, value type, default and a colour per type', () => {
    const doc = openBarrel();
    const branch = doc.pins('check')!;
    expect(branch.inputs.map((p) => [p.name, p.kind, p.valueType])).toEqual([
      ['in', 'event', undefined],
      ['condition', 'data', 'bool'],
    ]);
    expect(branch.outputs.map((p) => p.name)).toEqual(['true', 'false']);
    expect(branch.inputs[0]!.colour).toBe(FLOW_PIN_COLOURS.event);
    expect(branch.inputs[1]!.colour).toBe(FLOW_PIN_COLOURS.bool);
    expect(doc.pin({ node: 'push', pin: 'target' }, 'input')).toMatchObject({ valueType: 'unit', colour: FLOW_PIN_COLOURS.unit, defaultValue: 0 });
    expect(doc.pin({ node: 'fuse', pin: 'seconds' }, 'input')!.defaultValue).toBe(1);
    // variable/get takes its variable's type; the palette's float until then.
    expect(doc.pin({ node: 'health', pin: 'value' }, 'output')!.valueType).toBe('float');
    doc.setVariable('health', { type: 'int', value: 100 });
    expect(doc.pin({ node: 'health', pin: 'value' }, 'output')!.valueType).toBe('int');
    expect(doc.pin({ node: 'health', pin: 'value' }, 'output')!.colour).toBe(FLOW_PIN_COLOURS.int);
  });

  test('look-ups are cached and indexed: the same pins object until something relevant changes', () => {
    const doc = openBarrel();
    const pins = doc.pins('damage');
    expect(doc.pins('damage')).toBe(pins);
    doc.move({ nodes: ['damage'] }, 10, 0);
    expect(doc.pins('damage')).toBe(pins); // a move keeps the type and settings
    expect(doc.linksOf('health').map((l) => l.id)).toEqual(['data:health.value->damage.a', 'data:health.value->dead.a']);
    expect(doc.linkInto('damage', 'a')!.from).toEqual({ node: 'health', pin: 'value' });
    expect(doc.linkInto('damage', 'b')).toBeUndefined();
    expect(doc.node('nope')).toBeUndefined();
    expect(doc.pins('nope')).toBeUndefined();
    expect(doc.linksOf('nope')).toEqual([]);
  });

  test('the engine sample opens; nodes without positions are laid out and stay unplaced', () => {
    const doc = FlowDocument.fromSource(fixture('courtyard.flow'), hostRegistry());
    expect(doc.validation.ok).toBe(true);
    expect(doc.nodes.every((n) => !n.placed)).toBe(true);
    const at = new Set(doc.nodes.map((n) => `${n.x},${n.y}`));
    expect(at.size).toBe(doc.nodes.length); // no two on one spot
    // Links lead right: every link's target column is right of its source's.
    for (const l of doc.links) expect(doc.node(l.to.node)!.x).toBeGreaterThan(doc.node(l.from.node)!.x);
    expect(doc.toSource()).toBe(fixture('courtyard.flow'));
  });

  test('unknown node types are issues on the node, with pins named by their links', () => {
    const registry = new FlowRegistry(); // without the barrel's actions
    const doc = openBarrel(registry);
    expect(doc.validation.ok).toBe(false);
    // The validator's own view: the node's type is unknown, so the link into it dangles.
    expect(doc.issuesOf('effect').map((i) => i.code)).toEqual(['unknown-type', 'dangling-link']);
    expect(doc.issuesOf('effect')[0]!.message).toContain('action/spawn_effect');
    const pins = doc.pins('push')!;
    expect(pins.inputs.map((p) => [p.name, p.kind, p.known])).toEqual([
      ['in', 'event', false],
      ['target', 'data', false],
      ['force', 'data', false],
    ]);
    expect(pins.inputs[1]!.colour).toBe(FLOW_PIN_COLOURS.unknown);
    expect(doc.issuesOf('hit')).toEqual([]);
  });
});

describe('bad input', () => {
  test('text that does not parse is a parse error with line and column', () => {
    const error = thrown(() => FlowDocument.fromSource('flow = 1\nnodes = [ { id = "a" ', hostRegistry()));
    expect(error).toBeInstanceOf(FlowEditorError);
    expect((error as FlowEditorError).code).toBe('parse');
    expect((error as FlowEditorError).message).toMatch(/2:\d+|line 2/);
  });

  test.each([
    ['a root that is not an object', '[1, 2]', /must be an object/],
    ['nodes that are not a list', 'flow = 1\nkind = "unit"\nnodes = 5', /"nodes" must be an array/],
    ['a node that is not an object', 'flow = 1\nkind = "unit"\nnodes = [ 5 ]', /nodes\[0\] is 5/],
    ['a link without a dot', 'flow = 1\nkind = "unit"\nnodes = []\nevents = [ { from = "a" to = "b.in" } ]', /events\[0\]\.from must be "nodeId.pin"/],
    ['a comment box without a rect', 'flow = 1\nkind = "unit"\nnodes = []\neditor = { comments = [ { id = "c" text = "x" } ] }', /editor\.comments\[0\]\.rect/],
    ['a group naming members with numbers', 'flow = 1\nkind = "unit"\nnodes = []\neditor = { groups = [ { id = "g" title = "x" rect = [0 0 1 1] members = [1] } ] }', /members must be an array of node ids/],
  ])('%s is refused as bad-source', (_name, text, message) => {
    const error = thrown(() => FlowDocument.fromSource(text, hostRegistry())) as FlowEditorError;
    expect(error).toBeInstanceOf(FlowEditorError);
    expect(error.code).toBe('bad-source');
    expect(error.message).toMatch(message);
  });

  test('a source the validator rejects still opens, its issues on the nodes', () => {
    const text = 'flow = 2\nkind = "unit"\nnodes = [ { id = "m" type = "math/add" inputs = { a = "x" } } ]\nlinks = [ { from = "ghost.value" to = "m.b" } ]';
    const doc = FlowDocument.fromSource(text, hostRegistry());
    expect(doc.issuesOf('m').map((i) => i.code)).toEqual(['bad-constant']);
    expect(doc.validation.graph.map((i) => i.code)).toEqual(['bad-source', 'dangling-link']);
  });

  test('colliding and missing node ids are made unique and said on the node', () => {
    const text = 'flow = 1\nkind = "unit"\nnodes = [ { id = "a" type = "logic/once" } { id = "a" type = "logic/once" } { id = "a_2" type = "logic/once" } { type = "logic/once" } { id = "x.y" type = "logic/once" } ]\nevents = [ { from = "a.out" to = "a_2.in" } ]';
    const doc = FlowDocument.fromSource(text, hostRegistry());
    expect(doc.nodes.map((n) => n.id)).toEqual(['a', 'a_3', 'a_2', 'node', 'x_y']);
    expect(doc.issuesOf('a_3').map((i) => i.code)).toEqual(['duplicate-node']);
    expect(doc.issuesOf('a_3')[0]!.message).toContain('Two nodes had id "a"');
    expect(doc.issuesOf('node').map((i) => i.code)).toEqual(['bad-source']);
    expect(doc.link('event:a.out->a_2.in')).toBeDefined();
    // Saved under the new ids, the graph compiles.
    const saved = FlowDocument.fromSource(doc.toSource(), hostRegistry());
    expect(saved.validation.ok).toBe(true);
  });

  test('keys that are data (__proto__, constructor) stay data', () => {
    const text = 'flow = 1\nkind = "unit"\nnodes = [ { id = "m" type = "math/add" inputs = { "__proto__" = 1 constructor = 2 } } ]';
    const doc = FlowDocument.fromSource(text, hostRegistry());
    expect(Object.keys(doc.node('m')!.inputs)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(doc.node('m')!.inputs)).toBe(Object.prototype);
    expect(doc.issuesOf('m').map((i) => i.socket)).toEqual(['__proto__', 'constructor']);
    expect(doc.toSource()).toBe(text);
  });

  test('arguments of the wrong kind are refused with typed errors', () => {
    expect(() => FlowDocument.fromSource(5 as unknown as string, hostRegistry())).toThrow(FlowEditorError);
    expect(() => FlowDocument.fromSource('flow = 1', notARegistry)).toThrow(/FlowRegistry/);
    expect(() => FlowDocument.fromSource('flow = 1', hostRegistry(), { historyLimit: 0 })).toThrow(/historyLimit/);
  });
});

import { describe, expect, test } from 'vitest';
import { FlowDocument, FlowEditorError } from '../src/index.ts';
import { hostRegistry, openBarrel, thrown } from './helpers.ts';

describe('copy and paste', () => {
  test('a pasted selection gets fresh ids, keeps the links inside it, lands offset', () => {
    const doc = openBarrel();
    const text = doc.copy({ nodes: ['health', 'damage', 'store', 'dead'], comments: ['comment'] });
    const pasted = doc.paste(text);
    expect(pasted.nodes).toEqual(['health_2', 'damage_2', 'store_2', 'dead_2']);
    expect(pasted.comments).toEqual(['comment_2']);
    expect(doc.node('damage_2')).toMatchObject({ x: 280, y: 200, inputs: { b: 40 }, placed: true });
    const inside = doc.links.filter((l) => pasted.nodes.includes(l.from.node));
    expect(inside.map((l) => l.id)).toEqual(['data:health_2.value->damage_2.a', 'data:damage_2.result->store_2.value', 'data:health_2.value->dead_2.a']);
    // hit.out -> store.in and dead.result -> check.condition cross the selection: not copied.
    expect(doc.linksOf('store_2').some((l) => l.kind === 'event')).toBe(false);
    expect(doc.validation.ok).toBe(true);
    expect(doc.undoLabels).toEqual(['paste']);
    doc.undo();
    expect(doc.node('health_2')).toBeUndefined();
  });

  test('paste at a point, into another document, brings the variables its nodes need', () => {
    const text = openBarrel().copy({ nodes: ['health', 'damage'], groups: ['explosion'] });
    const other = FlowDocument.fromSource('flow = 1\nkind = "unit"\nnodes = []', hostRegistry());
    const pasted = other.paste(text, { at: { x: 1000, y: 1000 } });
    expect(other.variable('health')).toMatchObject({ type: 'float', value: 100 });
    expect(other.node('health')).toMatchObject({ x: 1000, y: 1200 }); // the top-left of all: health's x, the group's y
    expect(other.group(pasted.groups[0]!)!.members).toEqual([]); // its members were not copied
    expect(other.validation.ok).toBe(true);
  });

  const hostile: [string, unknown][] = [
    ['not text', 42],
    ['not JSON', 'flow = 1'],
    ['JSON but not ours', '{"nodes":[]}'],
    ['a future version', '{"cuttleFlowClipboard":2,"nodes":[]}'],
    ['nodes not a list', '{"cuttleFlowClipboard":1,"nodes":{}}'],
    ['a node without an id', '{"cuttleFlowClipboard":1,"nodes":[{"type":"logic/once","position":[0,0]}]}'],
    ['a dotted id', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a.b","type":"logic/once","position":[0,0]}]}'],
    ['two nodes with one id', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/once","position":[0,0]},{"id":"a","type":"logic/once","position":[0,0]}]}'],
    ['a position that is not a point', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/once","position":[0,"x"]}]}'],
    ['an object as a constant', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"math/add","position":[0,0],"inputs":{"a":{"x":1}}}]}'],
    ['a number as a setting', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/compare","position":[0,0],"settings":{"op":1}}]}'],
    ['a link to a node not on the clipboard', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/once","position":[0,0]}],"events":[{"from":"a.out","to":"hit.in"}]}'],
    ['a link without a pin', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/once","position":[0,0]}],"events":[{"from":"a","to":"a.in"}]}'],
    ['a comment with a negative size', '{"cuttleFlowClipboard":1,"comments":[{"id":"c","text":"","rect":[0,0,-1,1]}]}'],
    ['a group naming a node not on the clipboard', '{"cuttleFlowClipboard":1,"groups":[{"id":"g","title":"","rect":[0,0,1,1],"members":["hit"]}]}'],
    ['a variable without a type', '{"cuttleFlowClipboard":1,"variables":{"hp":{"value":1}}}'],
    ['a variable with a wrong value', '{"cuttleFlowClipboard":1,"variables":{"hp":{"type":"bool","value":1}}}'],
    ['a position that overflows when offset', '{"cuttleFlowClipboard":1,"nodes":[{"id":"a","type":"logic/once","position":[1.7976931348623157e308,0]}]}'],
    ['too many nodes', JSON.stringify({ cuttleFlowClipboard: 1, nodes: Array.from({ length: 20_001 }, (_, i) => ({ id: `n${i}`, type: 'logic/once', position: [0, 0] })) })],
  ];
  test.each(hostile)('hostile clipboard text is refused and changes nothing: %s', (_name, text) => {
    const doc = openBarrel();
    const before = doc.toSource();
    const error = thrown(() => doc.paste(text as string, { offset: { x: 1.7976931348623157e308, y: 0 } })) as FlowEditorError;
    expect(error).toBeInstanceOf(FlowEditorError);
    expect(error.code).toBe('bad-clipboard');
    expect(error.message).toMatch(/^Cannot paste: /);
    expect(doc.toSource()).toBe(before);
    expect(doc.canUndo).toBe(false);
  });

  test('__proto__ in clipboard keys stays data', () => {
    const doc = openBarrel();
    doc.paste('{"cuttleFlowClipboard":1,"nodes":[{"id":"__proto__","type":"math/add","position":[0,0],"inputs":{"__proto__":1}}]}');
    const node = doc.node('__proto__')!;
    expect(Object.keys(node.inputs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(node.inputs)).toBe(Object.prototype);
    expect(doc.issuesOf('__proto__').map((i) => i.code)).toEqual(['bad-constant']);
  });

  test('unknown node types paste, and show as issues', () => {
    const doc = openBarrel();
    const { nodes } = doc.paste('{"cuttleFlowClipboard":1,"nodes":[{"id":"x","type":"action/other_game","position":[0,0]}]}');
    expect(doc.issuesOf(nodes[0]!).map((i) => i.code)).toEqual(['unknown-type']);
  });

  test('copying unknown ids is refused', () => {
    const doc = openBarrel();
    expect(() => doc.copy({ nodes: ['ghost'] })).toThrow(FlowEditorError);
    expect(() => doc.copy({ comments: ['ghost'] })).toThrow(/No comment box "ghost"/);
  });
});

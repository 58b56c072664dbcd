import { describe, expect, test } from 'vitest';
import { FlowConnectError, FlowDocument, FlowEditorError, FlowPalette, type FlowDocumentChange } from '../src/index.ts';
import { hostRegistry, openBarrel, thrown } from './helpers.ts';

function connectError(error: FlowEditorError): FlowConnectError {
  if (!(error instanceof FlowConnectError)) throw new Error(`expected a FlowConnectError, got ${error.name}`);
  return error;
}

/** Checks that `fn` throws a FlowEditorError with `code` and leaves the document exactly as it was. */
function refusedUnchanged(doc: FlowDocument, code: string, fn: () => unknown): FlowEditorError {
  const before = JSON.stringify(doc.toValue());
  const version = doc.version;
  const undo = doc.undoLabels.length;
  const error = thrown(fn) as FlowEditorError;
  expect(error).toBeInstanceOf(FlowEditorError);
  expect(error.code).toBe(code);
  expect(JSON.stringify(doc.toValue())).toBe(before);
  expect(doc.version).toBe(version);
  expect(doc.undoLabels.length).toBe(undo);
  return error;
}

describe('nodes', () => {
  test('add from a palette entry at a position, with a fresh id', () => {
    const doc = openBarrel();
    const entry = new FlowPalette(doc.registry).search('math add')[0]!;
    const a = doc.addNode(entry, { x: 10, y: 20 });
    const b = doc.addNode('math/add', { x: 30, y: 20 }, { inputs: { b: 2 } });
    expect([a.id, b.id]).toEqual(['add', 'add_2']);
    expect(doc.node('add_2')).toMatchObject({ type: 'math/add', x: 30, y: 20, placed: true, inputs: { b: 2 } });
    expect(doc.nodes[doc.nodes.length - 1]!.id).toBe('add_2');
    const external = doc.addNode('event/external', { x: 0, y: 0 });
    expect(doc.issuesOf(external.id).map((i) => i.code)).toEqual(['bad-setting']); // needs its name
    doc.setSetting(external.id, 'name', 'go');
    expect(doc.issuesOf(external.id)).toEqual([]);
  });

  test('adding is refused for unknown types, bad positions and taken or bad ids', () => {
    const doc = openBarrel();
    refusedUnchanged(doc, 'unknown-type', () => doc.addNode('math/teleport', { x: 0, y: 0 }));
    refusedUnchanged(doc, 'bad-argument', () => doc.addNode('math/add', { x: Number.NaN, y: 0 }));
    refusedUnchanged(doc, 'duplicate-id', () => doc.addNode('math/add', { x: 0, y: 0 }, { id: 'hit' }));
    refusedUnchanged(doc, 'bad-id', () => doc.addNode('math/add', { x: 0, y: 0 }, { id: 'a.b' }));
    // A bad constant given with the node: the node is not added either.
    refusedUnchanged(doc, 'bad-value', () => doc.addNode('math/add', { x: 0, y: 0 }, { inputs: { a: 'x' } }));
    refusedUnchanged(doc, 'unknown-pin', () => doc.addNode('math/add', { x: 0, y: 0 }, { inputs: { c: 1 } }));
  });

  test('remove takes the links and group memberships with it, and undo brings all back', () => {
    const doc = openBarrel();
    const before = doc.toSource();
    doc.remove({ nodes: ['health', 'sound'] });
    expect(doc.node('health')).toBeUndefined();
    expect(doc.links.some((l) => l.from.node === 'health' || l.to.node === 'sound')).toBe(false);
    expect(doc.group('explosion')!.members).toEqual(['effect', 'push', 'remove']);
    expect(doc.undoLabels).toEqual(['remove']);
    doc.undo();
    expect(doc.toSource()).toBe(before);
    expect(doc.nodes.map((n) => n.id).slice(0, 3)).toEqual(['hit', 'health', 'damage']); // back in place
    refusedUnchanged(doc, 'unknown-node', () => { doc.remove({ nodes: ['hit', 'ghost'] }); });
  });

  test('moves of the same selection merge into one undo step; endDrag and other selections split them', () => {
    const doc = openBarrel();
    for (let i = 0; i < 10; i++) doc.move({ nodes: ['hit', 'health'] }, 5, 1);
    expect(doc.node('hit')).toMatchObject({ x: 50, y: 10 });
    expect(doc.undoLabels).toEqual(['move']);
    doc.endDrag();
    doc.move({ nodes: ['hit', 'health'] }, 1, 1);
    doc.move({ nodes: ['hit'] }, 1, 1);
    expect(doc.undoLabels).toEqual(['move', 'move', 'move']);
    doc.undo();
    doc.undo();
    expect(doc.node('hit')).toMatchObject({ x: 50, y: 10 });
    doc.undo();
    expect(doc.node('hit')).toMatchObject({ x: 0, y: 0 });
    doc.redo();
    expect(doc.node('hit')).toMatchObject({ x: 50, y: 10 });
  });

  test('a move changes positions only: the graph is not validated again', () => {
    const doc = openBarrel();
    const changes: FlowDocumentChange[] = [];
    doc.onChange((c) => changes.push(c));
    const validation = doc.validation;
    doc.move({ nodes: ['hit'], comments: ['comment'], groups: ['explosion'] }, 10, 10);
    expect(doc.validation).toBe(validation);
    expect(changes).toEqual([{ cause: 'edit', label: 'move', graphChanged: false }]);
    expect(doc.comment('comment')).toMatchObject({ x: -10, y: -30 });
    expect(doc.group('explosion')).toMatchObject({ x: 1670, y: -30 });
    refusedUnchanged(doc, 'bad-argument', () => { doc.move({ nodes: ['hit'] }, Infinity, 0); });
    refusedUnchanged(doc, 'unknown-comment', () => { doc.move({ nodes: ['hit'], comments: ['nope'] }, 1, 0); });
  });

  test('inline inputs and settings are checked against the pin and setting types', () => {
    const doc = openBarrel();
    doc.setInput('fuse', 'seconds', 2);
    expect(doc.node('fuse')!.inputs).toEqual({ seconds: 2 });
    doc.setInput('fuse', 'seconds', undefined);
    expect(doc.node('fuse')!.inputs).toEqual({});
    refusedUnchanged(doc, 'bad-value', () => doc.setInput('fuse', 'seconds', 'soon'));
    refusedUnchanged(doc, 'bad-value', () => doc.setInput('push', 'target', 1.5)); // unit: an integer
    refusedUnchanged(doc, 'unknown-pin', () => doc.setInput('fuse', 'minutes', 1));
    refusedUnchanged(doc, 'unknown-pin', () => doc.setInput('fuse', 'in', 1)); // an event pin
    refusedUnchanged(doc, 'input-linked', () => doc.setInput('damage', 'a', 1));
    doc.setSetting('dead', 'op', '>');
    expect(doc.node('dead')!.settings).toEqual({ op: '>' });
    refusedUnchanged(doc, 'bad-value', () => doc.setSetting('dead', 'op', '<>'));
    refusedUnchanged(doc, 'unknown-setting', () => doc.setSetting('dead', 'mode', 'x'));
    refusedUnchanged(doc, 'unknown-node', () => doc.setSetting('ghost', 'op', '<'));
  });
});

describe('links', () => {
  test('connect an event pin and a data pin, either order', () => {
    const doc = openBarrel();
    doc.remove({ nodes: ['remove'] });
    const add = doc.addNode('math/add', { x: 0, y: 0 });
    const link = doc.connect({ node: add.id, pin: 'a' }, { node: 'health', pin: 'value' }); // dragged from the input
    expect(link).toMatchObject({ kind: 'data', from: { node: 'health', pin: 'value' }, to: { node: 'add', pin: 'a' } });
    const event = doc.connect({ node: 'boom', pin: 'out3' }, { node: 'push', pin: 'in' });
    expect(event.kind).toBe('event');
    expect(doc.validation.ok).toBe(true);
  });

  test('an incompatible link is refused at the pin, naming both pins and types', () => {
    const doc = openBarrel();
    const mismatch = connectError(refusedUnchanged(doc, 'type-mismatch', () => doc.connect({ node: 'hit', pin: 'actor' }, { node: 'check', pin: 'condition' })));
    expect(mismatch.message).toBe('Cannot connect "hit.actor" (unit) to "check.condition" (bool): unit does not convert to bool (links need equal types, or int into float).');
    expect([mismatch.from, mismatch.fromType, mismatch.to, mismatch.toType]).toEqual([{ node: 'hit', pin: 'actor' }, 'unit', { node: 'check', pin: 'condition' }, 'bool']);
    const kind = connectError(refusedUnchanged(doc, 'wrong-pin-kind', () => doc.connect({ node: 'hit', pin: 'out' }, { node: 'check', pin: 'condition' })));
    expect([kind.fromType, kind.toType]).toEqual(['event', 'bool']);
    refusedUnchanged(doc, 'duplicate-link', () => doc.connect({ node: 'hit', pin: 'out' }, { node: 'store', pin: 'in' }));
    refusedUnchanged(doc, 'wrong-direction', () => doc.connect({ node: 'check', pin: 'in' }, { node: 'once', pin: 'in' }));
    refusedUnchanged(doc, 'unknown-pin', () => doc.connect({ node: 'hit', pin: 'actor' }, { node: 'push', pin: 'victim' }));
    refusedUnchanged(doc, 'unknown-node', () => doc.connect({ node: 'hit', pin: 'actor' }, { node: 'ghost', pin: 'a' }));
    refusedUnchanged(doc, 'bad-argument', () => doc.connect({ node: 'hit' } as never, { node: 'push', pin: 'target' }));
    // int feeds float; float does not feed int.
    doc.setVariable('count', { type: 'int' });
    const get = doc.addNode('variable/get', { x: 0, y: 0 }, { settings: { variable: 'count' } });
    expect(doc.checkConnection({ node: get.id, pin: 'value' }, { node: 'fuse', pin: 'seconds' }).from.valueType).toBe('int');
    const counter = doc.addNode('logic/counter', { x: 0, y: 0 });
    refusedUnchanged(doc, 'type-mismatch', () => doc.connect({ node: 'damage', pin: 'result' }, { node: counter.id, pin: 'target' }));
  });

  test('a linked data input takes a new link in place of the old, and its constant goes: one undo step', () => {
    const doc = openBarrel();
    const before = doc.toSource();
    const add = doc.addNode('math/add', { x: 0, y: 0 });
    doc.connect({ node: add.id, pin: 'result' }, { node: 'damage', pin: 'a' });
    expect(doc.linkInto('damage', 'a')!.from.node).toBe(add.id);
    expect(doc.linksOf('health').map((l) => l.to.node)).toEqual(['dead']);
    doc.connect({ node: add.id, pin: 'result' }, { node: 'damage', pin: 'b' }); // had the constant 40
    expect(doc.node('damage')!.inputs).toEqual({});
    expect(doc.validation.ok).toBe(true);
    expect(doc.undoLabels).toEqual(['add node', 'connect', 'connect']);
    doc.undo();
    expect(doc.node('damage')!.inputs).toEqual({ b: 40 });
    doc.undo();
    expect(doc.linkInto('damage', 'a')!.from.node).toBe('health');
    doc.undo();
    expect(doc.toSource()).toBe(before);
  });

  test('disconnect, and unknown links refused', () => {
    const doc = openBarrel();
    doc.disconnect(['data:damage.result->store.value', 'event:boom.out3->remove.in']);
    expect(doc.link('data:damage.result->store.value')).toBeUndefined();
    expect(doc.validation.ok).toBe(true);
    refusedUnchanged(doc, 'unknown-link', () => { doc.disconnect(['event:hit.out->store.in', 'nope']); });
  });

  test('pins of unknown node types cannot be linked', () => {
    const doc = FlowDocument.fromSource('flow = 1\nkind = "unit"\nnodes = [ { id = "x" type = "action/unknown" } { id = "m" type = "math/add" } ]\nlinks = [ { from = "m.result" to = "x.value" } ]', hostRegistry());
    refusedUnchanged(doc, 'unknown-type', () => doc.connect({ node: 'm', pin: 'result' }, { node: 'x', pin: 'value' }));
  });
});

describe('comments, groups and variables', () => {
  test('add, edit, remove, undo', () => {
    const doc = openBarrel();
    const before = doc.toSource();
    const c = doc.addComment('Fuse', { x: 0, y: 0, width: 100, height: 50 });
    expect(c.id).toBe('comment_2'); // 'comment' is taken
    doc.editComment(c.id, { text: 'The fuse burns half a second' });
    expect(doc.comment(c.id)).toMatchObject({ text: 'The fuse burns half a second', width: 100 });
    const g = doc.addGroup('Logic', { x: 0, y: 0, width: 10, height: 10 }, ['check', 'once']);
    doc.editGroup(g.id, { members: ['check'], title: 'Check' });
    expect(doc.group(g.id)).toMatchObject({ title: 'Check', members: ['check'] });
    doc.remove({ comments: ['comment'], groups: ['explosion'] });
    expect(doc.comments.map((x) => x.id)).toEqual([c.id]);
    refusedUnchanged(doc, 'unknown-node', () => doc.addGroup('x', { x: 0, y: 0, width: 1, height: 1 }, ['ghost']));
    refusedUnchanged(doc, 'bad-argument', () => doc.addComment('x', { x: 0, y: 0, width: -1, height: 1 }));
    refusedUnchanged(doc, 'unknown-comment', () => doc.editComment('ghost', { text: 'x' }));
    while (doc.undo());
    expect(doc.toSource()).toBe(before);
  });

  test('variables retype the variable nodes; bad specs are refused', () => {
    const doc = openBarrel();
    refusedUnchanged(doc, 'bad-value', () => doc.setVariable('health', { type: 'bool', value: 3 }));
    refusedUnchanged(doc, 'bad-value', () => doc.setVariable('health', { type: 'vector' as never }));
    doc.setVariable('health', undefined);
    expect(doc.issuesOf('health').map((i) => i.code)).toEqual(['unknown-variable']);
    doc.undo();
    expect(doc.validation.ok).toBe(true);
  });
});

describe('history', () => {
  test('undo all and redo all give back each state; a new command clears redo', () => {
    const doc = openBarrel();
    const states = [doc.toSource()];
    doc.addNode('logic/once', { x: 1, y: 2 });
    states.push(doc.toSource());
    doc.connect({ node: 'check', pin: 'false' }, { node: 'once_2', pin: 'in' });
    states.push(doc.toSource());
    doc.setInput('fuse', 'seconds', 3);
    states.push(doc.toSource());
    doc.remove({ nodes: ['boom'] });
    states.push(doc.toSource());
    for (let i = states.length - 2; i >= 0; i--) {
      expect(doc.undo()).toBe(true);
      expect(doc.toSource()).toBe(states[i]);
    }
    expect(doc.undo()).toBe(false);
    for (let i = 1; i < states.length; i++) {
      expect(doc.redo()).toBe(true);
      expect(doc.toSource()).toBe(states[i]);
    }
    expect(doc.redo()).toBe(false);
    doc.undo();
    doc.move({ nodes: ['hit'] }, 1, 1);
    expect(doc.canRedo).toBe(false);
  });

  test('the depth limit drops the oldest steps', () => {
    const doc = FlowDocument.fromSource('flow = 1\nkind = "unit"\nnodes = []', hostRegistry(), { historyLimit: 3 });
    for (let i = 0; i < 5; i++) doc.addNode('logic/once', { x: i, y: 0 });
    let undone = 0;
    while (doc.undo()) undone++;
    expect(undone).toBe(3);
    expect(doc.nodes.map((n) => n.id)).toEqual(['once', 'once_2']);
  });

  test('listeners hear every change and can stop', () => {
    const doc = openBarrel();
    const heard: string[] = [];
    const stop = doc.onChange((c) => heard.push(`${c.cause} ${c.label} ${c.graphChanged}`));
    doc.setInput('fuse', 'seconds', 3);
    doc.undo();
    doc.redo();
    stop();
    doc.undo();
    expect(heard).toEqual(['edit set input true', 'undo set input true', 'redo set input true']);
  });
});

import { compileFlowGraph, FlowGraphError } from '@cuttle/flow';
import { merge, mergeComments, parseSjson, parseSjsonDocument, sjsonStyleOf, writeSjson } from '@cuttle/tools-merge';
import { describe, expect, test } from 'vitest';
import { FlowDocument } from '../src/index.ts';
import { changedLines, fixture, hostRegistry, openBarrel } from './helpers.ts';

/** The source without anything the editor adds: no `editor` keys anywhere. */
function withoutEditorData(value: Record<string, unknown>): Record<string, unknown> {
  const { editor: _top, ...rest } = value;
  const nodes = (rest.nodes as Record<string, unknown>[]).map(({ editor: _node, ...node }) => node);
  return { ...rest, nodes };
}

describe('saving', () => {
  test('an unchanged document saves the opened text byte for byte', () => {
    expect(openBarrel().toSource()).toBe(fixture('barrel.flow'));
  });

  test('moving one node changes exactly the line of its position; comments and layout stay', () => {
    const doc = openBarrel();
    doc.move({ nodes: ['damage'] }, 35, -20);
    const saved = doc.toSource();
    expect(changedLines(fixture('barrel.flow'), saved)).toEqual([[37, '            position = [240 160]', '            position = [275 140]']]);
    expect(saved).toContain('// every hit takes 40');
    expect(saved.startsWith("// The exploding barrel of @cuttle/flow's README")).toBe(true);
  });

  test('moving an unplaced node writes its position and nothing else', () => {
    const text = fixture('courtyard.flow');
    const doc = FlowDocument.fromSource(text, hostRegistry());
    doc.move({ nodes: ['hello'] }, 0, 0);
    const before = text.split('\n');
    const after = doc.toSource().split('\n');
    expect(after.length).toBe(before.length + 3);
    expect(after.filter((line) => !before.includes(line))).toEqual(['        editor = {', `            position = [${doc.node('hello')!.x} ${doc.node('hello')!.y}]`]);
    expect(FlowDocument.fromSource(doc.toSource(), hostRegistry()).node('hello')!.placed).toBe(true);
  });

  test('the compiled blob is byte-identical with and without the editor data', () => {
    const registry = hostRegistry();
    const doc = openBarrel(registry);
    doc.addComment('note', { x: 0, y: 0, width: 10, height: 10 });
    doc.move({ nodes: doc.nodes.map((n) => n.id) }, 123.5, -7);
    const saved = doc.toSource();
    const value = parseSjson(saved) as Record<string, unknown>;
    expect(value.editor).toBeDefined();
    const withData = new Uint8Array(compileFlowGraph(saved, registry));
    const bare = new Uint8Array(compileFlowGraph(writeSjson(withoutEditorData(value) as never), registry));
    expect(withData).toEqual(bare);
    expect(withData.length).toBeGreaterThan(0);
  });

  test('a saved document reopens to the same records', () => {
    const doc = openBarrel();
    doc.addNode('math/add', { x: 5, y: 5 }, { inputs: { b: 1 } });
    doc.connect({ node: 'add', pin: 'a' }, { node: 'health', pin: 'value' });
    doc.addGroup('Maths', { x: 0, y: 0, width: 300, height: 200 }, ['add', 'damage']);
    doc.setVariable('speed', { type: 'float', value: 2 });
    const again = FlowDocument.fromSource(doc.toSource(), doc.registry);
    const strip = <T extends object>(items: readonly T[]): Omit<T, 'raw'>[] => items.map(({ raw: _raw, ...rest }: T & { raw?: unknown }) => rest);
    expect(strip(again.nodes as never[])).toEqual(strip(doc.nodes as never[]));
    expect(strip(again.links as never[])).toEqual(strip(doc.links as never[]));
    expect(strip(again.groups as never[])).toEqual(strip(doc.groups as never[]));
    expect(again.variables.map((v) => [v.name, v.type, v.value])).toEqual(doc.variables.map((v) => [v.name, v.type, v.value]));
    expect(again.toSource()).toBe(doc.toSource());
  });

  test('JSON sources stay JSON', () => {
    const text = JSON.stringify({ flow: 1, kind: 'unit', nodes: [{ id: 'a', type: 'logic/once' }] }, null, 2);
    const doc = FlowDocument.fromSource(text, hostRegistry());
    expect(doc.toSource()).toBe(text);
    doc.move({ nodes: ['a'] }, 10, 20);
    const saved = doc.toSource();
    expect(JSON.parse(saved)).toEqual({ flow: 1, kind: 'unit', nodes: [{ id: 'a', type: 'logic/once', editor: { position: [10, 20] } }] });
    expect(sjsonStyleOf(saved).indent).toBe('  ');
  });
});

describe('two people edit the same graph', () => {
  test('one moves a node and adds a link, the other adds a node and edits a comment box: the 3-way merge keeps both', () => {
    const registry = hostRegistry();
    const base = fixture('barrel.flow');

    const left = FlowDocument.fromSource(base, registry);
    left.move({ nodes: ['fuse'] }, 0, 80);
    left.remove({ nodes: ['remove'] });
    left.connect({ node: 'boom', pin: 'out3' }, { node: 'sound', pin: 'in' });
    const leftText = left.toSource();

    const right = FlowDocument.fromSource(base, registry);
    const timer = right.addNode('event/timer', { x: 0, y: 400 }, { inputs: { period: 2 } });
    right.connect({ node: timer.id, pin: 'tick' }, { node: 'store', pin: 'in' });
    right.editComment('comment', { text: 'Collisions and the clock take health' });
    const rightText = right.toSource();

    const [b, l, r] = [base, leftText, rightText].map((text) => parseSjsonDocument(text));
    const { merged, conflicts } = merge(b!.value, l!.value, r!.value);
    expect(conflicts).toEqual([]);
    const { comments } = mergeComments(b!.comments, l!.comments, r!.comments, merged);
    const mergedText = writeSjson(merged, { ...sjsonStyleOf(leftText), comments });

    const doc = FlowDocument.fromSource(mergedText, registry);
    expect(doc.validation.issues).toEqual([]);
    expect(doc.node('fuse')).toMatchObject({ x: 1200, y: 80 }); // left's move
    expect(doc.node('remove')).toBeUndefined(); // left's removal
    expect(doc.link('event:boom.out3->sound.in')).toBeDefined(); // left's link
    expect(doc.node('timer')).toMatchObject({ type: 'event/timer', inputs: { period: 2 } }); // right's node
    expect(doc.link('event:timer.tick->store.in')).toBeDefined(); // right's link
    expect(doc.comment('comment')!.text).toBe('Collisions and the clock take health'); // right's edit
    expect(doc.group('explosion')!.members).toEqual(['effect', 'sound', 'push']);
    expect(mergedText).toContain('// every hit takes 40');
    expect(() => compileFlowGraph(mergedText, registry)).not.toThrow(FlowGraphError);
  });
});

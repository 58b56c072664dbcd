import { expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { assignable, compileFlowGraph, validateFlowGraph } from '../src/index.ts';
import { loggingRegistry } from './helpers.ts';

const registry = loggingRegistry([]);
const ignore = (): undefined => undefined;
for (const name of ['spawn_effect', 'play_sound', 'destroy_unit']) registry.defineAction({ name, inputs: name === 'destroy_unit' ? [] : [{ name: 'name', type: 'string' }], run: ignore });
registry.defineAction({ name: 'push_actor', inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }], run: ignore });

/** The barrel with what an editor writes: a position on every node, comment boxes and groups. */
function withEditorData(): unknown {
  return {
    ...explodingBarrel,
    nodes: explodingBarrel.nodes.map((node, i) => ({ ...node, editor: { position: [i * 200, 40], collapsed: i % 2 === 0 } })),
    editor: {
      comments: [{ id: 'c1', text: 'Health goes down on every hit', rect: [0, 0, 400, 120] }],
      groups: [{ id: 'g1', title: 'Explosion', rect: [600, 0, 800, 300], members: ['effect', 'sound'] }],
    },
  };
}

test('editor data on nodes and at the top level is accepted and leaves the blob byte-identical', () => {
  expect(validateFlowGraph(withEditorData(), registry)).toEqual([]);
  const plain = new Uint8Array(compileFlowGraph(explodingBarrel, registry));
  const edited = new Uint8Array(compileFlowGraph(withEditorData(), registry));
  expect(edited).toEqual(plain);
});

test('editor data in SJSON text compiles to the same blob', () => {
  const text = `flow = 1\nkind = "unit"\neditor = { comments = [] }\nnodes = [ { id = "hit" type = "event/collision" editor = { position = [10 20] } } ]\n`;
  const bare = `flow = 1\nkind = "unit"\nnodes = [ { id = "hit" type = "event/collision" } ]\n`;
  expect(new Uint8Array(compileFlowGraph(text, registry))).toEqual(new Uint8Array(compileFlowGraph(bare, registry)));
});

test('other unknown keys are still refused', () => {
  const issues = validateFlowGraph({ flow: 1, kind: 'unit', layout: {}, nodes: [{ id: 'a', type: 'logic/once', position: [0, 0] }] }, registry);
  expect(issues.map((i) => [i.code, i.node, i.socket])).toEqual([
    ['bad-source', '', 'layout'],
    ['bad-source', 'a', 'position'],
  ]);
});

test('validateFlowGraph lists what compileFlowGraph throws, and reads text', () => {
  const source = { flow: 1, kind: 'unit', nodes: [{ id: 'x', type: 'logic/teleport' }, { id: 'm', type: 'math/add', inputs: { c: 1 } }] };
  const issues = validateFlowGraph(source, registry);
  expect(() => compileFlowGraph(source, registry)).toThrow(issues[0]!.message);
  expect(issues.map((i) => i.code)).toEqual(['unknown-type', 'bad-constant']);
  expect(validateFlowGraph('flow = 1\nkind = "unit"\nnodes = [', registry)[0]!.code).toBe('parse');
});

test('assignable: equal types, and int into float', () => {
  expect(assignable('int', 'float')).toBe(true);
  expect(assignable('float', 'int')).toBe(false);
  expect(assignable('unit', 'unit')).toBe(true);
  expect(registry.get('variable/get')!.variableTyped).toBe(true);
  expect(registry.get('math/add')!.variableTyped).toBeUndefined();
});

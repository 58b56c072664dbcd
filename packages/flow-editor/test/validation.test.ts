import { compileFlowGraph, FlowGraphError } from '@cuttle/flow';
import { expect, test } from 'vitest';
import { FlowDocument } from '../src/index.ts';
import { hostRegistry, openBarrel, thrown } from './helpers.ts';

test('issues are the compiler\'s own, grouped by the node they name', () => {
  const registry = hostRegistry();
  const doc = openBarrel(registry);
  doc.setInput('fuse', 'seconds', 1); // fine
  doc.setSetting('health', 'variable', 'armour'); // undeclared
  doc.disconnect(['data:health.value->dead.a']);
  doc.connect({ node: 'damage', pin: 'result' }, { node: 'damage', pin: 'b' }); // a pure node feeding itself
  const error = thrown(() => compileFlowGraph(doc.toSource(), registry)) as FlowGraphError;
  expect(error).toBeInstanceOf(FlowGraphError);
  expect(doc.validation.issues).toEqual(error.issues);
  expect(doc.validation.ok).toBe(false);
  expect(doc.issuesOf('health').map((i) => [i.code, i.socket])).toEqual([['unknown-variable', 'variable']]);
  expect(doc.issuesOf('damage').map((i) => i.code)).toEqual(['variable-cycle']);
  expect(doc.issuesOf('damage')[0]!.message).toContain('damage -> damage');
  expect(doc.issuesOf('hit')).toEqual([]);
  expect([...doc.validation.byNode.keys()].sort()).toEqual(['damage', 'health']);
  doc.undo();
  doc.undo();
  doc.undo();
  expect(doc.validation.ok).toBe(true);
  expect(doc.validation.issues).toEqual([]);
});

test('graph-level issues (header, links to missing nodes) are kept apart from node issues', () => {
  const doc = FlowDocument.fromSource('flow = 1\nkind = "tree"\nnodes = [ { id = "a" type = "logic/once" } ]\nevents = [ { from = "a.out" to = "b.in" } ]', hostRegistry());
  expect(doc.validation.graph.map((i) => i.code)).toEqual(['bad-source', 'dangling-link']);
  expect(doc.validation.graph[1]!.message).toContain('names node "b", which does not exist');
  expect(doc.issuesOf('a')).toEqual([]);
  // Adding the missing node moves nothing to it by magic: the link names "b", and now "b" exists.
  doc.addNode('logic/once', { x: 0, y: 0 }, { id: 'b' });
  expect(doc.validation.graph.map((i) => i.code)).toEqual(['bad-source']);
});

test('validating a 1,000-node graph on every edit stays cheap', () => {
  const nodes = Array.from({ length: 1000 }, (_, i) => `{ id = "n${i}" type = "math/add" inputs = { b = 1 } editor = { position = [${(i % 40) * 200} ${Math.floor(i / 40) * 120}] } }`);
  const links = Array.from({ length: 999 }, (_, i) => `{ from = "n${i}.result" to = "n${i + 1}.a" }`);
  const doc = FlowDocument.fromSource(`flow = 1\nkind = "unit"\nnodes = [\n${nodes.join('\n')}\n]\nlinks = [\n${links.join('\n')}\n]`, hostRegistry());
  expect(doc.validation.ok).toBe(true);
  const start = performance.now();
  for (let i = 0; i < 20; i++) doc.setInput(`n${i}`, 'b', i);
  const perEdit = (performance.now() - start) / 20;
  // A generous bound on a shared 2-core machine; the point is "milliseconds, not seconds".
  expect(perEdit).toBeLessThan(100);
  let sum = 0;
  const frame = performance.now();
  for (const node of doc.nodes) {
    sum += node.x + doc.pins(node.id)!.inputs.length + doc.linksOf(node.id).length + doc.issuesOf(node.id).length;
  }
  expect(performance.now() - frame).toBeLessThan(50);
  expect(sum).toBeGreaterThan(0);
});

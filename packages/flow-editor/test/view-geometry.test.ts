import { FlowRegistry } from '@cuttle/flow';
import { expect, test } from 'vitest';
import { FlowDocument, FlowEditorError } from '../src/index.ts';
import { GraphLayout, MAX_ZOOM, MIN_ZOOM, NODE_HEADER, NODE_WIDTH, PIN_ROW, Viewport, ViewSelection, linkPath, nodeHeight, pinAnchor, rectFromCorners, rectsIntersect, unionRect, wheelZoomFactor } from '../src/view/index.ts';
import { thrown } from './helpers.ts';

const SOURCE = `flow = 1
kind = "unit"
nodes = [
    { id = "a" type = "math/add" editor = { position = [0 0] } }
    { id = "b" type = "logic/branch" editor = { position = [300 0] } }
    { id = "c" type = "math/lerp" editor = { position = [290 20] } }
]
links = [ { from = "a.result" to = "c.t" } ]
`;
const open = (): FlowDocument => FlowDocument.fromSource(SOURCE, new FlowRegistry());

test('node boxes: a header and a row per pin on the longer side', () => {
  const doc = open();
  const layout = new GraphLayout(doc);
  // math/add: inputs a, b; output result -> 2 rows. logic/branch: in, condition | true, false -> 2 rows. lerp: 3 inputs.
  expect(layout.rect('a')).toEqual({ x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEADER + 2 * PIN_ROW + 6 });
  expect(layout.rect('c')!.height).toBe(nodeHeight(doc.pins('c')));
  expect(nodeHeight(undefined)).toBe(NODE_HEADER + PIN_ROW + 6);
  expect(layout.rect('nope')).toBeUndefined();
});

test('pin anchors sit on the box edges, event pins first', () => {
  const doc = open();
  const layout = new GraphLayout(doc);
  expect(layout.anchor({ node: 'a', pin: 'result' }, 'output')).toEqual({ x: NODE_WIDTH, y: NODE_HEADER + PIN_ROW / 2 });
  expect(layout.anchor({ node: 'c', pin: 't' }, 'input')).toEqual(pinAnchor(290, 20, 'input', 2));
  expect(layout.anchor({ node: 'b', pin: 'condition' }, 'input')).toEqual({ x: 300, y: NODE_HEADER + PIN_ROW * 1.5 });
  expect(layout.anchor({ node: 'b', pin: 'condition' }, 'output')).toBeUndefined();
});

test('hit tests: the topmost node, the nearest pin within reach, nodes in a rectangle', () => {
  const doc = open();
  const layout = new GraphLayout(doc);
  expect(layout.nodeAt({ x: 10, y: 10 })).toBe('a');
  expect(layout.nodeAt({ x: 320, y: 30 })).toBe('c'); // b and c overlap: c is drawn later, on top
  expect(layout.nodeAt({ x: 250, y: 10 })).toBeUndefined();
  const pin = layout.pinAt({ x: NODE_WIDTH + 4, y: NODE_HEADER + PIN_ROW / 2 - 3 });
  expect(pin?.pin.name).toBe('result');
  expect(pin?.direction).toBe('output');
  expect(layout.pinAt({ x: 90, y: 40 })).toBeUndefined();
  expect(layout.nodesInRect(rectFromCorners({ x: 200, y: 100 }, { x: -10, y: -10 }))).toEqual(['a']);
  expect(layout.nodesInRect({ x: 280, y: 0, width: 40, height: 30 })).toEqual(['b', 'c']);
  expect(layout.nodesInRect({ x: 280, y: 0, width: 40, height: 10 })).toEqual(['b']);
  expect(layout.bounds()).toEqual(unionRect([layout.rect('a')!, layout.rect('b')!, layout.rect('c')!]));
});

test('the layout follows the document: a move gives a new box, a removed node has none', () => {
  const doc = open();
  const layout = new GraphLayout(doc);
  const before = layout.rect('a');
  doc.move({ nodes: ['a'] }, 40, 10);
  expect(layout.rect('a')).toEqual({ ...before, x: 40, y: 10 });
  doc.remove({ nodes: ['a'] });
  layout.prune();
  expect(layout.rect('a')).toBeUndefined();
  expect(layout.nodeAt({ x: 50, y: 20 })).toBeUndefined();
});

test('the viewport maps screen to graph and zooms around the pointer', () => {
  const v = new Viewport();
  v.set({ x: 100, y: 50, zoom: 2 });
  expect(v.toGraph(300, 250)).toEqual({ x: 100, y: 100 });
  expect(v.toScreen(100, 100)).toEqual({ x: 300, y: 250 });
  const under = v.toGraph(400, 300);
  v.zoomAt(400, 300, 1.5);
  expect(v.zoom).toBe(3);
  expect(v.toGraph(400, 300).x).toBeCloseTo(under.x, 9);
  expect(v.toGraph(400, 300).y).toBeCloseTo(under.y, 9);
  v.zoomAt(0, 0, 1000);
  expect(v.zoom).toBe(MAX_ZOOM);
  v.zoomAt(0, 0, 1e-6);
  expect(v.zoom).toBe(MIN_ZOOM);
  v.set({ x: 0, y: 0, zoom: 0.5 });
  expect(v.visibleRect(800, 600)).toEqual({ x: -0, y: -0, width: 1600, height: 1200 });
  v.panBy(10, -20);
  expect(v.state).toEqual({ x: 10, y: -20, zoom: 0.5 });
});

test('fit shows the whole rectangle, centred, never zoomed in past 1', () => {
  const v = new Viewport();
  v.fit({ x: 1000, y: 0, width: 2000, height: 500 }, 1040, 600, 20);
  expect(v.zoom).toBeCloseTo(0.5, 9);
  const tl = v.toScreen(1000, 0);
  const br = v.toScreen(3000, 500);
  expect(tl.x).toBeCloseTo(20, 9);
  expect(br.x).toBeCloseTo(1020, 9);
  expect((tl.y + br.y) / 2).toBeCloseTo(300, 9);
  v.fit({ x: 0, y: 0, width: 10, height: 10 }, 800, 600);
  expect(v.zoom).toBe(1);
});

test('bad viewport input throws FlowEditorError naming the value', () => {
  const v = new Viewport();
  const error = thrown(() => { v.set({ x: Number.NaN, y: 0, zoom: 1 }); }) as FlowEditorError;
  expect(error).toBeInstanceOf(FlowEditorError);
  expect(error.message).toContain('x must be a finite number, got NaN');
  expect(() => { v.zoomAt(0, 0, 0); }).toThrow(/positive number, got 0/);
  expect(() => { v.panBy(Infinity, 0); }).toThrow(FlowEditorError);
  expect(v.state).toEqual({ x: 0, y: 0, zoom: 1 });
});

test('wheel zoom: about 10% a mouse notch, bounded for huge deltas', () => {
  expect(wheelZoomFactor(-100)).toBeCloseTo(Math.exp(0.1), 9);
  expect(wheelZoomFactor(100) * wheelZoomFactor(-100)).toBeCloseTo(1, 9);
  expect(wheelZoomFactor(-10_000)).toBe(wheelZoomFactor(-100));
});

test('geometry helpers: link curves with horizontal tangents, rectangles', () => {
  expect(linkPath(0, 0, 200, 50)).toBe('M0 0C100 0 100 50 200 50');
  expect(linkPath(0, 0, 10, 0)).toBe('M0 0C40 0 -30 0 10 0');
  expect(rectFromCorners({ x: 5, y: 9 }, { x: 1, y: 2 })).toEqual({ x: 1, y: 2, width: 4, height: 7 });
  expect(rectsIntersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 5, height: 5 })).toBe(false);
  expect(rectsIntersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 9, y: 9, width: 5, height: 5 })).toBe(true);
  expect(unionRect([])).toBeUndefined();
});

test('selection: click replaces, shift-click toggles, gone ids are dropped', () => {
  const s = new ViewSelection();
  s.pick('nodes', 'a', false);
  s.pick('nodes', 'b', true);
  s.pick('comments', 'note', true);
  expect(s.toSelection()).toEqual({ nodes: ['a', 'b'], comments: ['note'], groups: [] });
  s.pick('nodes', 'a', true);
  expect(s.toSelection().nodes).toEqual(['b']);
  s.retain((kind, id) => kind !== 'nodes' || id !== 'b');
  expect(s.toSelection()).toEqual({ nodes: [], comments: ['note'], groups: [] });
  s.pick('groups', 'g', false);
  expect(s.toSelection()).toEqual({ nodes: [], comments: [], groups: ['g'] });
  expect(s.empty).toBe(false);
  s.clear();
  expect(s.empty).toBe(true);
});

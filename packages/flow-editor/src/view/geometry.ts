// Where things are drawn, in graph units, without a DOM: node boxes (a fixed width, a row per
// pin), pin anchors and link curves. The DOM view, the hit tests, the minimap and the benchmark
// pages all use these, so what the pointer hits is what was drawn.
import type { FlowNodePins, FlowPinDirection, FlowPoint, FlowRect } from '../api.ts';

/** Width of every node box, in graph units. */
export const NODE_WIDTH = 180;
/** Height of a node's title bar, in graph units. */
export const NODE_HEADER = 24;
/** Height of one pin row, in graph units. */
export const PIN_ROW = 20;
/** Space below a node's last pin row, in graph units. */
export const NODE_PADDING = 6;
/** How far from its anchor a pin still catches the pointer, in graph units. */
export const PIN_HIT_RADIUS = 10;

/** Rows a node needs: one per pin on its longer side, at least one. */
export function nodeRows(pins: FlowNodePins | undefined): number {
  if (pins === undefined) return 1;
  return Math.max(1, pins.inputs.length, pins.outputs.length);
}

/** Height of a node box in graph units: the header, a row per pin on its longer side (at least one), and the padding. */
export function nodeHeight(pins: FlowNodePins | undefined): number {
  return NODE_HEADER + nodeRows(pins) * PIN_ROW + NODE_PADDING;
}

/** The node's box in graph units. */
export function nodeRect(x: number, y: number, pins: FlowNodePins | undefined): FlowRect {
  return { x, y, width: NODE_WIDTH, height: nodeHeight(pins) };
}

/** The anchor of the pin at `index` on one side of a node placed at (x, y): the left edge for inputs, the right for outputs. */
export function pinAnchor(x: number, y: number, direction: FlowPinDirection, index: number): FlowPoint {
  return { x: direction === 'input' ? x : x + NODE_WIDTH, y: y + NODE_HEADER + index * PIN_ROW + PIN_ROW / 2 };
}

/** An SVG path of the link curve from an output anchor to an input anchor (horizontal tangents, like Blueprints). */
export function linkPath(x1: number, y1: number, x2: number, y2: number): string {
  const bend = Math.max(40, Math.abs(x2 - x1) * 0.5);
  return `M${x1} ${y1}C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
}

/** A rectangle from two corners in any order. */
export function rectFromCorners(a: FlowPoint, b: FlowPoint): FlowRect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

/** True when the two rectangles overlap (touching edges do not count). */
export function rectsIntersect(a: FlowRect, b: FlowRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** True when `p` lies in `r`, edges included. */
export function rectContainsPoint(r: FlowRect, p: FlowPoint): boolean {
  return p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
}

/** The smallest rectangle around all of them; undefined for none. */
export function unionRect(rects: Iterable<FlowRect>): FlowRect | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.width);
    y1 = Math.max(y1, r.y + r.height);
  }
  return x0 === Infinity ? undefined : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

// A scanline rasteriser for glyph outlines: quadratic and cubic Béziers are flattened to line
// segments, then every pixel centre of every row is tested with the nonzero winding rule
// (the rule TrueType and CFF outlines are drawn with). The result is a hard 0/255 mask: the
// distance fields need the outline's position (and inside or outside), not antialiasing.

import { GuiError } from './errors.ts';

/** Outline commands as opentype.js gives them: y grows downwards, units are pixels. */
export type OutlineCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };

/** Flattening tolerance in pixels. */
const TOLERANCE = 0.1;

/** Line segments as x0, y0, x1, y1 quadruples. */
export class EdgeList {
  /** The segments, 4 floats each (x0, y0, x1, y1 in pixels); the first `count` are valid. Replaced by a bigger array when it must grow. */
  data = new Float64Array(256);
  /** Number of segments in `data`. */
  count = 0;

  /** Appends the segment from (x0, y0) to (x1, y1); zero-length segments are dropped. Horizontal ones are kept (distances need them; {@link fillNonzero} skips them). */
  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1 && x0 === x1) return;
    if ((this.count + 1) * 4 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.count * 4;
    this.data[at] = x0;
    this.data[at + 1] = y0;
    this.data[at + 2] = x1;
    this.data[at + 3] = y1;
    this.count++;
  }
}

/** Flattens outline commands into `edges`, closing every contour; no point of a curve is farther than `tolerance` pixels from its segments (default 0.1). */
export function flattenOutline(commands: readonly OutlineCommand[], edges: EdgeList, tolerance = TOLERANCE): void {
  if (!(tolerance > 0)) throw new GuiError(`flattenOutline: tolerance must be a positive number of pixels, got ${tolerance}.`);
  flattenMapped(commands, edges, tolerance, 1, 1);
}

/**
 * flattenOutline of the commands mapped by (x, y) to (x * mx, y * my) first, with `tolerance`
 * in mapped units: font-unit outlines (y up) become pixels (y down) without a copied path.
 */
export function flattenMapped(commands: readonly OutlineCommand[], edges: EdgeList, tolerance: number, mx: number, my: number): void {
  let sx = 0;
  let sy = 0;
  let x = 0;
  let y = 0;
  let open = false;
  const close = (): void => {
    if (open && (x !== sx || y !== sy)) edges.add(x, y, sx, sy);
    open = false;
  };
  for (const c of commands) {
    switch (c.type) {
      case 'M':
        close();
        sx = x = c.x * mx;
        sy = y = c.y * my;
        open = true;
        break;
      case 'L': {
        const lx = c.x * mx;
        const ly = c.y * my;
        edges.add(x, y, lx, ly);
        x = lx;
        y = ly;
        break;
      }
      case 'Q': {
        const x1 = c.x1 * mx;
        const y1 = c.y1 * my;
        const ex = c.x * mx;
        const ey = c.y * my;
        const ddx = x - 2 * x1 + ex;
        const ddy = y - 2 * y1 + ey;
        const n = Math.max(1, Math.ceil(Math.sqrt(Math.hypot(ddx, ddy) / (4 * tolerance))));
        let px = x;
        let py = y;
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          const qx = u * u * x + 2 * u * t * x1 + t * t * ex;
          const qy = u * u * y + 2 * u * t * y1 + t * t * ey;
          edges.add(px, py, qx, qy);
          px = qx;
          py = qy;
        }
        x = ex;
        y = ey;
        break;
      }
      case 'C': {
        const x1 = c.x1 * mx;
        const y1 = c.y1 * my;
        const x2 = c.x2 * mx;
        const y2 = c.y2 * my;
        const ex = c.x * mx;
        const ey = c.y * my;
        const d1 = Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2);
        const d2 = Math.hypot(x1 - 2 * x2 + ex, y1 - 2 * y2 + ey);
        const n = Math.max(1, Math.ceil(Math.sqrt((0.75 * Math.max(d1, d2)) / tolerance)));
        let px = x;
        let py = y;
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          const qx = u * u * u * x + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * ex;
          const qy = u * u * u * y + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * ey;
          edges.add(px, py, qx, qy);
          px = qx;
          py = qy;
        }
        x = ex;
        y = ey;
        break;
      }
      case 'Z':
        close();
        x = sx;
        y = sy;
        break;
    }
  }
  close();
}

/**
 * Fills the pixels of `target` (row-major, `stride` wide) whose centres the edges enclose
 * under the nonzero rule, inside the rectangle [x0, x1) x [y0, y1). Writes 255, leaves others.
 * Edges enter an active list in order of their top and leave it below their bottom, so each
 * row only looks at the edges that cross it.
 */
export function fillNonzero(edges: EdgeList, target: Uint8Array, stride: number, x0: number, y0: number, x1: number, y1: number): void {
  const e = edges.data;
  const n = edges.count;
  const order = new Int32Array(n);
  const tops = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
    tops[i] = Math.min(e[i * 4 + 1]!, e[i * 4 + 3]!);
  }
  order.sort((a, b) => tops[a]! - tops[b]!);
  const active = new Int32Array(n);
  let activeCount = 0;
  let next = 0;
  let crossX = new Float64Array(64);
  let crossW = new Int8Array(64);
  for (let row = y0; row < y1; row++) {
    const yc = row + 0.5;
    while (next < n && tops[order[next]!]! <= yc) active[activeCount++] = order[next++]!;
    let count = 0;
    for (let k = 0; k < activeCount; k++) {
      const i = active[k]!;
      const ay = e[i * 4 + 1]!;
      const by = e[i * 4 + 3]!;
      if (Math.max(ay, by) <= yc) {
        // Passed: drop it (swap with the last active edge and look at that one next).
        active[k--] = active[--activeCount]!;
        continue;
      }
      // Half-open in y so a vertex shared by two edges counts once.
      const down = ay < by;
      if (down ? yc < ay : yc < by) continue;
      const ax = e[i * 4]!;
      const bx = e[i * 4 + 2]!;
      if (count === crossX.length) {
        const gx = new Float64Array(count * 2);
        gx.set(crossX);
        crossX = gx;
        const gw = new Int8Array(count * 2);
        gw.set(crossW);
        crossW = gw;
      }
      // Insertion sort by x as crossings arrive: rows cross few edges.
      const cx = ax + ((yc - ay) * (bx - ax)) / (by - ay);
      let at = count++;
      while (at > 0 && crossX[at - 1]! > cx) {
        crossX[at] = crossX[at - 1]!;
        crossW[at] = crossW[at - 1]!;
        at--;
      }
      crossX[at] = cx;
      crossW[at] = down ? 1 : -1;
    }
    let winding = 0;
    const base = row * stride;
    for (let k = 0; k < count - 1; k++) {
      winding += crossW[k]!;
      if (winding === 0) continue;
      const from = Math.max(x0, Math.ceil(crossX[k]! - 0.5));
      const to = Math.min(x1, Math.ceil(crossX[k + 1]! - 0.5));
      for (let col = from; col < to; col++) target[base + col] = 255;
    }
  }
}

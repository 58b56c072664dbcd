// A scanline rasteriser for glyph outlines: quadratic and cubic Béziers are flattened to line
// segments, then every pixel centre of every row is tested with the nonzero winding rule
// (the rule TrueType and CFF outlines are drawn with). The result is a hard 0/255 mask: the
// distance field that follows needs the outline's position, not antialiasing.

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

  /** Appends the segment from (x0, y0) to (x1, y1); horizontal segments are dropped (they never cross a scanline). */
  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges never cross a scanline
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

/** Flattens outline commands into `edges`, closing every contour. */
export function flattenOutline(commands: readonly OutlineCommand[], edges: EdgeList): void {
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
        sx = x = c.x;
        sy = y = c.y;
        open = true;
        break;
      case 'L':
        edges.add(x, y, c.x, c.y);
        x = c.x;
        y = c.y;
        break;
      case 'Q': {
        const ddx = x - 2 * c.x1 + c.x;
        const ddy = y - 2 * c.y1 + c.y;
        const n = Math.max(1, Math.ceil(Math.sqrt(Math.hypot(ddx, ddy) / (4 * TOLERANCE))));
        let px = x;
        let py = y;
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          const qx = u * u * x + 2 * u * t * c.x1 + t * t * c.x;
          const qy = u * u * y + 2 * u * t * c.y1 + t * t * c.y;
          edges.add(px, py, qx, qy);
          px = qx;
          py = qy;
        }
        x = c.x;
        y = c.y;
        break;
      }
      case 'C': {
        const d1 = Math.hypot(x - 2 * c.x1 + c.x2, y - 2 * c.y1 + c.y2);
        const d2 = Math.hypot(c.x1 - 2 * c.x2 + c.x, c.y1 - 2 * c.y2 + c.y);
        const n = Math.max(1, Math.ceil(Math.sqrt((0.75 * Math.max(d1, d2)) / TOLERANCE)));
        let px = x;
        let py = y;
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          const qx = u * u * u * x + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x;
          const qy = u * u * u * y + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y;
          edges.add(px, py, qx, qy);
          px = qx;
          py = qy;
        }
        x = c.x;
        y = c.y;
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

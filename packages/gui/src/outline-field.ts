// Distance fields straight from the outline, without a supersampled raster: for every flattened
// segment, only the texels in a band within `spread` of it (row by row; see bandMargins for how
// far past its ends) take the exact point-to-segment distance, keeping the smallest; every
// texel farther out clamps to the field's limit anyway. Inside or outside comes from the
// nonzero rule at the texel centres (scanline crossings, as fillNonzero). Exact to the
// flattening tolerance, in O(band texels + rows x crossings) instead of O(scale^2 x texels)
// for raster + transform.
import type { EdgeList } from './rasterize.ts';

// Scratch kept between glyphs: nothing is allocated per glyph once they are big enough.
let squared = new Float64Array(0);
let winding = new Int32Array(0);
let margins = new Float64Array(0);

/** Slack in texels on the band's limits, so rounding never leaves out a texel on its edge. */
const SLACK = 1e-3;

/**
 * Writes the width x height distance field of `edges` into `target` (row stride `stride`) with
 * its top-left texel at (x, y). Edges are in field texels: texel (i, j) is the point
 * (i + 0.5, j + 0.5); contours are closed and their segments in order, as flattenOutline
 * writes them. Valve's encoding, as distanceFieldImage writes it: 128 on the outline, 255 at
 * `spread` texels inside, 0 at `spread` outside.
 */
export function outlineDistanceField(edges: EdgeList, width: number, height: number, spread: number, target: Uint8Array, stride: number, x: number, y: number): void {
  const n = width * height;
  const rowLength = width + 1;
  if (squared.length < n) squared = new Float64Array(n);
  if (winding.length < rowLength * height) winding = new Int32Array(rowLength * height);
  squared.fill(spread * spread, 0, n);
  nearestSquared(edges, width, height, spread, squared);
  windingSteps(edges, width, height, winding);
  const gain = 127.5 / spread;
  const far = spread * spread;
  for (let j = 0; j < height; j++) {
    const from = j * width;
    const steps = j * rowLength;
    const to = (y + j) * stride + x;
    let w = 0;
    for (let i = 0; i < width; i++) {
      w += winding[steps + i]!;
      const d2 = squared[from + i]!;
      if (d2 >= far) {
        target[to + i] = w !== 0 ? 255 : 0;
        continue;
      }
      // 0 <= 127.5 +- d < 255 here, so adding 0.5 and truncating rounds as Math.round does.
      const d = Math.sqrt(d2) * gain;
      target[to + i] = (w !== 0 ? 128 + d : 128 - d) | 0;
    }
  }
}

/**
 * Nonzero rule at the texel centres without sorting crossings: each crossing of a row's centre
 * line adds its direction at the first texel right of it, so a running sum along the row is the
 * winding number of every texel (the crossings to its left). Half-open in y, like fillNonzero.
 */
function windingSteps(edges: EdgeList, width: number, height: number, steps: Int32Array): void {
  const rowLength = width + 1;
  steps.fill(0, 0, rowLength * height);
  const e = edges.data;
  for (let s = 0; s < edges.count * 4; s += 4) {
    const ay = e[s + 1]!;
    const by = e[s + 3]!;
    if (ay === by) continue;
    const down = ay < by;
    const top = down ? ay : by;
    const bottom = down ? by : ay;
    const ax = e[s]!;
    const slope = (e[s + 2]! - ax) / (by - ay);
    const rowFrom = Math.max(0, Math.ceil(top - 0.5));
    const rowTo = Math.min(height, Math.ceil(bottom - 0.5));
    const dir = down ? 1 : -1;
    for (let row = rowFrom; row < rowTo; row++) {
      const cx = ax + (row + 0.5 - ay) * slope;
      const col = Math.ceil(cx - 0.5);
      const at = row * rowLength + (col < 0 ? 0 : col > width ? width : col);
      steps[at] = steps[at]! + dir;
    }
  }
}

/**
 * How far each segment's band reaches past its start and end (texels, 4 * 2 per segment).
 * A texel whose nearest outline point is a vertex lies in the wedge between the normals of the
 * two segments that meet there, on the outer side of the turn; within `radius` of the vertex
 * that wedge is inside either segment's band once the band runs on past the vertex by
 * radius x sin(turn) (radius beyond a right angle). Smooth curves turn little at each vertex,
 * so each segment visits a thin rectangle instead of a capsule with two discs.
 */
function bandMargins(edges: EdgeList, radius: number, out: Float64Array): void {
  const e = edges.data;
  const count = edges.count;
  out.fill(radius + SLACK, 0, count * 2);
  let contourStart = 0;
  for (let s = 0; s < count; s++) {
    const at = s * 4;
    const last = s === count - 1 || e[at + 4] !== e[at + 2] || e[at + 5] !== e[at + 3];
    if (!last) setTurn(e, at, at + 4, radius, out, s, s + 1);
    else {
      const first = contourStart * 4;
      if (e[first] === e[at + 2] && e[first + 1] === e[at + 3]) setTurn(e, at, first, radius, out, s, contourStart);
      contourStart = s + 1;
    }
  }
}

/** Margins at the vertex where segment `a` (at offset ea) ends and segment `b` (at eb) starts. */
function setTurn(e: Float64Array, ea: number, eb: number, radius: number, out: Float64Array, a: number, b: number): void {
  const ux = e[ea + 2]! - e[ea]!;
  const uy = e[ea + 3]! - e[ea + 1]!;
  const vx = e[eb + 2]! - e[eb]!;
  const vy = e[eb + 3]! - e[eb + 1]!;
  const dot = ux * vx + uy * vy;
  const lengths = Math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy));
  const margin = dot <= 0 ? radius : (radius * Math.abs(ux * vy - uy * vx)) / lengths;
  out[a * 2 + 1] = margin + SLACK;
  out[b * 2] = margin + SLACK;
}

/** Lowers `squared` (texel centres at whole coordinates) to the squared distance to each segment, over each segment's band. */
function nearestSquared(edges: EdgeList, width: number, height: number, radius: number, squared: Float64Array): void {
  if (margins.length < edges.count * 2) margins = new Float64Array(edges.count * 4);
  bandMargins(edges, radius, margins);
  const e = edges.data;
  const lastRow = height - 1;
  const lastCol = width - 1;
  const wide = radius + SLACK;
  for (let s = 0; s < edges.count; s++) {
    // Shift by half a texel so that texel (i, j) is the point (i, j).
    const ax = e[s * 4]! - 0.5;
    const ay = e[s * 4 + 1]! - 0.5;
    const bx = e[s * 4 + 2]! - 0.5;
    const by = e[s * 4 + 3]! - 0.5;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const len = Math.sqrt(len2);
    const inv = 1 / len2;
    const before = margins[s * 2]!;
    const after = margins[s * 2 + 1]!;
    // The band is the rectangle of points whose projection on the segment runs from -before to
    // len + after and whose distance to its line is at most radius; its corners bound the rows.
    const ox = dx / len;
    const oy = dy / len;
    const sy = ay - oy * before;
    const ey = by + oy * after;
    const nyReach = Math.abs(ox) * wide;
    const rowFrom = Math.max(0, Math.ceil(Math.min(sy, ey) - nyReach));
    const rowTo = Math.min(lastRow, Math.floor(Math.max(sy, ey) + nyReach));
    const pLo = -before * len;
    const pHi = len2 + after * len;
    const reach = wide * len;
    for (let row = rowFrom; row <= rowTo; row++) {
      const py = row - ay;
      // u = column - ax: projection u dx + py dy in [pLo, pHi]; perpendicular |u dy - py dx| <= reach.
      let uLo = -Infinity;
      let uHi = Infinity;
      if (dx !== 0) {
        const a = (pLo - py * dy) / dx;
        const b = (pHi - py * dy) / dx;
        uLo = a < b ? a : b;
        uHi = a < b ? b : a;
      } else if (py * dy < pLo || py * dy > pHi) continue;
      if (dy !== 0) {
        const a = (py * dx - reach) / dy;
        const b = (py * dx + reach) / dy;
        if ((a < b ? a : b) > uLo) uLo = a < b ? a : b;
        if ((a < b ? b : a) < uHi) uHi = a < b ? b : a;
      } else if (Math.abs(py * dx) > reach) continue;
      const colFrom = Math.max(0, Math.ceil(ax + uLo));
      const colTo = Math.min(lastCol, Math.floor(ax + uHi));
      const base = row * width;
      clampedRun(squared, base, colFrom, colTo, ax, py, dx, dy, inv);
    }
  }
}

/** Squared distances from columns from..to of a row (py = row - ay) to the segment, projection clamped to its ends. */
function clampedRun(squared: Float64Array, base: number, from: number, to: number, ax: number, py: number, dx: number, dy: number, inv: number): void {
  let t = ((from - ax) * dx + py * dy) * inv;
  const step = dx * inv;
  for (let col = from; col <= to; col++, t += step) {
    const c = t < 0 ? 0 : t > 1 ? 1 : t;
    const qx = col - ax - c * dx;
    const qy = py - c * dy;
    const d2 = qx * qx + qy * qy;
    if (d2 < squared[base + col]!) squared[base + col] = d2;
  }
}

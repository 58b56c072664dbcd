// Overdraw of a triangle order, measured on the CPU in the spirit of meshoptimizer's
// meshopt_analyzeOverdraw: the mesh is rasterised in its order from several directions
// (orthographic, a square grid fitted to its projection), back faces culled (glTF's
// counter-clockwise front faces), depth tested "less"; fragments that pass are shaded.
// Overdraw = shaded / covered pixels, 1 when nothing is drawn twice.

export interface OverdrawStats {
  /** Pixels some triangle covers, summed over the views. */
  covered: number;
  /** Fragments that passed the depth test, summed over the views. */
  shaded: number;
  /** shaded / covered; 1 for an empty picture. */
  overdraw: number;
}

export interface OverdrawOptions {
  /** Pixels along the grid's side (256). */
  size?: number;
  /** Directions the views look along (the 6 axes and 8 diagonals). */
  directions?: readonly (readonly [number, number, number])[];
}

const AXES_AND_DIAGONALS: readonly (readonly [number, number, number])[] = [
  [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
  ...[-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => [x, y, z] as const))),
];

/** Sub-pixel steps: corners snap to 1/16 pixel, so edge tests are exact integers. */
const SUB = 16;

export function analyzeOverdraw(indices: ArrayLike<number>, positions: Float32Array, options: OverdrawOptions = {}): OverdrawStats {
  const size = options.size ?? 256;
  const vertexCount = positions.length / 3;
  const xs = new Float64Array(vertexCount), ys = new Float64Array(vertexCount), zs = new Float64Array(vertexCount);
  const depth = new Float64Array(size * size);
  let covered = 0, shaded = 0;
  for (const direction of options.directions ?? AXES_AND_DIAGONALS) {
    const basis = viewBasis(direction);
    if (!project(indices, positions, basis, size, xs, ys, zs)) continue;
    const dx = basis[6]!, dy = basis[7]!, dz = basis[8]!;
    depth.fill(Infinity);
    for (let t = 0; t + 2 < indices.length; t += 3) {
      const a = indices[t]!, b = indices[t + 1]!, c = indices[t + 2]!;
      // Culled in 3D: a front face's normal points back along the view direction.
      const ax = positions[a * 3]!, ay = positions[a * 3 + 1]!, az = positions[a * 3 + 2]!;
      const ux = positions[b * 3]! - ax, uy = positions[b * 3 + 1]! - ay, uz = positions[b * 3 + 2]! - az;
      const vx = positions[c * 3]! - ax, vy = positions[c * 3 + 1]! - ay, vz = positions[c * 3 + 2]! - az;
      if ((uy * vz - uz * vy) * dx + (uz * vx - ux * vz) * dy + (ux * vy - uy * vx) * dz >= 0) continue;
      shaded += rasterize(xs, ys, zs, a, b, c, size, depth);
    }
    for (let i = 0; i < depth.length; i++) if (depth[i] !== Infinity) covered++;
  }
  return { covered, shaded, overdraw: covered > 0 ? shaded / covered : 1 };
}

/** Right, up and forward (the direction, normalised), 9 numbers. */
function viewBasis([x, y, z]: readonly [number, number, number]): Float64Array {
  const l = Math.hypot(x, y, z);
  const d = [x / l, y / l, z / l] as const;
  const helper = Math.abs(d[1]) < 0.9 ? [0, 1, 0] as const : [1, 0, 0] as const;
  // right = helper x d, up = d x right
  let rx = helper[1] * d[2] - helper[2] * d[1], ry = helper[2] * d[0] - helper[0] * d[2], rz = helper[0] * d[1] - helper[1] * d[0];
  const rl = Math.hypot(rx, ry, rz);
  rx /= rl; ry /= rl; rz /= rl;
  return Float64Array.of(rx, ry, rz, d[1] * rz - d[2] * ry, d[2] * rx - d[0] * rz, d[0] * ry - d[1] * rx, d[0], d[1], d[2]);
}

/** Grid coordinates in sub-pixel steps (x, y) and depth (z) of each vertex; false if the projection is flat. */
function project(indices: ArrayLike<number>, positions: Float32Array, basis: Float64Array, size: number, xs: Float64Array, ys: Float64Array, zs: Float64Array): boolean {
  for (let v = 0; v < xs.length; v++) {
    const px = positions[v * 3]!, py = positions[v * 3 + 1]!, pz = positions[v * 3 + 2]!;
    xs[v] = basis[0]! * px + basis[1]! * py + basis[2]! * pz;
    ys[v] = basis[3]! * px + basis[4]! * py + basis[5]! * pz;
    zs[v] = basis[6]! * px + basis[7]! * py + basis[8]! * pz;
  }
  // Fitted to the vertices the triangles use.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    minX = Math.min(minX, xs[v]!); maxX = Math.max(maxX, xs[v]!);
    minY = Math.min(minY, ys[v]!); maxY = Math.max(maxY, ys[v]!);
  }
  const extent = Math.max(maxX - minX, maxY - minY);
  if (!(extent > 0)) return false;
  const scale = (size * SUB) / extent;
  for (let v = 0; v < xs.length; v++) {
    xs[v] = Math.round((xs[v]! - minX) * scale);
    ys[v] = Math.round((ys[v]! - minY) * scale);
  }
  return true;
}

/**
 * Whether a point exactly on edge p -> q of a counter-clockwise triangle belongs to it: to one
 * of the two triangles sharing the edge, by its direction (a top-left style rule), so shared
 * edges are not drawn twice.
 */
function ownsEdge(px: number, py: number, qx: number, qy: number): boolean {
  const ex = qx - px, ey = qy - py;
  return ey < 0 || (ey === 0 && ex > 0);
}

/** Depth-tests triangle a, b, c into `depth`; returns the fragments that passed. */
function rasterize(xs: Float64Array, ys: Float64Array, zs: Float64Array, a: number, b0: number, c0: number, size: number, depth: Float64Array): number {
  let b = b0, c = c0;
  const area = (xs[b]! - xs[a]!) * (ys[c]! - ys[a]!) - (ys[b]! - ys[a]!) * (xs[c]! - xs[a]!);
  if (area === 0) return 0;
  // Rasterised counter-clockwise on the grid whatever the view's handedness (culling was in 3D).
  if (area < 0) [b, c] = [c, b];
  const x0 = xs[a]!, y0 = ys[a]!, x1 = xs[b]!, y1 = ys[b]!, x2 = xs[c]!, y2 = ys[c]!;
  const z0 = zs[a]!, z1 = zs[b]!, z2 = zs[c]!;
  const twice = Math.abs(area);
  // Edge functions (integers: corners are snapped), positive inside; zero on an edge counts if the triangle owns it.
  const bias0 = ownsEdge(x1, y1, x2, y2) ? 0 : 1, bias1 = ownsEdge(x2, y2, x0, y0) ? 0 : 1, bias2 = ownsEdge(x0, y0, x1, y1) ? 0 : 1;
  // Pixel i's centre is at i * SUB + SUB / 2.
  const first = (lo: number): number => Math.max(0, Math.ceil((lo - SUB / 2) / SUB));
  const last = (hi: number): number => Math.min(size - 1, Math.floor((hi - SUB / 2) / SUB));
  const i0 = first(Math.min(x0, x1, x2)), i1 = last(Math.max(x0, x1, x2));
  const j0 = first(Math.min(y0, y1, y2)), j1 = last(Math.max(y0, y1, y2));
  let passed = 0;
  for (let j = j0; j <= j1; j++) {
    const sy = j * SUB + SUB / 2;
    for (let i = i0; i <= i1; i++) {
      const sx = i * SUB + SUB / 2;
      const w0 = (x2 - x1) * (sy - y1) - (y2 - y1) * (sx - x1);
      const w1 = (x0 - x2) * (sy - y2) - (y0 - y2) * (sx - x2);
      const w2 = (x1 - x0) * (sy - y0) - (y1 - y0) * (sx - x0);
      if (w0 < bias0 || w1 < bias1 || w2 < bias2) continue;
      const z = (w0 * z0 + w1 * z1 + w2 * z2) / twice;
      const pixel = j * size + i;
      if (z < depth[pixel]!) {
        depth[pixel] = z;
        passed++;
      }
    }
  }
  return passed;
}

// Distances between a mesh and a level of detail of it, brute force, for the tests of levels.

/** Largest distance from a vertex of the full mesh to the nearest point of `indices`' triangles (brute force). */
export function hausdorffFromFull(positions: Float32Array, indices: Uint32Array): number {
  const p = (i: number): [number, number, number] => [positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!];
  let worst = 0;
  for (let v = 0; v < positions.length / 3; v++) {
    const q = p(v);
    let best = Infinity;
    for (let t = 0; t < indices.length; t += 3) best = Math.min(best, pointTriangle(q, p(indices[t]!), p(indices[t + 1]!), p(indices[t + 2]!)));
    worst = Math.max(worst, best);
  }
  return worst;
}

/** Distance from q to triangle abc (Ericson's closest point on a triangle). */
function pointTriangle(q: number[], a: number[], b: number[], c: number[]): number {
  const sub = (x: number[], y: number[]): number[] => [x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!];
  const dot = (x: number[], y: number[]): number => x[0]! * y[0]! + x[1]! * y[1]! + x[2]! * y[2]!;
  const at = (s: number, t: number): number[] => [a[0]! + s * (b[0]! - a[0]!) + t * (c[0]! - a[0]!), a[1]! + s * (b[1]! - a[1]!) + t * (c[1]! - a[1]!), a[2]! + s * (b[2]! - a[2]!) + t * (c[2]! - a[2]!)];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(q, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  let point: number[];
  if (d1 <= 0 && d2 <= 0) point = a;
  else {
    const bp = sub(q, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
    const cp = sub(q, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
    const vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) point = b;
    else if (d6 >= 0 && d5 <= d6) point = c;
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) point = at(d1 / (d1 - d3), 0);
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) point = at(0, d2 / (d2 - d6));
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      point = [b[0]! + w * (c[0]! - b[0]!), b[1]! + w * (c[1]! - b[1]!), b[2]! + w * (c[2]! - b[2]!)];
    } else {
      const denom = 1 / (va + vb + vc);
      point = at(vb * denom, vc * denom);
    }
  }
  return Math.hypot(...sub(q, point));
}

// Generated closed meshes with real depth complexity, for the overdraw tests and bench: shells
// nested inside each other, and a torus knot whose tube passes in front of itself. Triangles
// wind counter-clockwise seen from outside (glTF's front faces).

export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** A (rings x segments) grid of points wrapped by `point`, each cell two triangles; u wraps, v wraps if `closedV`. */
function wrappedGrid(rings: number, segments: number, closedV: boolean, point: (u: number, v: number, out: number[]) => void): TriangleMesh {
  const rows = closedV ? rings : rings + 1;
  const positions: number[] = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < segments; j++) point(j / segments, i / rings, positions);
  const indices: number[] = [];
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * segments + j, b = i * segments + ((j + 1) % segments);
      const c = ((i + 1) % rows) * segments + j, d = ((i + 1) % rows) * segments + ((j + 1) % segments);
      indices.push(a, d, c, a, b, d);
    }
  }
  return outward({ positions: new Float32Array(positions), indices: new Uint32Array(indices) });
}

/** Flips every triangle if the mesh's signed volume is negative (wound inside out). */
function outward(mesh: TriangleMesh): TriangleMesh {
  const { positions: p, indices } = mesh;
  let volume = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    volume += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  if (volume < 0) for (let t = 0; t < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2]!, indices[t + 1]!];
  return mesh;
}

/** A uv sphere of `radius` (pole rows of coincident vertices give degenerate triangles, as exporters do). */
export function sphere(radius: number, rings: number, segments: number): TriangleMesh {
  return wrappedGrid(rings, segments, false, (u, v, out) => {
    const theta = v * Math.PI, phi = u * 2 * Math.PI;
    out.push(radius * Math.sin(theta) * Math.cos(phi), radius * Math.cos(theta), radius * Math.sin(theta) * Math.sin(phi));
  });
}

/** Meshes one after another in one index buffer. */
export function concatMeshes(meshes: readonly TriangleMesh[]): TriangleMesh {
  const positions = new Float32Array(meshes.reduce((n, m) => n + m.positions.length, 0));
  const indices = new Uint32Array(meshes.reduce((n, m) => n + m.indices.length, 0));
  let p = 0, i = 0;
  for (const m of meshes) {
    positions.set(m.positions, p);
    for (let k = 0; k < m.indices.length; k++) indices[i + k] = m.indices[k]! + p / 3;
    p += m.positions.length;
    i += m.indices.length;
  }
  return { positions, indices };
}

/** Spheres of radius 1 .. count, innermost first in the buffer. */
export function nestedShells(count: number, rings = 24, segments = 32): TriangleMesh {
  return concatMeshes(Array.from({ length: count }, (_, s) => sphere(s + 1, rings, segments)));
}

/** A (p, q) torus knot: a tube of radius `tube` along the knot, `along` x `around` cells. */
export function torusKnot(along: number, around: number, p = 2, q = 3, tube = 0.35): TriangleMesh {
  const curve = (t: number): [number, number, number] => {
    const r = 2 + Math.cos(q * t);
    return [r * Math.cos(p * t), r * Math.sin(p * t), Math.sin(q * t)];
  };
  return wrappedGrid(along, around, true, (u, v, out) => {
    const t = v * 2 * Math.PI;
    const c = curve(t), ahead = curve(t + 1e-3);
    // A frame around the curve: tangent, a normal from the tangent and the curve's radius, binormal.
    const tx = ahead[0] - c[0], ty = ahead[1] - c[1], tz = ahead[2] - c[2];
    const tl = Math.hypot(tx, ty, tz);
    const [ux, uy, uz] = [tx / tl, ty / tl, tz / tl];
    let nx = c[0] - ux * (c[0] * ux + c[1] * uy), ny = c[1] - uy * (c[0] * ux + c[1] * uy), nz = -uz * (c[0] * ux + c[1] * uy);
    const nl = Math.hypot(nx, ny, nz);
    nx /= nl; ny /= nl; nz /= nl;
    const bx = uy * nz - uz * ny, by = uz * nx - ux * nz, bz = ux * ny - uy * nx;
    const a = u * 2 * Math.PI;
    out.push(c[0] + tube * (Math.cos(a) * nx + Math.sin(a) * bx), c[1] + tube * (Math.cos(a) * ny + Math.sin(a) * by), c[2] + tube * (Math.cos(a) * nz + Math.sin(a) * bz));
  });
}

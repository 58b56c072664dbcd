// Simple meshes for examples, tests and the demo: a box, a plane and a UV sphere, with normals
// and uvs (tangents are derived when a mesh is added).
import type { MeshInput } from '../api.ts';

/** A box centred on the origin with half sizes (hx, hy, hz): 24 vertices, flat faces. */
export function boxMesh(hx = 0.5, hy = 0.5, hz = 0.5): MeshInput {
  const faces: [number[], number[], number[]][] = [
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
    [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
    [[0, 1, 0], [1, 0, 0], [0, 0, -1]],
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
    [[0, 0, -1], [-1, 0, 0], [0, 1, 0]],
  ];
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (const [n, u, v] of faces) {
    const base = positions.length / 3;
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
      const p = [0, 1, 2].map((k) => n[k]! + u[k]! * a + v[k]! * b);
      positions.push(p[0]! * hx, p[1]! * hy, p[2]! * hz);
      normals.push(...n);
      uvs.push((a + 1) / 2, (1 - b) / 2);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: new Float32Array(uvs), indices: new Uint32Array(indices) };
}

/** A square in the xz plane facing +y, `size` on a side, split into `cells` x `cells` quads (uvs repeat per cell). */
export function planeMesh(size = 1, cells = 1): MeshInput {
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let j = 0; j <= cells; j++) {
    for (let i = 0; i <= cells; i++) {
      positions.push((i / cells - 0.5) * size, 0, (j / cells - 0.5) * size);
      normals.push(0, 1, 0);
      uvs.push(i, j);
    }
  }
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * (cells + 1) + i;
      indices.push(a, a + cells + 1, a + 1, a + 1, a + cells + 1, a + cells + 2);
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: new Float32Array(uvs), indices: new Uint32Array(indices) };
}

/** A UV sphere of `radius` with `rings` x `segments` quads. */
export function sphereMesh(radius = 0.5, rings = 16, segments = 32): MeshInput {
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const phi = (r / rings) * Math.PI;
    for (let s = 0; s <= segments; s++) {
      const theta = (s / segments) * Math.PI * 2;
      const n = [Math.sin(phi) * Math.cos(theta), Math.cos(phi), -Math.sin(phi) * Math.sin(theta)];
      positions.push(n[0]! * radius, n[1]! * radius, n[2]! * radius);
      normals.push(...n);
      uvs.push(s / segments, r / rings);
    }
  }
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s;
      const b = a + segments + 1;
      indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: new Float32Array(uvs), indices: new Uint32Array(indices) };
}

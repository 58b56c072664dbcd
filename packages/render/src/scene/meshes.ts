// Meshes on the GPU: one vertex buffer per attribute (position, normal, uv, tangent) and an
// index buffer, so the depth-only and shadow passes bind positions alone. Missing uvs become
// zeros; missing tangents are derived from the uvs per triangle (or any perpendicular). Each is a
// buffer range: a buffer of its own, or a range of a scene allocator's large buffers. Positions
// and uvs are stored as unorm16 over the mesh's own ranges (quantize.ts), normals and tangents
// as snorm8: 20 bytes a vertex.
import type { MeshInput, QuantizedMeshInput } from '../api.ts';
import { RenderError } from '../errors.ts';
import { dequantizePositions, dequantizeUvs, quantizePositions, quantizeUvs, type PositionRange, type UvRange } from './quantize.ts';
import type { BufferRange, SceneBuffers } from './scene-buffers.ts';

/** A level of detail: a range of the mesh's index buffer. */
export interface MeshLod {
  readonly firstIndex: number;
  readonly indexCount: number;
  readonly error: number;
}

export interface GpuMesh {
  readonly id: number;
  readonly positions: BufferRange;
  readonly normals: BufferRange;
  readonly uvs: BufferRange;
  readonly tangents: BufferRange;
  readonly indices: BufferRange;
  readonly indexFormat: GPUIndexFormat;
  /** Indices of the full mesh (level 0). */
  readonly indexCount: number;
  /**
   * Its levels of detail in `indices`, the full mesh first (error 0): where each level's indices
   * start, how many, and its geometric error in object-space units.
   */
  readonly lods: readonly MeshLod[];
  /** Object-space bounding sphere (transparent sorting, shadow fitting). */
  readonly center: readonly [number, number, number];
  readonly radius: number;
  /** How the unorm16 positions map back to object space (each instance carries a copy). */
  readonly positionRange: PositionRange;
  /** How the unorm16 uvs map back. */
  readonly uvRange: UvRange;
}

function finite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

/**
 * Unit vectors (`size` 3: normals, 4: tangents with their handedness in w) as 8-bit signed
 * normalized quadruples, the GPU's snorm8x4: each component rounded to the nearest of -127..127.
 * A normal's w is 0. Renormalized first, so a slightly long input does not clamp.
 */
export function packSnorm8x4(vectors: Float32Array, size: 3 | 4): Int8Array {
  const count = vectors.length / size;
  const out = new Int8Array(count * 4);
  for (let v = 0; v < count; v++) {
    const x = vectors[v * size]!, y = vectors[v * size + 1]!, z = vectors[v * size + 2]!;
    const scale = 127 / (Math.hypot(x, y, z) || 1);
    out[v * 4] = Math.round(x * scale);
    out[v * 4 + 1] = Math.round(y * scale);
    out[v * 4 + 2] = Math.round(z * scale);
    out[v * 4 + 3] = size === 4 ? (vectors[v * 4 + 3]! < 0 ? -127 : 127) : 0;
  }
  return out;
}

/** Per-vertex tangents from uv derivatives, accumulated over triangles and orthogonalised. */
export function computeTangents(positions: Float32Array, normals: Float32Array, uvs: Float32Array | undefined, indices: ArrayLike<number>): Float32Array {
  const count = positions.length / 3;
  const sums = new Float64Array(count * 3);
  const bitangents = new Float64Array(count * 3);
  if (uvs) {
    for (let t = 0; t + 2 < indices.length; t += 3) {
      const a = indices[t]!, b = indices[t + 1]!, c = indices[t + 2]!;
      const e1 = [positions[b * 3]! - positions[a * 3]!, positions[b * 3 + 1]! - positions[a * 3 + 1]!, positions[b * 3 + 2]! - positions[a * 3 + 2]!];
      const e2 = [positions[c * 3]! - positions[a * 3]!, positions[c * 3 + 1]! - positions[a * 3 + 1]!, positions[c * 3 + 2]! - positions[a * 3 + 2]!];
      const du1 = uvs[b * 2]! - uvs[a * 2]!, dv1 = uvs[b * 2 + 1]! - uvs[a * 2 + 1]!;
      const du2 = uvs[c * 2]! - uvs[a * 2]!, dv2 = uvs[c * 2 + 1]! - uvs[a * 2 + 1]!;
      const det = du1 * dv2 - du2 * dv1;
      if (Math.abs(det) < 1e-20) continue;
      const r = 1 / det;
      for (const v of [a, b, c]) {
        for (let k = 0; k < 3; k++) {
          sums[v * 3 + k]! += (e1[k]! * dv2 - e2[k]! * dv1) * r;
          bitangents[v * 3 + k]! += (e2[k]! * du1 - e1[k]! * du2) * r;
        }
      }
    }
  }
  const out = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) {
    const n = [normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!];
    let t = [sums[v * 3]!, sums[v * 3 + 1]!, sums[v * 3 + 2]!];
    const along = t[0]! * n[0]! + t[1]! * n[1]! + t[2]! * n[2]!;
    t = [t[0]! - n[0]! * along, t[1]! - n[1]! * along, t[2]! - n[2]! * along];
    let length = Math.hypot(t[0]!, t[1]!, t[2]!);
    if (length < 1e-12) {
      // No uv gradient: any direction perpendicular to the normal.
      t = Math.abs(n[0]!) < 0.9 ? [0, -n[2]!, n[1]!] : [n[2]!, 0, -n[0]!];
      length = Math.hypot(t[0]!, t[1]!, t[2]!);
    }
    const b = [n[1]! * t[2]! - n[2]! * t[1]!, n[2]! * t[0]! - n[0]! * t[2]!, n[0]! * t[1]! - n[1]! * t[0]!];
    const handed = b[0]! * bitangents[v * 3]! + b[1]! * bitangents[v * 3 + 1]! + b[2]! * bitangents[v * 3 + 2]! < 0 ? -1 : 1;
    out.set([t[0]! / length, t[1]! / length, t[2]! / length, handed], v * 4);
  }
  return out;
}

/**
 * Checks `input.lods` (before anything is uploaded) and lays every level's indices after the full
 * mesh's in one array: 16-bit when every level is, else 32-bit.
 */
export function checkLods(input: Pick<MeshInput, 'indices' | 'lods'>, vertices: number): { indices: Uint16Array | Uint32Array; levels: MeshLod[] } {
  const lods = input.lods ?? [];
  if (lods.length === 0) return { indices: input.indices, levels: [{ firstIndex: 0, indexCount: input.indices.length, error: 0 }] };
  let count = input.indices.length;
  let error = 0;
  lods.forEach((lod, l) => {
    const { indices } = lod;
    const at = `lods[${l}]`;
    if (indices.length === 0 || indices.length % 3 !== 0) throw new RenderError(`${at}.indices must describe whole triangles, got ${indices.length}.`);
    if (indices.length >= count) throw new RenderError(`${at} has ${indices.length / 3} triangles, not fewer than the level before (${count / 3}): give levels finest first.`);
    if (!Number.isFinite(lod.error) || lod.error < error) throw new RenderError(`${at}.error must be a finite number at least the level before's (${error}), got ${lod.error}.`);
    for (let i = 0; i < indices.length; i++) if (indices[i]! >= vertices) throw new RenderError(`${at}: index ${indices[i]} at ${i} is past the last vertex (${vertices - 1}).`);
    count = indices.length;
    error = lod.error;
  });
  const all = [input.indices, ...lods.map((lod) => lod.indices)];
  const total = all.reduce((sum, indices) => sum + indices.length, 0);
  const out = all.every((indices) => indices instanceof Uint16Array) ? new Uint16Array(total) : new Uint32Array(total);
  const levels: MeshLod[] = [];
  let at = 0;
  all.forEach((indices, l) => {
    out.set(indices, at);
    levels.push({ firstIndex: at, indexCount: indices.length, error: l === 0 ? 0 : lods[l - 1]!.error });
    at += indices.length;
  });
  return { indices: out, levels };
}

/** The vertex streams as the GPU stores them. */
interface StoredVertices {
  positions: Uint16Array;
  positionRange: PositionRange;
  normals: Int8Array;
  uvs: Uint16Array;
  uvRange: UvRange;
  tangents: Int8Array;
}

function checkIndices(indices: ArrayLike<number>, vertices: number): void {
  for (let i = 0; i < indices.length; i++) {
    if (indices[i]! >= vertices) throw new RenderError(`index ${indices[i]} at ${i} is past the last vertex (${vertices - 1}).`);
  }
}

function checkRange(name: string, range: readonly number[]): void {
  if (range.length !== 4 || !finite(range) || !(range[3]! > 0) || (name === 'uvRange' && !(range[2]! > 0))) {
    throw new RenderError(`${name} must be four finite numbers with positive scales, got [${range.join(', ')}].`);
  }
}

/** The box's centre and the farthest vertex from it. */
function boundingSphere(positions: Float32Array): { center: [number, number, number]; radius: number } {
  const vertices = positions.length / 3;
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < vertices; v++) {
    for (let k = 0; k < 3; k++) {
      low[k] = Math.min(low[k]!, positions[v * 3 + k]!);
      high[k] = Math.max(high[k]!, positions[v * 3 + k]!);
    }
  }
  const center = [0, 1, 2].map((k) => (low[k]! + high[k]!) / 2) as [number, number, number];
  let radius = 0;
  for (let v = 0; v < vertices; v++) radius = Math.max(radius, Math.hypot(positions[v * 3]! - center[0], positions[v * 3 + 1]! - center[1], positions[v * 3 + 2]! - center[2]));
  return { center, radius };
}

export class MeshStore {
  readonly #vertices: SceneBuffers;
  readonly #indices: SceneBuffers;
  readonly #meshes: GpuMesh[] = [];

  constructor(vertices: SceneBuffers, indices: SceneBuffers) {
    this.#vertices = vertices;
    this.#indices = indices;
  }

  get(id: number): GpuMesh {
    const mesh = this.#meshes[id];
    if (!mesh) throw new RenderError(`mesh ${id} does not exist (there are ${this.#meshes.length}).`);
    return mesh;
  }

  get count(): number {
    return this.#meshes.length;
  }

  add(input: MeshInput): GpuMesh {
    const { positions, normals, uvs, tangents, indices } = input;
    const vertices = positions.length / 3;
    if (!Number.isInteger(vertices) || vertices < 1) throw new RenderError(`positions must hold xyz triplets, got ${positions.length} numbers.`);
    if (normals.length !== vertices * 3) throw new RenderError(`normals must hold ${vertices * 3} numbers (one xyz per vertex), got ${normals.length}.`);
    if (uvs && uvs.length !== vertices * 2) throw new RenderError(`uvs must hold ${vertices * 2} numbers, got ${uvs.length}.`);
    if (tangents && tangents.length !== vertices * 4) throw new RenderError(`tangents must hold ${vertices * 4} numbers (xyzw), got ${tangents.length}.`);
    if (indices.length === 0 || indices.length % 3 !== 0) throw new RenderError(`indices must describe whole triangles, got ${indices.length}.`);
    for (const [name, values] of [['positions', positions], ['normals', normals], ['uvs', uvs], ['tangents', tangents]] as const) {
      if (values && !finite(values)) throw new RenderError(`${name} holds a NaN or infinite number.`);
    }
    checkIndices(indices, vertices);
    const lods = checkLods(input, vertices);
    const quantizedPositions = quantizePositions(positions);
    const quantizedUvs = quantizeUvs(uvs ?? new Float32Array(vertices * 2));
    return this.#store({
      positions: quantizedPositions.values,
      positionRange: quantizedPositions.range,
      normals: packSnorm8x4(normals, 3),
      uvs: quantizedUvs.values,
      uvRange: quantizedUvs.range,
      tangents: packSnorm8x4(tangents ?? computeTangents(positions, normals, uvs, indices), 4),
    }, lods, boundingSphere(positions), indices.length);
  }

  /** A mesh quantised offline: checked, then uploaded as it is (tangents derived when missing). */
  addQuantized(input: QuantizedMeshInput): GpuMesh {
    const { positions, positionRange, normals, uvs, uvRange, tangents, indices } = input;
    const vertices = positions.length / 4;
    if (!(positions instanceof Uint16Array) || !Number.isInteger(vertices) || vertices < 1) throw new RenderError(`positions must be a Uint16Array of xyzw quadruples, got ${positions.length} numbers.`);
    if (!(normals instanceof Int8Array) || normals.length !== vertices * 4) throw new RenderError(`normals must be an Int8Array of ${vertices * 4} numbers (snorm8 xyzw per vertex), got ${normals.length}.`);
    if (uvs !== undefined && (!(uvs instanceof Uint16Array) || uvs.length !== vertices * 2)) throw new RenderError(`uvs must be a Uint16Array of ${vertices * 2} numbers, got ${uvs.length}.`);
    if (tangents !== undefined && (!(tangents instanceof Int8Array) || tangents.length !== vertices * 4)) throw new RenderError(`tangents must be an Int8Array of ${vertices * 4} numbers (snorm8 xyzw per vertex), got ${tangents.length}.`);
    checkRange('positionRange', positionRange);
    if (uvs !== undefined && uvRange === undefined) throw new RenderError('uvs need their uvRange (offset xy, scale zw), as quantizeUvs returns it.');
    if (uvRange !== undefined) checkRange('uvRange', uvRange);
    if (indices.length === 0 || indices.length % 3 !== 0) throw new RenderError(`indices must describe whole triangles, got ${indices.length}.`);
    checkIndices(indices, vertices);
    const lods = checkLods(input, vertices);
    const floats = dequantizePositions(positions, positionRange);
    let packedTangents = tangents;
    if (!packedTangents) {
      const unitNormals = new Float32Array(vertices * 3);
      for (let v = 0; v < vertices; v++) for (let k = 0; k < 3; k++) unitNormals[v * 3 + k] = normals[v * 4 + k]! / 127;
      packedTangents = packSnorm8x4(computeTangents(floats, unitNormals, uvs && uvRange ? dequantizeUvs(uvs, uvRange) : undefined, indices), 4);
    }
    return this.#store({
      positions,
      positionRange,
      normals,
      uvs: uvs ?? new Uint16Array(vertices * 2),
      uvRange: uvRange ?? [0, 0, 1, 1],
      tangents: packedTangents,
    }, lods, boundingSphere(floats), indices.length);
  }

  #store(vertices: StoredVertices, lods: { indices: Uint16Array | Uint32Array; levels: MeshLod[] }, sphere: { center: [number, number, number]; radius: number }, indexCount: number): GpuMesh {
    const id = this.#meshes.length;
    const v = this.#vertices;
    const mesh: GpuMesh = {
      id,
      positions: v.upload(vertices.positions, `mesh${id}.positions`),
      normals: v.upload(vertices.normals, `mesh${id}.normals`),
      uvs: v.upload(vertices.uvs, `mesh${id}.uvs`),
      tangents: v.upload(vertices.tangents, `mesh${id}.tangents`),
      indices: this.#indices.upload(lods.indices, `mesh${id}.indices`),
      indexFormat: lods.indices instanceof Uint16Array ? 'uint16' : 'uint32',
      indexCount,
      lods: lods.levels,
      center: sphere.center,
      radius: sphere.radius,
      positionRange: vertices.positionRange,
      uvRange: vertices.uvRange,
    };
    this.#meshes.push(mesh);
    return mesh;
  }

  /** Gives every mesh's ranges back (buffers of their own are destroyed). */
  destroy(): void {
    for (const mesh of this.#meshes) {
      for (const range of [mesh.positions, mesh.normals, mesh.uvs, mesh.tangents]) this.#vertices.free(range);
      this.#indices.free(mesh.indices);
    }
    this.#meshes.length = 0;
  }
}

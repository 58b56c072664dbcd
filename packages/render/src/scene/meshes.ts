// Meshes on the GPU: one vertex buffer per attribute (position, normal, uv, tangent) and an
// index buffer, so the depth-only and shadow passes bind positions alone. Missing uvs become
// zeros; missing tangents are derived from the uvs per triangle (or any perpendicular).
import type { MeshInput } from '../api.ts';
import { RenderError } from '../errors.ts';

export interface GpuMesh {
  readonly id: number;
  readonly positions: GPUBuffer;
  readonly normals: GPUBuffer;
  readonly uvs: GPUBuffer;
  readonly tangents: GPUBuffer;
  readonly indices: GPUBuffer;
  readonly indexFormat: GPUIndexFormat;
  readonly indexCount: number;
  /** Object-space bounding sphere (transparent sorting, shadow fitting). */
  readonly center: readonly [number, number, number];
  readonly radius: number;
}

function finite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
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

export class MeshStore {
  readonly #device: GPUDevice;
  readonly #meshes: GpuMesh[] = [];

  constructor(device: GPUDevice) {
    this.#device = device;
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
    for (let i = 0; i < indices.length; i++) {
      if (indices[i]! >= vertices) throw new RenderError(`index ${indices[i]} at ${i} is past the last vertex (${vertices - 1}).`);
    }
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
    const buffer = (data: ArrayBufferView, usage: GPUBufferUsageFlags, label: string): GPUBuffer => {
      const size = Math.max(4, Math.ceil(data.byteLength / 4) * 4);
      const created = this.#device.createBuffer({ label: `cuttle.render.${label}`, size, usage: usage | GPUBufferUsage.COPY_DST, mappedAtCreation: true });
      new Uint8Array(created.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      created.unmap();
      return created;
    };
    const id = this.#meshes.length;
    const mesh: GpuMesh = {
      id,
      positions: buffer(positions, GPUBufferUsage.VERTEX, `mesh${id}.positions`),
      normals: buffer(normals, GPUBufferUsage.VERTEX, `mesh${id}.normals`),
      uvs: buffer(uvs ?? new Float32Array(vertices * 2), GPUBufferUsage.VERTEX, `mesh${id}.uvs`),
      tangents: buffer(tangents ?? computeTangents(positions, normals, uvs, indices), GPUBufferUsage.VERTEX, `mesh${id}.tangents`),
      indices: buffer(indices, GPUBufferUsage.INDEX, `mesh${id}.indices`),
      indexFormat: indices instanceof Uint16Array ? 'uint16' : 'uint32',
      indexCount: indices.length,
      center,
      radius,
    };
    this.#meshes.push(mesh);
    return mesh;
  }

  destroy(): void {
    for (const mesh of this.#meshes) for (const b of [mesh.positions, mesh.normals, mesh.uvs, mesh.tangents, mesh.indices]) b.destroy();
    this.#meshes.length = 0;
  }
}

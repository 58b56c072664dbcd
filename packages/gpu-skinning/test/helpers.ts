// Shared by the GPU tests: reproducible random meshes and palettes, and the comparison of GPU
// output with the reference's.
import { expect } from 'vitest';
import { buildSkinnedVertices, type SkinnedOutput, type SkinnedVertices, type VertexFormat } from '../src/index.ts';
import { bitsFloat } from '../src/codec.ts';

/** xorshift32 in [0, 1). */
export function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** A mesh of `vertexCount` vertices over `boneCount` bones with 1 to 4 influences each (some with 6, trimmed). */
export function randomMesh(format: VertexFormat, vertexCount: number, boneCount: number, seed: number): SkinnedVertices {
  const next = random(seed);
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const tangents = new Float32Array(vertexCount * 4);
  const wind = new Float32Array(vertexCount);
  const joints = new Uint16Array(vertexCount * 6);
  const weights = new Float32Array(vertexCount * 6);
  for (let v = 0; v < vertexCount; v++) {
    for (let c = 0; c < 3; c++) positions[v * 3 + c] = (next() - 0.5) * 4;
    const n = [next() - 0.5, next() - 0.5, next() - 0.5 + 0.01];
    const nl = Math.hypot(n[0]!, n[1]!, n[2]!);
    for (let c = 0; c < 3; c++) normals[v * 3 + c] = n[c]! / nl;
    // Any unit vector will do for a tangent here.
    tangents.set([n[1]! / nl, -n[0]! / nl, 0, next() < 0.5 ? -1 : 1], v * 4);
    if (Math.hypot(tangents[v * 4]!, tangents[v * 4 + 1]!) < 1e-3) tangents.set([1, 0, 0], v * 4);
    else {
      const tl = Math.hypot(tangents[v * 4]!, tangents[v * 4 + 1]!);
      tangents[v * 4]! /= tl;
      tangents[v * 4 + 1]! /= tl;
    }
    wind[v] = next();
    const influences = v % 7 === 0 ? 6 : 1 + Math.floor(next() * 4);
    for (let i = 0; i < influences; i++) {
      joints[v * 6 + i] = Math.floor(next() * boneCount);
      weights[v * 6 + i] = 0.05 + next();
    }
  }
  return buildSkinnedVertices({ positions, normals, tangents, wind, joints, weights, influencesPerVertex: 6 }, { format, paletteSize: boneCount }).vertices;
}

/** `boneCount` random rigid-ish bones (rotation, mild scale, translation) as 3x4 rows. */
export function randomBones(boneCount: number, seed: number, shift = 0): Float32Array {
  const next = random(seed);
  const out = new Float32Array(boneCount * 12);
  for (let b = 0; b < boneCount; b++) {
    let qx = next() - 0.5, qy = next() - 0.5, qz = next() - 0.5, qw = next() - 0.5;
    const ql = Math.hypot(qx, qy, qz, qw);
    qx /= ql; qy /= ql; qz /= ql; qw /= ql;
    const s = 0.8 + 0.4 * next();
    const rows = [
      [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
      [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
      [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)],
    ];
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) out[b * 12 + r * 4 + c] = rows[r]![c]! * s;
      out[b * 12 + r * 4 + 3] = (next() - 0.5) * 10 + shift;
    }
  }
  return out;
}

/** Largest differences between GPU and reference output, per quantity. */
export interface OutputDifference {
  /** max |gpu - ref| / (1 + |ref|) over positions. */
  positions: number;
  previous: number;
  /** Packed: the largest byte difference of normals and tangents (snorm8 steps); f32: max |gpu - ref|. */
  normals: number;
}

function snormStep(a: number, b: number): number {
  let worst = 0;
  for (let lane = 0; lane < 4; lane++) {
    const x = (a >>> (lane * 8)) & 0xff, y = (b >>> (lane * 8)) & 0xff;
    worst = Math.max(worst, Math.abs(((x << 24) >> 24) - ((y << 24) >> 24)));
  }
  return worst;
}

export function compareOutputs(gpu: SkinnedOutput, ref: SkinnedOutput, vertexCount: number): OutputDifference {
  const d: OutputDifference = { positions: 0, previous: 0, normals: 0 };
  const rel = (a: number, b: number): number => (Number.isFinite(a) ? Math.abs(a - b) / (1 + Math.abs(b)) : Number.POSITIVE_INFINITY);
  for (let v = 0; v < vertexCount; v++) {
    for (let c = 0; c < 3; c++) d.previous = Math.max(d.previous, rel(gpu.previous[v * 3 + c]!, ref.previous[v * 3 + c]!));
    if (gpu.format === 'packed' && ref.format === 'packed') {
      for (let c = 0; c < 3; c++) d.positions = Math.max(d.positions, rel(bitsFloat(gpu.positionNormal[v * 4 + c]!), bitsFloat(ref.positionNormal[v * 4 + c]!)));
      d.normals = Math.max(d.normals, snormStep(gpu.positionNormal[v * 4 + 3]!, ref.positionNormal[v * 4 + 3]!), snormStep(gpu.tangent[v]!, ref.tangent[v]!));
    } else if (gpu.format === 'f32' && ref.format === 'f32') {
      for (let c = 0; c < 3; c++) d.positions = Math.max(d.positions, rel(gpu.vertices[v * 12 + c]!, ref.vertices[v * 12 + c]!));
      for (let c = 3; c < 12; c++) if (c !== 3 && c !== 7 && c !== 11) d.normals = Math.max(d.normals, Math.abs(gpu.vertices[v * 12 + c]! - ref.vertices[v * 12 + c]!));
      // Wind and handedness pass through untouched.
      for (const c of [3, 7, 11]) if (gpu.vertices[v * 12 + c] !== ref.vertices[v * 12 + c]) d.normals = Number.POSITIVE_INFINITY;
    }
  }
  return d;
}

/** Tolerances the GPU tests hold both kernels to. */
export const TOLERANCE = { positions: 2e-5, previous: 2e-5, packedNormalSteps: 1, f32Normals: 2e-5 };

export function expectMatches(gpu: SkinnedOutput, ref: SkinnedOutput, vertexCount: number, what: string): void {
  const d = compareOutputs(gpu, ref, vertexCount);
  expect(d.positions, `${what}: positions`).toBeLessThanOrEqual(TOLERANCE.positions);
  expect(d.previous, `${what}: previous positions`).toBeLessThanOrEqual(TOLERANCE.previous);
  expect(d.normals, `${what}: normals and tangents`).toBeLessThanOrEqual(gpu.format === 'packed' ? TOLERANCE.packedNormalSteps : TOLERANCE.f32Normals);
}

// The skinning kernel in plain TypeScript, vertex by vertex as the WGSL does it: decode, the
// dynamic loop over at most four influences that stops once the weights read sum to one,
// normalize, encode, and the previous position taken from the output before it is
// overwritten. The GPU tests compare the kernels with this on the same bytes.
import {
  BONE_FLOATS,
  F32_SKINNED_WORDS,
  F32_VERTEX_WORDS,
  MAX_INFLUENCES,
  PACKED_BONES_WORDS,
  PACKED_POSITION_NORMAL_WORDS,
  PREVIOUS_POSITION_FLOATS,
  type F32SkinnedOutput,
  type F32Vertices,
  type PackedSkinnedOutput,
  type PackedVertices,
  type SkinMode,
  type SkinnedOutput,
  type SkinnedVertices,
} from '../api.ts';
import { bitsFloat, floatBits, packSnorm8x4, unpackSnorm8 } from '../codec.ts';
import { GpuSkinningError } from '../errors.ts';

/** One row of the dispatch table: which vertices, which bones, where the result goes. */
export interface InstanceRange {
  /** First vertex of the mesh in the input streams. */
  sourceVertex: number;
  /** Vertices to skin. */
  vertexCount: number;
  /** First bone of the instance's palette in the palette buffer. */
  paletteOffset: number;
  /** First vertex of the instance in the output streams. */
  outputVertex: number;
}

/** Scratch for one vertex: position, normal, tangent accumulators and the decoded influences. */
interface VertexScratch {
  p: Float64Array;
  n: Float64Array;
  t: Float64Array;
  joints: Uint32Array;
  weights: Float64Array;
}

function scratch(): VertexScratch {
  return { p: new Float64Array(3), n: new Float64Array(3), t: new Float64Array(4), joints: new Uint32Array(4), weights: new Float64Array(4) };
}

/**
 * Blends position `p`, normal `n` and tangent `t` (in place) by the influences in `s`, reading
 * bone `joint` at `palette[(paletteOffset + joint) * 12]`. `sums[i]` is the weight read before
 * influence i: the loop stops at the first i where it has reached one. Returns false for a
 * vertex with no weight (left as it is).
 */
function blend(s: VertexScratch, palette: Float32Array, paletteOffset: number, sums: Float64Array): boolean {
  const { p, n, t, joints, weights } = s;
  if (weights[0] === 0 && weights[1] === 0 && weights[2] === 0 && weights[3] === 0) return false;
  let px = 0, py = 0, pz = 0, nx = 0, ny = 0, nz = 0, tx = 0, ty = 0, tz = 0;
  for (let i = 0; i < MAX_INFLUENCES && sums[i]! < 1; i++) {
    const w = weights[i]!;
    const m = (paletteOffset + joints[i]!) * BONE_FLOATS;
    const m00 = palette[m]!, m01 = palette[m + 1]!, m02 = palette[m + 2]!, m03 = palette[m + 3]!;
    const m10 = palette[m + 4]!, m11 = palette[m + 5]!, m12 = palette[m + 6]!, m13 = palette[m + 7]!;
    const m20 = palette[m + 8]!, m21 = palette[m + 9]!, m22 = palette[m + 10]!, m23 = palette[m + 11]!;
    px += w * (m00 * p[0]! + m01 * p[1]! + m02 * p[2]! + m03);
    py += w * (m10 * p[0]! + m11 * p[1]! + m12 * p[2]! + m13);
    pz += w * (m20 * p[0]! + m21 * p[1]! + m22 * p[2]! + m23);
    nx += w * (m00 * n[0]! + m01 * n[1]! + m02 * n[2]!);
    ny += w * (m10 * n[0]! + m11 * n[1]! + m12 * n[2]!);
    nz += w * (m20 * n[0]! + m21 * n[1]! + m22 * n[2]!);
    tx += w * (m00 * t[0]! + m01 * t[1]! + m02 * t[2]!);
    ty += w * (m10 * t[0]! + m11 * t[1]! + m12 * t[2]!);
    tz += w * (m20 * t[0]! + m21 * t[1]! + m22 * t[2]!);
  }
  p[0] = px; p[1] = py; p[2] = pz;
  const nl = Math.hypot(nx, ny, nz);
  if (nl > 0) { n[0] = nx / nl; n[1] = ny / nl; n[2] = nz / nl; }
  const tl = Math.hypot(tx, ty, tz);
  if (tl > 0) { t[0] = tx / tl; t[1] = ty / tl; t[2] = tz / tl; }
  return true;
}

function setPrevious(previous: Float32Array, vertex: number, x: number, y: number, z: number): void {
  previous[vertex * 3] = x;
  previous[vertex * 3 + 1] = y;
  previous[vertex * 3 + 2] = z;
}

function checkRange(vertices: SkinnedVertices, palette: Float32Array, instance: InstanceRange, outputVertices: number, bonesNeeded: number): void {
  const { sourceVertex, vertexCount, paletteOffset, outputVertex } = instance;
  if (sourceVertex + vertexCount > vertices.vertexCount) throw new GpuSkinningError(`instance reads vertices ${sourceVertex}..${sourceVertex + vertexCount} of a mesh with ${vertices.vertexCount}.`);
  if (outputVertex + vertexCount > outputVertices) throw new GpuSkinningError(`instance writes vertices ${outputVertex}..${outputVertex + vertexCount} of an output with ${outputVertices}.`);
  if ((paletteOffset + bonesNeeded) * BONE_FLOATS > palette.length) throw new GpuSkinningError(`instance needs bones ${paletteOffset}..${paletteOffset + bonesNeeded} of a palette of ${palette.length / BONE_FLOATS}.`);
}

/** A fresh host output for `vertexCount` vertices in `format`, zero-filled. */
export function createSkinnedOutput(format: 'packed', vertexCount: number): PackedSkinnedOutput;
/** A fresh host output for `vertexCount` vertices in the `'f32'` format, zero-filled. */
export function createSkinnedOutput(format: 'f32', vertexCount: number): F32SkinnedOutput;
/** A fresh host output for `vertexCount` vertices in `format`, zero-filled. */
export function createSkinnedOutput(format: SkinnedVertices['format'], vertexCount: number): SkinnedOutput;
export function createSkinnedOutput(format: SkinnedVertices['format'], vertexCount: number): SkinnedOutput {
  const previous = new Float32Array(vertexCount * PREVIOUS_POSITION_FLOATS);
  if (format === 'packed') return { format, positionNormal: new Uint32Array(vertexCount * PACKED_POSITION_NORMAL_WORDS), tangent: new Uint32Array(vertexCount), previous };
  return { format, vertices: new Float32Array(vertexCount * F32_SKINNED_WORDS), previous };
}

/**
 * Skins one instance on the host exactly as one kernel dispatch would: `mode` 'skin' moves the
 * output's position into `previous` and writes the new vertex, 'reset' writes the new vertex
 * and sets previous to it, 'hold' only copies the output's position into `previous`.
 */
export function skinInstanceReference(vertices: SkinnedVertices, palette: Float32Array, instance: InstanceRange, output: SkinnedOutput, mode: SkinMode): void {
  if (vertices.format !== output.format) throw new GpuSkinningError(`vertices are ${vertices.format} but the output is ${output.format}.`);
  if (vertices.format === 'packed') skinPacked(vertices, palette, instance, output as PackedSkinnedOutput, mode);
  else skinF32(vertices, palette, instance, output as F32SkinnedOutput, mode);
}

function skinPacked(vertices: PackedVertices, palette: Float32Array, instance: InstanceRange, output: PackedSkinnedOutput, mode: SkinMode): void {
  checkRange(vertices, palette, instance, output.tangent.length, mode === 'hold' ? 0 : vertices.bonesUsed);
  const s = scratch();
  const sums = new Float64Array(MAX_INFLUENCES);
  const { positionNormal, tangent, bones } = vertices;
  for (let k = 0; k < instance.vertexCount; k++) {
    const v = instance.sourceVertex + k;
    const o = instance.outputVertex + k;
    const op = o * PACKED_POSITION_NORMAL_WORDS;
    const oldX = bitsFloat(output.positionNormal[op]!), oldY = bitsFloat(output.positionNormal[op + 1]!), oldZ = bitsFloat(output.positionNormal[op + 2]!);
    if (mode === 'hold') {
      setPrevious(output.previous, o, oldX, oldY, oldZ);
      continue;
    }
    const ip = v * PACKED_POSITION_NORMAL_WORDS;
    s.p[0] = bitsFloat(positionNormal[ip]!); s.p[1] = bitsFloat(positionNormal[ip + 1]!); s.p[2] = bitsFloat(positionNormal[ip + 2]!);
    const normalWord = positionNormal[ip + 3]!;
    for (let c = 0; c < 3; c++) s.n[c] = unpackSnorm8(normalWord, c);
    const wind = unpackSnorm8(normalWord, 3);
    const tangentWord = tangent[v]!;
    for (let c = 0; c < 4; c++) s.t[c] = unpackSnorm8(tangentWord, c);
    const b = v * PACKED_BONES_WORDS;
    s.joints[0] = bones[b]! & 0xffff; s.joints[1] = bones[b]! >>> 16; s.joints[2] = bones[b + 1]! & 0xffff; s.joints[3] = bones[b + 1]! >>> 16;
    // The packed kernel sums the integer weights: the loop stops once 65535 units are read.
    let units = 0;
    for (let i = 0; i < MAX_INFLUENCES; i++) {
      const q = (bones[b + 2 + (i >> 1)]! >>> ((i & 1) * 16)) & 0xffff;
      s.weights[i] = Math.fround(q / 65535);
      sums[i] = units >= 65535 ? 1 : 0;
      units += q;
    }
    blend(s, palette, instance.paletteOffset, sums);
    const x = Math.fround(s.p[0]), y = Math.fround(s.p[1]), z = Math.fround(s.p[2]);
    if (mode === 'reset') setPrevious(output.previous, o, x, y, z);
    else setPrevious(output.previous, o, oldX, oldY, oldZ);
    output.positionNormal[op] = floatBits(x);
    output.positionNormal[op + 1] = floatBits(y);
    output.positionNormal[op + 2] = floatBits(z);
    output.positionNormal[op + 3] = packSnorm8x4(s.n[0]!, s.n[1]!, s.n[2]!, wind);
    output.tangent[o] = packSnorm8x4(s.t[0]!, s.t[1]!, s.t[2]!, s.t[3]!);
  }
}

function skinF32(vertices: F32Vertices, palette: Float32Array, instance: InstanceRange, output: F32SkinnedOutput, mode: SkinMode): void {
  checkRange(vertices, palette, instance, output.vertices.length / F32_SKINNED_WORDS, mode === 'hold' ? 0 : vertices.bonesUsed);
  const s = scratch();
  const sums = new Float64Array(MAX_INFLUENCES);
  const { floats, words } = vertices;
  const out = output.vertices;
  for (let k = 0; k < instance.vertexCount; k++) {
    const v = instance.sourceVertex + k;
    const o = instance.outputVertex + k;
    const op = o * F32_SKINNED_WORDS;
    const oldX = out[op]!, oldY = out[op + 1]!, oldZ = out[op + 2]!;
    if (mode === 'hold') {
      setPrevious(output.previous, o, oldX, oldY, oldZ);
      continue;
    }
    const i0 = v * F32_VERTEX_WORDS;
    for (let c = 0; c < 3; c++) { s.p[c] = floats[i0 + c]!; s.n[c] = floats[i0 + 4 + c]!; }
    for (let c = 0; c < 4; c++) { s.t[c] = floats[i0 + 8 + c]!; s.joints[c] = words[i0 + 12 + c]!; s.weights[c] = floats[i0 + 16 + c]!; }
    // The f32 kernel sums the weights in f32 as it goes, like the post's `weisum < 1`.
    let sum = 0;
    for (let i = 0; i < MAX_INFLUENCES; i++) {
      sums[i] = sum;
      sum = Math.fround(sum + s.weights[i]!);
    }
    blend(s, palette, instance.paletteOffset, sums);
    const x = Math.fround(s.p[0]!), y = Math.fround(s.p[1]!), z = Math.fround(s.p[2]!);
    if (mode === 'reset') setPrevious(output.previous, o, x, y, z);
    else setPrevious(output.previous, o, oldX, oldY, oldZ);
    out[op] = x; out[op + 1] = y; out[op + 2] = z; out[op + 3] = floats[i0 + 3]!;
    out[op + 4] = s.n[0]!; out[op + 5] = s.n[1]!; out[op + 6] = s.n[2]!; out[op + 7] = floats[i0 + 3]!;
    out[op + 8] = s.t[0]!; out[op + 9] = s.t[1]!; out[op + 10] = s.t[2]!; out[op + 11] = s.t[3]!;
  }
}

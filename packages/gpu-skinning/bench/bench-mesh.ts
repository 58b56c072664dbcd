// The benchmark's vertex data: a 64-bone synthetic mesh with a real mesh's locality (runs of
// 64 consecutive vertices share a neighbourhood of bones; 1 to 4 influences, 2.5 on average),
// built once as a block and tiled to any size, so every instance reads its own memory.
import { buildSkinnedVertices, type F32Vertices, type PackedVertices, type SkinnedVertices, type VertexFormat } from '../src/index.ts';

export const BENCH_BONES = 64;
const BLOCK = 1 << 16;

function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function block(format: VertexFormat): SkinnedVertices {
  const next = xorshift(12345);
  const positions = new Float32Array(BLOCK * 3);
  const normals = new Float32Array(BLOCK * 3);
  const joints = new Uint16Array(BLOCK * 4);
  const weights = new Float32Array(BLOCK * 4);
  for (let v = 0; v < BLOCK; v++) {
    const n = [next() - 0.5, next() - 0.5, next() - 0.5 + 1e-3];
    const length = Math.hypot(n[0]!, n[1]!, n[2]!);
    for (let c = 0; c < 3; c++) {
      positions[v * 3 + c] = (next() - 0.5) * 2;
      normals[v * 3 + c] = n[c]! / length;
    }
    const centre = Math.floor(v / 64) % BENCH_BONES;
    const influences = 1 + (v % 4);
    for (let i = 0; i < influences; i++) {
      joints[v * 4 + i] = (centre + i) % BENCH_BONES;
      weights[v * 4 + i] = 0.1 + next();
    }
  }
  return buildSkinnedVertices({ positions, normals, joints, weights }, { format, paletteSize: BENCH_BONES }).vertices;
}

function tile<T extends Uint32Array<ArrayBuffer> | Float32Array<ArrayBuffer>>(source: T, perVertex: number, count: number, make: (length: number) => T): T {
  const out = make(count * perVertex);
  for (let at = 0; at < count; at += BLOCK) out.set(source.subarray(0, Math.min(BLOCK, count - at) * perVertex), at * perVertex);
  return out;
}

/** `count` vertices of the bench mesh in `format`. */
export function benchVertices(format: VertexFormat, count: number): SkinnedVertices {
  const base = block(format);
  if (base.format === 'packed') {
    return {
      format: 'packed',
      vertexCount: count,
      bonesUsed: base.bonesUsed,
      positionNormal: tile(base.positionNormal, 4, count, (n) => new Uint32Array(n)),
      tangent: tile(base.tangent, 1, count, (n) => new Uint32Array(n)),
      bones: tile(base.bones, 4, count, (n) => new Uint32Array(n)),
    };
  }
  const floats = tile(base.floats, 20, count, (n) => new Float32Array(n));
  return { format: 'f32', vertexCount: count, bonesUsed: base.bonesUsed, floats, words: new Uint32Array(floats.buffer) };
}

/** Vertices `first .. first + count` of `vertices`, as a mesh of their own (views, no copy). */
export function sliceVertices(vertices: SkinnedVertices, first: number, count: number): SkinnedVertices {
  if (vertices.format === 'packed') {
    const v: PackedVertices = vertices;
    return { ...v, vertexCount: count, positionNormal: v.positionNormal.subarray(first * 4, (first + count) * 4), tangent: v.tangent.subarray(first, first + count), bones: v.bones.subarray(first * 4, (first + count) * 4) };
  }
  const v: F32Vertices = vertices;
  return { ...v, vertexCount: count, floats: v.floats.subarray(first * 20, (first + count) * 20), words: v.words.subarray(first * 20, (first + count) * 20) };
}

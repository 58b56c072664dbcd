// Bit-exact host versions of WGSL's pack4x8snorm / unpack4x8snorm and the f32 bit casts: the
// builders encode with them and the references decode with them, so host and GPU agree on
// every byte.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function floatBits(value: number): number {
  f32[0] = value;
  return u32[0]!;
}

export function bitsFloat(word: number): number {
  u32[0] = word;
  return f32[0]!;
}

/** One snorm8 byte as WGSL's pack4x8snorm writes it: floor(0.5 + 127 clamp(v, -1, 1)). */
export function snorm8(value: number): number {
  const clamped = Math.min(1, Math.max(-1, value));
  return Math.floor(0.5 + 127 * clamped) & 0xff;
}

/** Four values packed as snorm8x4, x in the low byte. */
export function packSnorm8x4(x: number, y: number, z: number, w: number): number {
  return (snorm8(x) | (snorm8(y) << 8) | (snorm8(z) << 16) | (snorm8(w) << 24)) >>> 0;
}

/** Component `lane` (0..3) of a snorm8x4 word, as unpack4x8snorm returns it: max(b / 127, -1). */
export function unpackSnorm8(word: number, lane: number): number {
  const byte = (word >>> (lane * 8)) & 0xff;
  const signed = byte >= 128 ? byte - 256 : byte;
  return Math.max(signed / 127, -1);
}

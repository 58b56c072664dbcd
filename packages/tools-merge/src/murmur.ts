// Murmur hashes as BitSquid used them for static string ids: the 32-bit MurmurHash2 and the
// 64-bit MurmurHash64A, both by Austin Appleby (public domain), over the UTF-8 bytes of a string.
// 64-bit arithmetic runs on pairs of u32 with Math.imul and 16-bit partial products, so the hot
// loop allocates nothing; the BigInt form is only built at the edge.
import { ToolsMergeError } from './errors.ts';

const encoder = new TextEncoder();
const M32 = 0x5bd1e995;

function bytesOf(input: string | Uint8Array): Uint8Array {
  if (typeof input === 'string') return encoder.encode(input);
  if (input instanceof Uint8Array) return input;
  throw new ToolsMergeError(`expected a string or a Uint8Array to hash, got ${typeof input}`);
}

function checkSeed32(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new ToolsMergeError(`seed must be a u32, got ${seed}`);
}

/** 32-bit MurmurHash2 of the UTF-8 bytes of `input` (or of the bytes given). */
export function murmurHash2(input: string | Uint8Array, seed = 0): number {
  checkSeed32(seed);
  const data = bytesOf(input);
  const len = data.length;
  let h = (seed ^ len) >>> 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M32);
    k ^= k >>> 24;
    k = Math.imul(k, M32);
    h = Math.imul(h, M32) ^ k;
  }
  // The reference's fall-through switch over the 1 to 3 trailing bytes.
  const rest = len & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[i + 2]! << 16;
    if (rest >= 2) h ^= data[i + 1]! << 8;
    h ^= data[i]!;
    h = Math.imul(h, M32);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M32);
  h ^= h >>> 15;
  return h >>> 0;
}

// 0xc6a4a7935bd1e995 as two halves.
const MH = 0xc6a4a793;
const ML = 0x5bd1e995;

// Scratch result of mul64: the product's halves (module state, never escapes).
let rh = 0;
let rl = 0;

/** (ah:al) * (bh:bl) mod 2^64 into rh:rl. */
function mul64(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  rl = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const high = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  rh = (high + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/**
 * MurmurHash64A into `out` as `[high, low]` u32 halves: the allocation-free form. The seed is
 * given as two u32 halves too.
 */
export function murmurHash64AInto(input: string | Uint8Array, out: Uint32Array, seedHigh = 0, seedLow = 0): Uint32Array {
  checkSeed32(seedHigh);
  checkSeed32(seedLow);
  if (!(out instanceof Uint32Array) || out.length < 2) throw new ToolsMergeError('out must be a Uint32Array of length 2 or more');
  const data = bytesOf(input);
  const len = data.length;
  // h = seed ^ (len * m)
  mul64(0, len, MH, ML);
  let hh = (seedHigh ^ rh) >>> 0;
  let hl = (seedLow ^ rl) >>> 0;
  let i = 0;
  for (; i + 8 <= len; i += 8) {
    let kl = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) >>> 0;
    let kh = (data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24)) >>> 0;
    mul64(kh, kl, MH, ML);
    kh = rh;
    kl = rl;
    kl = (kl ^ (kh >>> 15)) >>> 0; // k ^= k >> 47
    mul64(kh, kl, MH, ML);
    hh = (hh ^ rh) >>> 0;
    hl = (hl ^ rl) >>> 0;
    mul64(hh, hl, MH, ML);
    hh = rh;
    hl = rl;
  }
  const tail = len & 7;
  if (tail > 0) {
    for (let j = tail - 1; j >= 0; j--) {
      const byte = data[i + j]!;
      if (j >= 4) hh = (hh ^ (byte << ((j - 4) * 8))) >>> 0;
      else hl = (hl ^ (byte << (j * 8))) >>> 0;
    }
    mul64(hh, hl, MH, ML);
    hh = rh;
    hl = rl;
  }
  hl = (hl ^ (hh >>> 15)) >>> 0;
  mul64(hh, hl, MH, ML);
  hh = rh;
  hl = rl;
  hl = (hl ^ (hh >>> 15)) >>> 0;
  out[0] = hh;
  out[1] = hl;
  return out;
}

const scratch = new Uint32Array(2);

/** 64-bit MurmurHash64A of the UTF-8 bytes of `input`, as a BigInt. */
export function murmurHash64A(input: string | Uint8Array, seed = 0n): bigint {
  if (typeof seed !== 'bigint' || seed < 0n || seed > 0xffffffffffffffffn) throw new ToolsMergeError(`seed must be a u64 BigInt, got ${String(seed)}`);
  murmurHash64AInto(input, scratch, Number(seed >> 32n), Number(seed & 0xffffffffn));
  return (BigInt(scratch[0]!) << 32n) | BigInt(scratch[1]!);
}

/** `0x`-prefixed lower-case hex of a hash, padded to its width (8 or 16 digits). */
export function hashHex(value: number | bigint): string {
  return typeof value === 'bigint' ? `0x${value.toString(16).padStart(16, '0')}` : `0x${(value >>> 0).toString(16).padStart(8, '0')}`;
}

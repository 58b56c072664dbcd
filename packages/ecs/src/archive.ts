import { INVALID_ENTITY, type Entity, type TypedArray } from './api.ts';
import type { EntityLookup } from './entity-lookup.ts';
import { remapEntity } from './entity.ts';
import { ArchiveError, SeedMapsToZeroError } from './errors.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Little-endian binary output that grows geometrically. Object component serializers get one
 * to write their fields; `entity()` is the post's SerializeEntity on the way out.
 */
export class ArchiveWriter {
  #bytes = new Uint8Array(256);
  #view = new DataView(this.#bytes.buffer);
  #offset = 0;
  /** When saving a subset of entities, references to entities outside it are written as 0. */
  readonly #keep: EntityLookup | null;

  constructor(keep: EntityLookup | null = null) {
    this.#keep = keep;
  }

  /** Bytes written so far. */
  get offset(): number {
    return this.#offset;
  }

  /** Makes room for `bytes` more bytes. */
  reserve(bytes: number): void {
    const needed = this.#offset + bytes;
    if (needed <= this.#bytes.length) return;
    // The first reservation is taken as exact (the saver sizes schema sections up front).
    let size = this.#offset === 0 ? needed : this.#bytes.length * 2;
    while (size < needed) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#bytes.subarray(0, this.#offset));
    this.#bytes = next;
    this.#view = new DataView(next.buffer);
  }

  /** Writes `value` as an unsigned byte (taken modulo 256). */
  u8(value: number): void {
    this.reserve(1);
    this.#view.setUint8(this.#offset, value);
    this.#offset += 1;
  }

  /** Writes `value` as a little-endian unsigned 16-bit integer. */
  u16(value: number): void {
    this.reserve(2);
    this.#view.setUint16(this.#offset, value, true);
    this.#offset += 2;
  }

  /** Writes `value` as a little-endian unsigned 32-bit integer. */
  u32(value: number): void {
    this.reserve(4);
    this.#view.setUint32(this.#offset, value, true);
    this.#offset += 4;
  }

  /** Writes `value` as a little-endian signed 32-bit integer. */
  i32(value: number): void {
    this.reserve(4);
    this.#view.setInt32(this.#offset, value, true);
    this.#offset += 4;
  }

  /** Writes `value` as a little-endian 32-bit float (rounded). */
  f32(value: number): void {
    this.reserve(4);
    this.#view.setFloat32(this.#offset, value, true);
    this.#offset += 4;
  }

  /** Writes `value` as a little-endian 64-bit float. */
  f64(value: number): void {
    this.reserve(8);
    this.#view.setFloat64(this.#offset, value, true);
    this.#offset += 8;
  }

  /** A UTF-8 string with a u32 byte length in front. */
  string(value: string): void {
    const bytes = encoder.encode(value);
    this.u32(bytes.length);
    this.reserve(bytes.length);
    this.#bytes.set(bytes, this.#offset);
    this.#offset += bytes.length;
  }

  /** An entity reference (0 when it points outside the saved subset). */
  entity(entity: Entity): void {
    this.u32(this.#keep !== null && this.#keep.get(entity) === -1 ? INVALID_ENTITY : entity);
  }

  /** Raw bytes of a typed array (platform order, which is little-endian everywhere JS runs). */
  array(values: TypedArray): void {
    this.reserve(values.byteLength);
    this.#bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), this.#offset);
    this.#offset += values.byteLength;
  }

  /** Pads with zeros to a multiple of 8 so typed arrays can be viewed in place on load. */
  align(): void {
    const pad = (8 - (this.#offset & 7)) & 7;
    this.reserve(pad);
    this.#bytes.fill(0, this.#offset, this.#offset + pad);
    this.#offset += pad;
  }

  /** Writes a u32 at an earlier position (section lengths). */
  patchU32(at: number, value: number): void {
    this.#view.setUint32(at, value, true);
  }

  /** The bytes written so far, copied into an ArrayBuffer of exactly that size. */
  finish(): ArrayBuffer {
    // A writer reserved to the exact size hands its buffer over without a copy.
    if (this.#offset === this.#bytes.byteLength) return this.#bytes.buffer;
    return this.#bytes.buffer.slice(0, this.#offset);
  }

  /** The live byte view (for checksumming before finish). */
  get bytes(): Uint8Array {
    return this.#bytes;
  }
}

/**
 * Bounds-checked little-endian input over one region of an archive: every read past the end
 * throws an ArchiveError. `entity()` applies the load's seed remap, as the post's
 * SerializeEntity does on the way in.
 */
export class ArchiveReader {
  readonly #view: DataView;
  readonly #buffer: ArrayBuffer;
  #offset: number;
  readonly #end: number;
  /** The load's remap seed, applied by `entity()` (0 keeps ids as saved). */
  readonly seed: number;

  constructor(buffer: ArrayBuffer, start: number, end: number, seed: number) {
    this.#buffer = buffer;
    this.#view = new DataView(buffer);
    this.#offset = start;
    this.#end = end;
    this.seed = seed;
  }

  /** Byte offset of the next read in the archive's buffer. */
  get offset(): number {
    return this.#offset;
  }

  /** Byte offset where this reader's region ends; reads past it throw. */
  get end(): number {
    return this.#end;
  }

  #take(bytes: number): number {
    const at = this.#offset;
    if (bytes < 0 || at + bytes > this.#end) throw new ArchiveError(`archive is truncated or corrupted: needed ${bytes} bytes at offset ${at}, region ends at ${this.#end}.`);
    this.#offset = at + bytes;
    return at;
  }

  /** Reads an unsigned byte. Throws an {@link ArchiveError} past the region's end (as every read does). */
  u8(): number {
    return this.#view.getUint8(this.#take(1));
  }

  /** Reads a little-endian unsigned 16-bit integer. */
  u16(): number {
    return this.#view.getUint16(this.#take(2), true);
  }

  /** Reads a little-endian unsigned 32-bit integer. */
  u32(): number {
    return this.#view.getUint32(this.#take(4), true);
  }

  /** Reads a little-endian signed 32-bit integer. */
  i32(): number {
    return this.#view.getInt32(this.#take(4), true);
  }

  /** Reads a little-endian 32-bit float. */
  f32(): number {
    return this.#view.getFloat32(this.#take(4), true);
  }

  /** Reads a little-endian 64-bit float. */
  f64(): number {
    return this.#view.getFloat64(this.#take(8), true);
  }

  /** Reads a string written by `ArchiveWriter.string`: a u32 byte length, then UTF-8. Throws an {@link ArchiveError} for invalid UTF-8. */
  string(): string {
    const length = this.u32();
    const at = this.#take(length);
    try {
      return decoder.decode(new Uint8Array(this.#buffer, at, length));
    } catch {
      throw new ArchiveError(`archive is corrupted: invalid UTF-8 string at offset ${at}.`);
    }
  }

  /** An entity reference, remapped with this load's seed. */
  entity(): Entity {
    const saved = this.u32();
    const entity = remapEntity(saved, this.seed);
    if (entity === INVALID_ENTITY && saved !== INVALID_ENTITY) throw new SeedMapsToZeroError(`seed ${this.seed} maps entity ${saved} to INVALID_ENTITY; load with another seed.`);
    return entity;
  }

  /** Skips `bytes` bytes. */
  skip(bytes: number): void {
    this.#take(bytes);
  }

  /** Skips zero padding up to a multiple of 8. */
  align(): void {
    this.#take((8 - (this.#offset & 7)) & 7);
  }

  /** A byte range of the archive, for in-place typed-array views; advances past it. */
  region(bytes: number): number {
    return this.#take(bytes);
  }

  /** The whole archive's buffer (regions index into it). */
  get buffer(): ArrayBuffer {
    return this.#buffer;
  }
}

/**
 * A 32-bit FNV-style hash over 32-bit words with two interleaved lanes. Each step is a
 * bijection of the running state, so any single corrupted word changes the result.
 */
export function checksumWords(words: Uint32Array): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const n = words.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    a = Math.imul(a ^ words[i]!, 0x01000193);
    b = Math.imul(b ^ words[i + 1]!, 0x85ebca6b);
  }
  if (i < n) a = Math.imul(a ^ words[i]!, 0x01000193);
  // For a fixed lane the combination is a bijection of the other, so one bad word always shows.
  return (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
}

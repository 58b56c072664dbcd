// Job arguments cross threads as descriptors in the record: numbers by value, typed arrays
// as (buffer id, byte offset, length). Each SharedArrayBuffer is sent to the workers once,
// when it is first seen; after that a Dispatch costs no message at all.
import type { JobArgument, SharedTypedArray } from './api.ts';
import { JobsError } from './errors.ts';
import { ARG_INTS, ARG_KIND, MAX_ARGS, R } from './layout.ts';
import type { Scheduler } from './scheduler.ts';

type TypedArrayConstructor = new (buffer: SharedArrayBuffer, byteOffset: number, length: number) => SharedTypedArray;

const TYPED_ARRAYS: readonly TypedArrayConstructor[] = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
];

function typedArrayIndex(value: ArrayBufferView): number {
  for (let i = 0; i < TYPED_ARRAYS.length; i++) {
    if (value instanceof (TYPED_ARRAYS[i] as unknown as typeof Int8Array)) return i;
  }
  return -1;
}

/** Where an encoder gets buffer ids: the pool's thread hands out new ones, a worker only knows some. */
export interface BufferIds {
  /** The id of `buffer`, or -1 when this thread cannot give it one. */
  idOf(buffer: SharedArrayBuffer): number;
  /** What to tell the user when idOf returned -1. */
  readonly unknownHint: string;
}

/** The pool's thread: every new buffer gets the next id and is announced to the workers. */
export class AnnouncingBufferIds implements BufferIds {
  private readonly ids = new WeakMap<SharedArrayBuffer, number>();
  /** Indexed by id (released ones are holes); the main thread decodes with it when it helps. */
  readonly buffers: (SharedArrayBuffer | undefined)[] = [];
  readonly unknownHint = '';

  constructor(private readonly announce: (id: number, buffer: SharedArrayBuffer) => void) {}

  idOf(buffer: SharedArrayBuffer): number {
    let id = this.ids.get(buffer);
    if (id === undefined) {
      id = this.buffers.length;
      this.buffers.push(buffer);
      this.ids.set(buffer, id);
      this.announce(id, buffer);
    }
    return id;
  }

  /** Forgets `buffer`: returns its id, or -1 when it was never announced. Passed again, it gets a new id. */
  forget(buffer: SharedArrayBuffer): number {
    const id = this.ids.get(buffer);
    if (id === undefined) return -1;
    this.ids.delete(buffer);
    this.buffers[id] = undefined;
    return id;
  }
}

/** Validates arguments and encodes them into a record. */
export class ArgumentEncoder {
  constructor(private readonly ids: BufferIds) {}

  /** Throws a JobsError naming the first argument that cannot cross threads. */
  validate(kernel: string, args: readonly unknown[]): void {
    if (args.length > MAX_ARGS) {
      throw new JobsError(`Kernel "${kernel}" got ${args.length} arguments; at most ${MAX_ARGS} fit: pack more into one typed array.`);
    }
    for (let i = 0; i < args.length; i++) {
      const value = args[i];
      if (typeof value === 'number') continue;
      if (value instanceof SharedArrayBuffer) {
        this.checkKnown(kernel, i, value);
        continue;
      }
      if (ArrayBuffer.isView(value) && !(value instanceof DataView) && typedArrayIndex(value) >= 0) {
        if (!(value.buffer instanceof SharedArrayBuffer)) {
          throw new JobsError(
            `Argument ${i} of kernel "${kernel}" is a typed array on a plain ArrayBuffer; workers cannot see it. ` +
              'Allocate it on a SharedArrayBuffer: new Float32Array(new SharedArrayBuffer(n * 4)).',
          );
        }
        this.checkKnown(kernel, i, value.buffer);
        continue;
      }
      throw new JobsError(
        `Argument ${i} of kernel "${kernel}" is ${value === null ? 'null' : typeof value}; jobs take numbers, ` +
          'SharedArrayBuffers and typed arrays on SharedArrayBuffers (closures cannot cross threads).',
      );
    }
  }

  private checkKnown(kernel: string, index: number, buffer: SharedArrayBuffer): void {
    if (this.ids.idOf(buffer) < 0) throw new JobsError(`Argument ${index} of kernel "${kernel}" ${this.ids.unknownHint}`);
  }

  private idOf(buffer: SharedArrayBuffer): number {
    return this.ids.idOf(buffer);
  }

  /** Writes validated `args` into `record` (call before the record is published). */
  encode(scheduler: Scheduler, record: number, args: readonly JobArgument[]): void {
    const i32 = scheduler.i32;
    const base = scheduler.base(record);
    i32[base + R.ARG_COUNT] = args.length;
    for (let i = 0; i < args.length; i++) {
      const value = args[i]!;
      const at = base + R.ARGS + i * ARG_INTS;
      if (typeof value === 'number') {
        i32[at] = ARG_KIND.NUMBER;
        scheduler.f64[record * MAX_ARGS + i] = value;
      } else if (value instanceof SharedArrayBuffer) {
        i32[at] = ARG_KIND.BUFFER;
        i32[at + 1] = this.idOf(value);
      } else {
        i32[at] = ARG_KIND.TYPED_ARRAY + typedArrayIndex(value);
        i32[at + 1] = this.idOf(value.buffer as SharedArrayBuffer);
        i32[at + 2] = value.byteOffset;
        i32[at + 3] = value.length;
      }
    }
  }
}

/**
 * Any thread's side: rebuilds a record's arguments. Views are cached per record generation,
 * so groups of one Dispatch after the first allocate nothing.
 */
export class ArgumentDecoder implements BufferIds {
  readonly buffers: (SharedArrayBuffer | undefined)[] = [];
  private readonly ids = new Map<SharedArrayBuffer, number>();
  readonly unknownHint =
    'views a SharedArrayBuffer this worker has not been given. Tasks created inside a kernel may pass the ' +
    'buffers (or views of the buffers) that reached the worker as job arguments; allocate new ones on the main thread.';
  private readonly cachedSerial: Int32Array;
  private readonly cached: JobArgument[][];

  constructor(capacity: number) {
    this.cachedSerial = new Int32Array(capacity).fill(-1);
    this.cached = Array.from({ length: capacity }, () => new Array<JobArgument>(MAX_ARGS));
  }

  /** Records a buffer the pool announced. */
  addBuffer(id: number, buffer: SharedArrayBuffer): void {
    this.buffers[id] = buffer;
    this.ids.set(buffer, id);
  }

  /** Lets go of a released buffer, and of every view cached over any buffer (a release is rare). */
  dropBuffer(id: number): void {
    const buffer = this.buffers[id];
    if (buffer === undefined) return;
    this.ids.delete(buffer);
    this.buffers[id] = undefined;
    this.cachedSerial.fill(-1);
    for (const args of this.cached) args.fill(0);
  }

  /** The id of a buffer this thread was given, or -1 (a worker cannot announce new ones). */
  idOf(buffer: SharedArrayBuffer): number {
    return this.ids.get(buffer) ?? -1;
  }

  /** The first buffer id `record` needs that this thread has not received yet, or -1. */
  missingBuffer(scheduler: Scheduler, record: number): number {
    const i32 = scheduler.i32;
    const base = scheduler.base(record);
    const count = i32[base + R.ARG_COUNT]!;
    for (let i = 0; i < count; i++) {
      const at = base + R.ARGS + i * ARG_INTS;
      if (i32[at]! >= ARG_KIND.BUFFER && this.buffers[i32[at + 1]!] === undefined) return i32[at + 1]!;
    }
    return -1;
  }

  decode(scheduler: Scheduler, record: number): JobArgument[] {
    const i32 = scheduler.i32;
    const base = scheduler.base(record);
    const serial = i32[base + R.SERIAL]!;
    const out = this.cached[record]!;
    if (this.cachedSerial[record] === serial) return out;
    const count = i32[base + R.ARG_COUNT]!;
    for (let i = 0; i < count; i++) {
      const at = base + R.ARGS + i * ARG_INTS;
      const kind = i32[at]!;
      if (kind === ARG_KIND.NUMBER) out[i] = scheduler.f64[record * MAX_ARGS + i]!;
      else {
        const buffer = this.buffers[i32[at + 1]!];
        if (buffer === undefined) throw new Error(`jobs: buffer ${i32[at + 1]} was never announced to this thread.`);
        if (kind === ARG_KIND.BUFFER) out[i] = buffer;
        else out[i] = new TYPED_ARRAYS[kind - ARG_KIND.TYPED_ARRAY]!(buffer, i32[at + 2]!, i32[at + 3]!);
      }
    }
    out.length = count;
    this.cachedSerial[record] = serial;
    return out;
  }
}

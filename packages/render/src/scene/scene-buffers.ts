// Where a scene's GPU buffers come from. Without allocators every mesh attribute, index list and
// material block is its own GPUBuffer (the default). With them, each is a range of a few large
// GPUBuffers handed out by @cuttle/allocators (a GpuBufferAllocator, or any allocator backed by
// one, such as a ProxyAllocator that names the scene in a memory report), and goes back to its
// allocator when the scene is destroyed.
import { GpuBufferAllocator, type Allocator } from '@cuttle/allocators';
import { RenderError } from '../errors.ts';

/**
 * Allocators a RenderScene takes its buffers from, one per use; each one left out keeps a
 * GPUBuffer per resource. Each must be a GpuBufferAllocator of the scene's device, or an
 * allocator backed by one, whose usage includes the use's flag.
 */
export interface SceneBufferAllocators {
  /** Mesh vertex attributes (positions, normals, uvs, tangents): usage VERTEX. */
  vertices?: Allocator;
  /** Mesh indices: usage INDEX (may be the same allocator as `vertices` if it has both flags). */
  indices?: Allocator;
  /** Material uniform blocks: usage UNIFORM; ranges start at minUniformBufferOffsetAlignment. */
  uniforms?: Allocator;
  /** The scene's instance data (matrices), read as storage: usage STORAGE; ranges start at minStorageBufferOffsetAlignment. */
  instances?: Allocator;
}

/** Options of a {@link RenderScene}. */
export interface RenderSceneOptions {
  /** Allocators to sub-allocate the scene's buffers from, per use; each use left out gets a GPUBuffer per resource. */
  buffers?: SceneBufferAllocators;
}

/** A buffer range: what setVertexBuffer, setIndexBuffer and a bind group entry take. */
export interface BufferRange {
  /** The GPUBuffer holding the range. */
  readonly buffer: GPUBuffer;
  /** Byte offset of the range in `buffer`. */
  readonly offset: number;
  /** Bytes of the range. */
  readonly size: number;
}

/** A range and how to give it back: the allocator's offset, or -1 for a buffer of its own. */
interface OwnedRange extends BufferRange {
  readonly handle: number;
}

type Use = keyof SceneBufferAllocators;

const USAGE_NAME = { vertices: 'VERTEX', indices: 'INDEX', uniforms: 'UNIFORM', instances: 'STORAGE' } as const;

// A function, not a constant: WebGPU's globals may be installed after this module loads (Dawn in Node).
function usageOf(use: Use): { flag: GPUBufferUsageFlags; name: string } {
  const name = USAGE_NAME[use];
  return { flag: GPUBufferUsage[name], name };
}

/** The GpuBufferAllocator at the root of `allocator`'s backing chain (offsets pass through proxies unchanged). */
function gpuRoot(allocator: Allocator): GpuBufferAllocator | undefined {
  for (let a: Allocator | null = allocator; a; a = a.backing) if (a instanceof GpuBufferAllocator) return a;
  return undefined;
}

const ceil4 = (bytes: number): number => Math.max(4, Math.ceil(bytes / 4) * 4);

/**
 * The ranges of one use (vertices, indices, uniforms or instances) of one scene: allocated and
 * given back in one place, so destroy() can return every live one.
 */
export class SceneBuffers {
  readonly use: Use;
  readonly #device: GPUDevice;
  readonly #usage: GPUBufferUsageFlags;
  readonly #allocator: Allocator | undefined;
  readonly #gpu: GpuBufferAllocator | undefined;
  readonly #align: number;
  readonly #live = new Set<OwnedRange>();

  constructor(device: GPUDevice, use: Use, allocator: Allocator | undefined, extraUsage: GPUBufferUsageFlags = 0) {
    this.use = use;
    this.#device = device;
    this.#usage = usageOf(use).flag | extraUsage | GPUBufferUsage.COPY_DST;
    this.#allocator = allocator;
    const limits = device.limits;
    // WebGPU's offset rules: 4 for vertex and index buffers (covers uint16 and uint32 indices),
    // the binding alignments for ranges bound as uniform or storage.
    this.#align = use === 'uniforms' ? limits.minUniformBufferOffsetAlignment : use === 'instances' ? limits.minStorageBufferOffsetAlignment : 4;
    if (!allocator) return;
    const gpu = gpuRoot(allocator);
    const { flag, name } = usageOf(use);
    if (!gpu) throw new RenderError(`buffers.${use} (${allocator.name}) is not backed by a GpuBufferAllocator; pass a GpuBufferAllocator, or a ProxyAllocator over one.`);
    if (gpu.device !== device) throw new RenderError(`buffers.${use} (${allocator.name}) allocates buffers of another GPUDevice; create it with the scene's device.`);
    if ((gpu.usage & flag) === 0) throw new RenderError(`buffers.${use} (${allocator.name}) makes buffers without GPUBufferUsage.${name}; create its GpuBufferAllocator with usage ${name}.`);
    this.#gpu = gpu;
  }

  /** Whether ranges come from an allocator (else each is a GPUBuffer of its own). */
  get pooled(): boolean {
    return this.#gpu !== undefined;
  }

  /** A range of at least `bytes` (rounded up to 4), contents undefined. */
  allocate(bytes: number, label: string): OwnedRange {
    const size = ceil4(bytes);
    let range: OwnedRange;
    if (this.#allocator && this.#gpu) {
      const handle = this.#allocator.allocate(size, this.#align);
      const { buffer, offset } = this.#gpu.range(handle);
      range = { buffer, offset, size, handle };
    } else {
      range = { buffer: this.#device.createBuffer({ label: `cuttle.render.${label}`, size, usage: this.#usage }), offset: 0, size, handle: -1 };
    }
    this.#live.add(range);
    return range;
  }

  /** A range holding `data` (zero-padded to a multiple of 4 bytes). */
  upload(data: ArrayBufferView, label: string): OwnedRange {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!this.#gpu) {
      // Today's path, unchanged: a buffer of its own, filled while mapped at creation.
      const size = ceil4(data.byteLength);
      const buffer = this.#device.createBuffer({ label: `cuttle.render.${label}`, size, usage: this.#usage, mappedAtCreation: true });
      new Uint8Array(buffer.getMappedRange()).set(bytes);
      buffer.unmap();
      const range = { buffer, offset: 0, size, handle: -1 };
      this.#live.add(range);
      return range;
    }
    const range = this.allocate(data.byteLength, label);
    // writeBuffer wants a multiple of 4 bytes: copy an odd-sized tail (uint16 indices) padded.
    const padded = bytes.byteLength === range.size ? bytes : (() => {
      const copy = new Uint8Array(range.size);
      copy.set(bytes);
      return copy;
    })();
    this.#device.queue.writeBuffer(range.buffer, range.offset, padded.buffer, padded.byteOffset, padded.byteLength);
    return range;
  }

  /** Gives `range` back (to its allocator, or destroys its buffer). */
  free(range: BufferRange): void {
    const owned = range as OwnedRange;
    if (!this.#live.delete(owned)) throw new RenderError(`a ${this.use} range was freed twice or is not this scene's.`);
    if (owned.handle < 0) owned.buffer.destroy();
    else this.#allocator!.deallocate(owned.handle);
  }

  /** Gives back every live range. */
  freeAll(): void {
    for (const range of [...this.#live]) this.free(range);
  }
}

// The engine's allocators, made once per engine: large GPUBuffers that every world's render
// scene takes its vertex, index, material and instance ranges from (a ProxyAllocator per world
// over each, so a world's memory shows under its name and a world that forgets a range fails
// loudly when it is destroyed), and a frame allocator for the data uploaded each frame.
import { FrameAllocator, GpuBufferAllocator, ProxyAllocator, type Allocator } from '@cuttle/allocators';
import type { SceneBufferAllocators } from '@cuttle/render';
import { MemoryPeaks, type MemoryNode } from './memory-tree.ts';

/** Bytes per GPUBuffer of each GPU allocator: the sample level needs well under one of each. */
const GPU_BUFFER_BYTES = { vertices: 8 << 20, indices: 4 << 20, uniforms: 1 << 20, instances: 4 << 20 } as const;
/** Bytes of the frame allocator at first: the per-frame staging of the character palettes (a few KiB for the sample); a level with a larger crowd grows it (reserveFrame). */
const FRAME_BYTES = 1 << 20;

/** The allocators one world's render scene takes its ranges from; release() checks it gave them all back. */
export interface WorldMemory {
  readonly buffers: SceneBufferAllocators;
  /** Destroys the world's proxies: throws MemoryLeakError naming the ranges a destroyed scene still holds. */
  release(): void;
}

export class EngineMemory {
  readonly vertices: GpuBufferAllocator;
  readonly indices: GpuBufferAllocator;
  readonly uniforms: GpuBufferAllocator;
  readonly instances: GpuBufferAllocator;
  #frame: FrameAllocator;
  #frameBytes = FRAME_BYTES;
  readonly #roots: Allocator[];
  readonly #peaks = new MemoryPeaks();

  constructor(device: GPUDevice) {
    const gpu = (name: keyof typeof GPU_BUFFER_BYTES, usage: GPUBufferUsageFlags): GpuBufferAllocator =>
      new GpuBufferAllocator(device, { name: `gpu/${name}`, usage, bufferSize: GPU_BUFFER_BYTES[name], label: `cuttle.engine.${name}` });
    this.vertices = gpu('vertices', GPUBufferUsage.VERTEX);
    this.indices = gpu('indices', GPUBufferUsage.INDEX);
    this.uniforms = gpu('uniforms', GPUBufferUsage.UNIFORM);
    this.instances = gpu('instances', GPUBufferUsage.STORAGE);
    this.#frame = new FrameAllocator({ name: 'frame', size: FRAME_BYTES });
    this.#roots = [this.vertices, this.indices, this.uniforms, this.instances, this.#frame];
  }

  /** Per-frame upload data, reset at the start of every frame (World.stageFrame). */
  get frame(): FrameAllocator {
    return this.#frame;
  }

  /**
   * Makes the frame allocator hold at least `bytes` a frame (a world stages all its walkers'
   * palettes there), doubling it at least when it grows. Between frames only: the old one's
   * views are gone after its reset.
   */
  reserveFrame(bytes: number): void {
    if (bytes <= this.#frameBytes) return;
    const size = Math.ceil(Math.max(bytes, this.#frameBytes * 2) / 65536) * 65536;
    const next = new FrameAllocator({ name: 'frame', size });
    this.#frame.reset();
    this.#frame.destroy();
    this.#roots[this.#roots.indexOf(this.#frame)] = next;
    this.#frame = next;
    this.#frameBytes = size;
  }

  /** Proxies for a new world's scene, named `world` under each GPU allocator. */
  world(): WorldMemory {
    const proxies = [this.vertices, this.indices, this.uniforms, this.instances].map((gpu) => new ProxyAllocator('world', gpu));
    const [vertices, indices, uniforms, instances] = proxies;
    return {
      buffers: { vertices, indices, uniforms, instances },
      release: () => {
        for (const proxy of proxies) proxy.destroy();
      },
    };
  }

  /** Notes the current use as a peak candidate (see MemoryPeaks for when the engine calls it). */
  sample(): void {
    for (const root of this.#roots) this.#peaks.sample(root);
    this.#peaks.note(this, this.#total());
  }

  /** The overview: a root `engine` over every allocator tree. */
  tree(): MemoryNode {
    const children = this.#roots.map((root) => this.#peaks.node(root));
    const sum = (pick: (node: MemoryNode) => number): number => children.reduce((total, node) => total + pick(node), 0);
    const bytes = sum((node) => node.bytes);
    return {
      name: 'engine',
      kind: 'Engine',
      bytes,
      capacity: sum((node) => node.capacity ?? 0),
      peak: this.#peaks.note(this, bytes),
      count: sum((node) => node.count),
      fragmentation: null,
      buffers: sum((node) => node.buffers ?? 0),
      children,
    };
  }

  #total(): number {
    return this.#roots.reduce((total, root) => total + root.allocatedBytes, 0);
  }

  /** Frees the GPU buffers; every world must have been destroyed first (MemoryLeakError otherwise). */
  destroy(): void {
    this.#frame.reset();
    for (const root of this.#roots) root.destroy();
  }
}

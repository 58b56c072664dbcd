import { ELEMENT_TYPES, MAX_REDUCE_WORKGROUPS, REDUCE_OPS, WORKGROUP_SIZE, type ElementType, type PassTimestamps, type ReduceOp } from './api.ts';
import { GpuPrimitivesError } from './errors.ts';
import { passTimestampWrites } from './timestamps.ts';
import { requireCount, requireInteger, requireWordBuffer } from './validate.ts';
import { reduceWorkgroupCount } from './reduce-plan.ts';
import { reduceShaderSource } from './reduce-source.ts';

/** Options of {@link GpuReduce}'s constructor. */
export interface GpuReduceOptions {
  /** What the reduction combines. */
  op: ReduceOp;
  /** The element type of the input buffers (4 bytes each). */
  type: ElementType;
  /**
   * How many reductions one instance may record before a submit (default 32). Each recording
   * takes its own slot of uniform parameters, so several reductions of different sizes can
   * share one command encoder.
   */
  slots?: number;
}

/** Where encode() writes GPU timestamps: before its first pass and after its last. */
export type ReduceTimestampWrites = PassTimestamps;

// Uniform offsets must be multiples of minUniformBufferOffsetAlignment (256 on every adapter).
const SLOT_BYTES = 256;
const BYTES_PER_ELEMENT = 4;

/**
 * Sum, min or max of a GPU buffer of f32/u32/i32 in two compute passes. Create once, encode
 * many times: the pipeline, the partials buffer and the uniform slots are made up front, and
 * bind groups are cached per input buffer.
 */
export class GpuReduce {
  /** What this instance combines, as given in the options. */
  readonly op: ReduceOp;
  /** The element type this instance reads, as given in the options. */
  readonly type: ElementType;
  /** Holds the latest result (4 bytes) after the encoded work runs; usage STORAGE | COPY_SRC. */
  readonly resultBuffer: GPUBuffer;

  readonly #device: GPUDevice;
  readonly #pipeline: GPUComputePipeline;
  readonly #layout: GPUBindGroupLayout;
  readonly #partials: GPUBuffer;
  readonly #params: GPUBuffer;
  readonly #slots: number;
  readonly #finalBindGroup: GPUBindGroup;
  #inputBindGroups = new WeakMap<GPUBuffer, GPUBindGroup>();
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuReduceOptions) {
    if (!REDUCE_OPS.includes(options.op)) throw new GpuPrimitivesError(`Unknown reduce op "${options.op}": use one of ${REDUCE_OPS.join(', ')}.`);
    if (!ELEMENT_TYPES.includes(options.type)) throw new GpuPrimitivesError(`Unknown element type "${options.type}": use one of ${ELEMENT_TYPES.join(', ')}.`);
    const slots = requireInteger('slots', options.slots ?? 32, 1);
    this.op = options.op;
    this.type = options.type;
    this.#device = device;
    this.#slots = slots;
    this.#layout = device.createBindGroupLayout({
      label: 'cuttle.reduce',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 8 } },
      ],
    });
    this.#pipeline = device.createComputePipeline({
      label: `cuttle.reduce.${options.op}.${options.type}`,
      layout: device.createPipelineLayout({ bindGroupLayouts: [this.#layout] }),
      compute: { module: device.createShaderModule({ code: reduceShaderSource(options.op, options.type) }), entryPoint: 'reduce' },
    });
    this.#partials = device.createBuffer({ label: 'cuttle.reduce.partials', size: MAX_REDUCE_WORKGROUPS * BYTES_PER_ELEMENT, usage: GPUBufferUsage.STORAGE });
    this.resultBuffer = device.createBuffer({ label: 'cuttle.reduce.result', size: BYTES_PER_ELEMENT, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    // Two uniform slots per recording: one per pass.
    this.#params = device.createBuffer({ label: 'cuttle.reduce.params', size: slots * 2 * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#finalBindGroup = this.#bindGroup(this.#partials, this.resultBuffer);
  }

  /**
   * Records the reduction of the first `count` elements of `input` (usage STORAGE) into
   * `encoder`; the result lands in `resultBuffer` when the commands run.
   */
  encode(encoder: GPUCommandEncoder, input: GPUBuffer, count: number, timestamps?: ReduceTimestampWrites): void {
    this.#assertAlive();
    requireCount(count);
    requireWordBuffer('input', input, count);
    const workgroups = reduceWorkgroupCount(count);
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const firstOffset = slot * 2 * SLOT_BYTES;
    const secondOffset = firstOffset + SLOT_BYTES;
    const words = new Uint32Array(SLOT_BYTES / 4 + 2);
    words[0] = count;
    words[1] = workgroups * WORKGROUP_SIZE;
    words[SLOT_BYTES / 4] = workgroups;
    words[SLOT_BYTES / 4 + 1] = WORKGROUP_SIZE;
    this.#device.queue.writeBuffer(this.#params, firstOffset, words);

    let inputBindGroup = this.#inputBindGroups.get(input);
    if (!inputBindGroup) {
      inputBindGroup = this.#bindGroup(input, this.#partials);
      this.#inputBindGroups.set(input, inputBindGroup);
    }
    const first = encoder.beginComputePass({ label: 'cuttle.reduce.partials', ...passTimestampWrites(timestamps && { querySet: timestamps.querySet, beginIndex: timestamps.beginIndex }) });
    first.setPipeline(this.#pipeline);
    first.setBindGroup(0, inputBindGroup, [firstOffset]);
    first.dispatchWorkgroups(workgroups);
    first.end();
    const second = encoder.beginComputePass({ label: 'cuttle.reduce.final', ...passTimestampWrites(timestamps && { querySet: timestamps.querySet, endIndex: timestamps.endIndex }) });
    second.setPipeline(this.#pipeline);
    second.setBindGroup(0, this.#finalBindGroup, [secondOffset]);
    second.dispatchWorkgroups(1);
    second.end();
  }

  /** Reduces and reads the result back: one submit and one map. Convenient, not for hot paths. */
  async reduce(input: GPUBuffer, count: number): Promise<number> {
    const staging = this.#device.createBuffer({ size: BYTES_PER_ELEMENT, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = this.#device.createCommandEncoder({ label: 'cuttle.reduce' });
      this.encode(encoder, input, count);
      encoder.copyBufferToBuffer(this.resultBuffer, 0, staging, 0, BYTES_PER_ELEMENT);
      this.#device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const bytes = staging.getMappedRange();
      const value = this.type === 'f32' ? new Float32Array(bytes)[0]! : this.type === 'u32' ? new Uint32Array(bytes)[0]! : new Int32Array(bytes)[0]!;
      staging.unmap();
      return value;
    } finally {
      staging.destroy();
    }
  }

  /** Releases the GPU buffers this instance owns. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#partials.destroy();
    this.resultBuffer.destroy();
    this.#params.destroy();
    this.#inputBindGroups = new WeakMap();
  }

  #bindGroup(input: GPUBuffer, output: GPUBuffer): GPUBindGroup {
    return this.#device.createBindGroup({
      layout: this.#layout,
      entries: [
        { binding: 0, resource: { buffer: input } },
        { binding: 1, resource: { buffer: output } },
        { binding: 2, resource: { buffer: this.#params, size: 8 } },
      ],
    });
  }

  #assertAlive(): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuReduce was destroyed; create a new one.');
  }
}

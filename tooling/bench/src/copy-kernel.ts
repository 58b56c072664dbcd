// The bandwidth yardstick for GPU benchmarks: a vec4<u32> copy, grid-stride, four loads in flight
// per invocation. "x% of copy" figures in BENCHMARKS.md are measured against this kernel.

const COPY_WGSL = /* wgsl */ `
struct Params {
  count: u32,
  stride: u32,
}
@group(0) @binding(0) var<storage, read> source: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> destination: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn copy(@builtin(global_invocation_id) id: vec3<u32>) {
  var i = id.x;
  let s = params.stride;
  for (; i + 3u * s < params.count; i += 4u * s) {
    let a = source[i];
    let b = source[i + s];
    let c = source[i + 2u * s];
    let d = source[i + 3u * s];
    destination[i] = a;
    destination[i + s] = b;
    destination[i + 2u * s] = c;
    destination[i + 3u * s] = d;
  }
  for (; i < params.count; i += s) {
    destination[i] = source[i];
  }
}`;

/** Which timestamps the copy pass writes: either index may be left out (a pass in a sequence). */
export interface CopyTimestamps {
  querySet: GPUQuerySet;
  beginIndex?: number;
  endIndex?: number;
}

export class CopyKernel {
  readonly #pipeline: GPUComputePipeline;
  readonly #bindGroup: GPUBindGroup;
  readonly #workgroups: number;
  /** Buffers this kernel created and destroys. */
  readonly #owned: GPUBuffer[] = [];

  /**
   * Copies `bytes` (a multiple of 16) from `buffers.source` to `buffers.destination` (STORAGE
   * usage), or between two buffers of its own when `buffers` is left out.
   */
  constructor(device: GPUDevice, bytes: number, buffers?: { source: GPUBuffer; destination: GPUBuffer }) {
    if (!Number.isInteger(bytes) || bytes <= 0 || bytes % 16 !== 0) throw new RangeError(`CopyKernel: bytes must be a positive multiple of 16, got ${bytes}.`);
    const vectors = bytes / 16;
    this.#workgroups = Math.min(4096, Math.ceil(vectors / 256 / 4));
    const own = (size: number, usage: GPUBufferUsageFlags): GPUBuffer => {
      const buffer = device.createBuffer({ size, usage });
      this.#owned.push(buffer);
      return buffer;
    };
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const source = buffers?.source ?? own(bytes, storage);
    const destination = buffers?.destination ?? own(bytes, storage);
    const params = own(8, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    device.queue.writeBuffer(params, 0, new Uint32Array([vectors, this.#workgroups * 256]));
    this.#pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: COPY_WGSL }), entryPoint: 'copy' } });
    this.#bindGroup = device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: source } },
        { binding: 1, resource: { buffer: destination } },
        { binding: 2, resource: { buffer: params } },
      ],
    });
  }

  encode(encoder: GPUCommandEncoder, timestamps?: CopyTimestamps): void {
    const writes: GPUComputePassTimestampWrites | undefined =
      timestamps && (timestamps.beginIndex !== undefined || timestamps.endIndex !== undefined) ? { querySet: timestamps.querySet } : undefined;
    if (writes && timestamps?.beginIndex !== undefined) writes.beginningOfPassWriteIndex = timestamps.beginIndex;
    if (writes && timestamps?.endIndex !== undefined) writes.endOfPassWriteIndex = timestamps.endIndex;
    const pass = encoder.beginComputePass({ label: 'bench.copy', ...(writes ? { timestampWrites: writes } : {}) });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.dispatchWorkgroups(this.#workgroups);
    pass.end();
  }

  /** Destroys the buffers the kernel created (not ones passed in). */
  destroy(): void {
    for (const buffer of this.#owned) buffer.destroy();
    this.#owned.length = 0;
  }
}

// A vec4 copy kernel used only by the benchmark, as the measure of what memory allows.
import { type PassTimestamps } from '../src/index.ts';
import { passTimestampWrites } from '../src/timestamps.ts';
import copyWgsl from './copy.wgsl?raw';

export class CopyKernel {
  readonly #pipeline: GPUComputePipeline;
  readonly #bindGroup: GPUBindGroup;
  readonly #workgroups: number;
  readonly #buffers: GPUBuffer[];

  /** Copies `bytes` (a multiple of 16) from one fresh buffer to another. */
  constructor(device: GPUDevice, bytes: number) {
    const vectors = bytes / 16;
    this.#workgroups = Math.min(4096, Math.ceil(vectors / 256 / 4));
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.#buffers = [device.createBuffer({ size: bytes, usage }), device.createBuffer({ size: bytes, usage }), device.createBuffer({ size: 8, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST })];
    device.queue.writeBuffer(this.#buffers[2]!, 0, new Uint32Array([vectors, this.#workgroups * 256]));
    this.#pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: copyWgsl }), entryPoint: 'copy' } });
    this.#bindGroup = device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(0),
      entries: this.#buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  encode(encoder: GPUCommandEncoder, timestamps?: PassTimestamps): void {
    const pass = encoder.beginComputePass({ label: 'bench.copy', ...passTimestampWrites(timestamps) });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.dispatchWorkgroups(this.#workgroups);
    pass.end();
  }

  destroy(): void {
    for (const buffer of this.#buffers) buffer.destroy();
  }
}

// A vec4 copy kernel used only by the benchmarks, as the measure of what memory allows.
import { passTimestampWrites, type PassTimestamps } from '../src/index.ts';
import copyWgsl from './copy.wgsl?raw';

export class CopyKernel {
  readonly #pipeline: GPUComputePipeline;
  readonly #bindGroup: GPUBindGroup;
  readonly #workgroups: number;

  constructor(device: GPUDevice, source: GPUBuffer, destination: GPUBuffer, bytes: number) {
    const vectors = bytes / 16;
    this.#workgroups = Math.min(4096, Math.ceil(vectors / 256 / 4));
    const params = device.createBuffer({ size: 8, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(params, 0, new Uint32Array([vectors, this.#workgroups * 256]));
    this.#pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: copyWgsl }), entryPoint: 'copy' } });
    this.#bindGroup = device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: source } },
        { binding: 1, resource: { buffer: destination } },
        { binding: 2, resource: { buffer: params } },
      ],
    });
  }

  encode(encoder: GPUCommandEncoder, timestamps?: PassTimestamps): void {
    const pass = encoder.beginComputePass({ label: 'bench.copy', ...passTimestampWrites(timestamps) });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.dispatchWorkgroups(this.#workgroups);
    pass.end();
  }
}

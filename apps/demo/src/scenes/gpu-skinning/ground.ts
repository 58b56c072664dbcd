// The crowd's ground: one quad from the vertex index, drawn in the crowd's render pass with
// the crowd's frame uniform.
import groundWgsl from './ground.wgsl?raw';

export class Ground {
  readonly #pipeline: GPURenderPipeline;
  readonly #bindGroup: GPUBindGroup;

  /** `frameWgsl` declares the Frame uniform and motion_colour; `frameBuffer` holds the Frame. */
  constructor(device: GPUDevice, colorFormat: GPUTextureFormat, frameWgsl: string, frameBuffer: GPUBuffer) {
    const module = device.createShaderModule({ label: 'crowd ground', code: `${frameWgsl}\n${groundWgsl}` });
    this.#pipeline = device.createRenderPipeline({
      label: 'crowd ground',
      layout: 'auto',
      vertex: { module, entryPoint: 'vs_ground' },
      fragment: { module, entryPoint: 'fs_ground', targets: [{ format: colorFormat }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
      depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'less' },
    });
    this.#bindGroup = device.createBindGroup({ layout: this.#pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: frameBuffer } }] });
  }

  draw(pass: GPURenderPassEncoder): void {
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.draw(6);
  }
}

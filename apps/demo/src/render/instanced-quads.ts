// A tiny shared renderer for scenes: many coloured squares from flat arrays, one draw call.
// positions: x, y per quad in clip space ([-1, 1]); colors: r, g, b, a per quad; sizes in
// clip-space units. Scenes fill the arrays and call draw().
import quadsWgsl from './instanced-quads.wgsl?raw';

export class InstancedQuads {
  readonly capacity: number;
  readonly positions: Float32Array<ArrayBuffer>;
  readonly colors: Float32Array<ArrayBuffer>;
  readonly sizes: Float32Array<ArrayBuffer>;
  readonly #device: GPUDevice;
  readonly #pipeline: GPURenderPipeline;
  readonly #buffers: { positions: GPUBuffer; colors: GPUBuffer; sizes: GPUBuffer; view: GPUBuffer };
  readonly #bindGroup: GPUBindGroup;

  constructor(device: GPUDevice, format: GPUTextureFormat, capacity: number) {
    this.#device = device;
    this.capacity = capacity;
    this.positions = new Float32Array(capacity * 2);
    this.colors = new Float32Array(capacity * 4);
    this.sizes = new Float32Array(capacity);
    const usage = GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST;
    this.#buffers = {
      positions: device.createBuffer({ size: this.positions.byteLength, usage }),
      colors: device.createBuffer({ size: this.colors.byteLength, usage }),
      sizes: device.createBuffer({ size: Math.max(4, this.sizes.byteLength), usage }),
      view: device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
    };
    const module = device.createShaderModule({ code: quadsWgsl });
    this.#pipeline = device.createRenderPipeline({
      layout: 'auto',
      vertex: {
        module,
        entryPoint: 'vs',
        buffers: [
          { arrayStride: 8, stepMode: 'instance', attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x2' }] },
          { arrayStride: 16, stepMode: 'instance', attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x4' }] },
          { arrayStride: 4, stepMode: 'instance', attributes: [{ shaderLocation: 2, offset: 0, format: 'float32' }] },
        ],
      },
      fragment: {
        module,
        entryPoint: 'fs',
        targets: [{ format, blend: { color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' } } }],
      },
      primitive: { topology: 'triangle-strip' },
    });
    this.#bindGroup = device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: this.#buffers.view } }],
    });
  }

  /** Uploads the first `count` quads and records a pass that clears to `clear` and draws them. */
  draw(encoder: GPUCommandEncoder, target: GPUTextureView, count: number, aspect: number, clear: GPUColor = { r: 0.05, g: 0.06, b: 0.09, a: 1 }): void {
    const n = Math.min(count, this.capacity);
    const queue = this.#device.queue;
    queue.writeBuffer(this.#buffers.positions, 0, this.positions, 0, n * 2);
    queue.writeBuffer(this.#buffers.colors, 0, this.colors, 0, n * 4);
    queue.writeBuffer(this.#buffers.sizes, 0, this.sizes, 0, n);
    // Width over height: the shader divides x by it so squares stay square.
    queue.writeBuffer(this.#buffers.view, 0, new Float32Array([aspect, 0, 0, 0]));
    const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target, clearValue: clear, loadOp: 'clear', storeOp: 'store' }] });
    pass.setPipeline(this.#pipeline);
    pass.setVertexBuffer(0, this.#buffers.positions);
    pass.setVertexBuffer(1, this.#buffers.colors);
    pass.setVertexBuffer(2, this.#buffers.sizes);
    pass.setBindGroup(0, this.#bindGroup);
    if (n > 0) pass.draw(4, n);
    pass.end();
  }

  destroy(): void {
    this.#buffers.positions.destroy();
    this.#buffers.colors.destroy();
    this.#buffers.sizes.destroy();
    this.#buffers.view.destroy();
  }
}

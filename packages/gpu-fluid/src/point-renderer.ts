import pointsWgsl from './shaders/points.wgsl?raw';
import type { FluidSimulation } from './fluid-simulation.ts';
import { GpuFluidError } from './errors.ts';

/** Options of one {@link FluidPointRenderer} draw. */
export interface PointRenderOptions {
  /** Width over height of the target. */
  aspect: number;
  /** Rotation about the vertical axis in radians (default 0: looking down -z). */
  yaw?: number;
  /** Particle radius in world units (default h / 4). */
  radius?: number;
  /** Speed drawn at full highlight (default 10). */
  maxSpeed?: number;
  /** Colour the target is cleared to (default a dark blue, `{ r: 0.03, g: 0.04, b: 0.07, a: 1 }`). */
  clear?: GPUColor;
}

const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';

/**
 * The simple renderer the package offers: every particle as a shaded sphere impostor, the
 * whole box fitted to the view, coloured by speed. One draw call, reading the simulation's
 * buffers directly (no copies).
 */
export class FluidPointRenderer {
  readonly #device: GPUDevice;
  readonly #pipeline: GPURenderPipeline;
  readonly #view: GPUBuffer;
  readonly #groups = new WeakMap<FluidSimulation, GPUBindGroup>();
  #depth: GPUTexture | undefined;

  constructor(device: GPUDevice, format: GPUTextureFormat) {
    this.#device = device;
    const module = device.createShaderModule({ label: 'cuttle.fluid.points', code: pointsWgsl });
    this.#pipeline = device.createRenderPipeline({
      label: 'cuttle.fluid.points',
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format }] },
      primitive: { topology: 'triangle-strip' },
      depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less' },
    });
    this.#view = device.createBuffer({ label: 'cuttle.fluid.points.view', size: 48, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** Records a render pass that clears `target` (size `width` x `height`) and draws every live particle. */
  render(encoder: GPUCommandEncoder, target: GPUTextureView, width: number, height: number, fluid: FluidSimulation, options: PointRenderOptions): void {
    if (!(options.aspect > 0) || !Number.isFinite(options.aspect)) throw new GpuFluidError(`aspect must be a positive number, got ${options.aspect}.`);
    const { min, max } = fluid.parameters.bounds;
    const extent = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    const yaw = options.yaw ?? 0;
    const scale = 1.9 / extent;
    const view = new Float32Array([
      (min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2, scale,
      Math.cos(yaw), Math.sin(yaw), options.aspect, (options.radius ?? fluid.parameters.h / 4) * scale,
      options.maxSpeed ?? 10,
    ]);
    this.#device.queue.writeBuffer(this.#view, 0, view);
    let group = this.#groups.get(fluid);
    if (!group) {
      group = this.#device.createBindGroup({
        layout: this.#pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.#view } },
          { binding: 1, resource: { buffer: fluid.positionBuffer } },
          { binding: 2, resource: { buffer: fluid.velocityBuffer } },
        ],
      });
      this.#groups.set(fluid, group);
    }
    if (this.#depth?.width !== width || this.#depth.height !== height) {
      this.#depth?.destroy();
      this.#depth = this.#device.createTexture({ label: 'cuttle.fluid.points.depth', size: [width, height], format: DEPTH_FORMAT, usage: GPUTextureUsage.RENDER_ATTACHMENT });
    }
    const pass = encoder.beginRenderPass({
      label: 'cuttle.fluid.points',
      colorAttachments: [{ view: target, clearValue: options.clear ?? { r: 0.03, g: 0.04, b: 0.07, a: 1 }, loadOp: 'clear', storeOp: 'store' }],
      depthStencilAttachment: { view: this.#depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'discard' },
    });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, group);
    if (fluid.count > 0) pass.draw(4, fluid.count);
    pass.end();
  }

  /** Frees the renderer's GPU resources (its view uniforms and depth texture). */
  destroy(): void {
    this.#view.destroy();
    this.#depth?.destroy();
  }
}

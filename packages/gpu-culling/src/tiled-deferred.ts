import tiledDeferredWgsl from './shaders/tiled-deferred.wgsl?raw';
import type { CullWalk } from './api.ts';
import { GpuCullingError } from './errors.ts';
import type { TileCuller } from './tile-culler.ts';

/** The G-buffer {@link TiledDeferredShading} lights: depth, surface attributes and the output. */
export interface GBuffer {
  /** The depth buffer culling ran on. */
  depth: GPUTexture;
  /** World-space normal in .xyz, .w = 1 where a surface was drawn (for example rgba16float). */
  normal: GPUTexture;
  /** Surface colour in .rgb (for example rgba8unorm). */
  albedo: GPUTexture;
  /** rgba16float with STORAGE_BINDING usage: the lit result, linear. */
  output: GPUTexture;
}

/** Options of {@link TiledDeferredShading}'s constructor. */
export interface TiledDeferredOptions {
  /** Walk tiles with subgroup operations (device needs `subgroups`). */
  scalarize?: boolean;
  /** How flat-bit tiles are walked (default `'auto'`, by the culler's maxEntities). */
  walk?: CullWalk;
}

/**
 * The tiled-deferred path of the posts: a compute pass in 8x8 workgroups that shades each
 * G-buffer pixel with the decals, probes and lights culled into its tile.
 */
export class TiledDeferredShading {
  readonly #device: GPUDevice;
  readonly #culler: TileCuller;
  readonly #pipeline: GPUComputePipeline;
  readonly #ambient: GPUBuffer;
  #cullGroup: GPUBindGroup | undefined;
  #tileBuffer: GPUBuffer | undefined;

  constructor(device: GPUDevice, culler: TileCuller, options: TiledDeferredOptions = {}) {
    this.#device = device;
    this.#culler = culler;
    const code = culler.shaderModule({ group: 0, binding: 0, scalarize: options.scalarize ?? false, walk: options.walk ?? 'auto' }) + tiledDeferredWgsl;
    this.#pipeline = device.createComputePipeline({
      label: 'cuttle.culling.tiled-deferred',
      layout: 'auto',
      compute: { module: device.createShaderModule({ label: 'cuttle.culling.tiled-deferred', code }), entryPoint: 'shade_tiles' },
    });
    this.#ambient = device.createBuffer({ label: 'cuttle.culling.ambient', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** Records the shading pass. `ambient` is the light where no probe reaches (linear RGB). */
  shade(encoder: GPUCommandEncoder, gbuffer: GBuffer, ambient: readonly [number, number, number] = [0.03, 0.03, 0.04], timestamps?: GPUComputePassTimestampWrites): void {
    const { depth, normal, albedo, output } = gbuffer;
    const grid = this.#culler.grid;
    if (!grid) throw new GpuCullingError('shade the tiles after culler.cull.');
    for (const [name, texture] of Object.entries(gbuffer) as [string, GPUTexture][]) {
      if (texture.width !== grid.width || texture.height !== grid.height) {
        throw new GpuCullingError(`gbuffer.${name} is ${texture.width}x${texture.height}, the culled resolution is ${grid.width}x${grid.height}.`);
      }
    }
    if (output.format !== 'rgba16float' || (output.usage & GPUTextureUsage.STORAGE_BINDING) === 0) {
      throw new GpuCullingError('gbuffer.output must be rgba16float with STORAGE_BINDING usage.');
    }
    this.#device.queue.writeBuffer(this.#ambient, 0, new Float32Array([...ambient, 0]));
    const tiles = this.#culler.tileBuffer;
    if (tiles !== this.#tileBuffer) {
      this.#tileBuffer = tiles;
      this.#cullGroup = this.#device.createBindGroup({ layout: this.#pipeline.getBindGroupLayout(0), entries: this.#culler.bindGroupEntries(0) });
    }
    const group = this.#device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(1),
      entries: [
        { binding: 0, resource: depth.createView({ aspect: 'depth-only' }) },
        { binding: 1, resource: normal.createView() },
        { binding: 2, resource: albedo.createView() },
        { binding: 3, resource: output.createView() },
        { binding: 4, resource: { buffer: this.#ambient } },
      ],
    });
    const pass = encoder.beginComputePass({ label: 'cuttle.culling.tiled-deferred', ...(timestamps ? { timestampWrites: timestamps } : {}) });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#cullGroup);
    pass.setBindGroup(1, group);
    pass.dispatchWorkgroups(Math.ceil(grid.width / 8), Math.ceil(grid.height / 8));
    pass.end();
  }

  /** Frees the shading's uniform buffer. */
  destroy(): void {
    this.#ambient.destroy();
  }
}

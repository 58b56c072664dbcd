import heatmapWgsl from './shaders/heatmap.wgsl?raw';
import { GpuCullingError } from './errors.ts';
import { STATS_HEADER } from './shader-source.ts';
import type { TileCuller } from './tile-culler.ts';

/** Options of {@link CullingHeatmap}'s constructor. */
export interface HeatmapOptions {
  /** Entities per tile drawn in full red (default 32). */
  maxCount?: number;
  /** Opacity of the overlay (default 0.55). */
  opacity?: number;
}

/**
 * Draws the entities-per-tile heatmap of a culler's last result over a target you rendered,
 * blended: the posts' debugging picture.
 */
export class CullingHeatmap {
  readonly #device: GPUDevice;
  readonly #pipeline: GPURenderPipeline;
  readonly #uniform: GPUBuffer;
  readonly #data = new ArrayBuffer(16);
  #group: GPUBindGroup | undefined;
  #counts: GPUBuffer | undefined;

  constructor(device: GPUDevice, format: GPUTextureFormat) {
    this.#device = device;
    const module = device.createShaderModule({ label: 'cuttle.culling.heatmap', code: `const STATS_HEADER: u32 = ${STATS_HEADER}u;\n${heatmapWgsl}` });
    this.#pipeline = device.createRenderPipeline({
      label: 'cuttle.culling.heatmap',
      layout: 'auto',
      vertex: { module, entryPoint: 'heat_vertex' },
      fragment: {
        module,
        entryPoint: 'heat_fragment',
        targets: [{ format, blend: { color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'zero', dstFactor: 'one' } } }],
      },
    });
    this.#uniform = device.createBuffer({ label: 'cuttle.culling.heatmap', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** Records the overlay into `encoder` over `target` (its size must be the culled resolution). */
  draw(encoder: GPUCommandEncoder, target: GPUTextureView, culler: TileCuller, options: HeatmapOptions = {}): void {
    const grid = culler.grid;
    if (!grid) throw new GpuCullingError('the heatmap shows the last cull: call culler.cull first.');
    const maxCount = options.maxCount ?? 32;
    const opacity = options.opacity ?? 0.55;
    if (!(maxCount > 0) || !(opacity >= 0 && opacity <= 1)) throw new GpuCullingError(`maxCount must be positive and opacity in 0..1, got ${maxCount} and ${opacity}.`);
    new Uint32Array(this.#data, 0, 2).set([culler.tileSize, grid.tilesX]);
    new Float32Array(this.#data, 8, 2).set([maxCount, opacity]);
    this.#device.queue.writeBuffer(this.#uniform, 0, this.#data);
    const counts = culler.countBuffer;
    if (counts !== this.#counts) {
      this.#counts = counts;
      this.#group = this.#device.createBindGroup({
        layout: this.#pipeline.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer: this.#uniform } }, { binding: 1, resource: { buffer: counts } }],
      });
    }
    const pass = encoder.beginRenderPass({ label: 'cuttle.culling.heatmap', colorAttachments: [{ view: target, loadOp: 'load', storeOp: 'store' }] });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#group);
    pass.draw(3);
    pass.end();
  }

  /** Frees the heatmap's uniform buffer. */
  destroy(): void {
    this.#uniform.destroy();
  }
}

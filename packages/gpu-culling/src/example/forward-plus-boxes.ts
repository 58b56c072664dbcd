import boxesWgsl from '../shaders/boxes.wgsl?raw';
import type { CameraInput, CullWalk } from '../api.ts';
import { GpuCullingError } from '../errors.ts';
import { multiply } from '../math.ts';
import type { TileCuller } from '../tile-culler.ts';
import { BOX_FLOATS } from './city.ts';

/** Options of {@link ForwardPlusBoxes}' constructor. */
export interface ForwardPlusBoxesOptions {
  /** Format of the colour target of `drawShaded`. */
  colorFormat: GPUTextureFormat;
  /** Depth format (default depth32float). */
  depthFormat?: GPUTextureFormat;
  /** Camera with reversed Z: clears depth to 0 and keeps the greater depth. */
  reversedZ?: boolean;
  /** Walk tiles with subgroup operations (device needs `subgroups`). */
  scalarize?: boolean;
  /** How flat-bit tiles are walked (default `'auto'`, by the culler's maxEntities). */
  walk?: CullWalk;
}

/** What the shading pass lights: the culled tiles (forward+), or every entity at every pixel (the baseline). */
export type ShadingMode = 'culled' | 'everything';

const BOX_VERTICES = 36;

/**
 * The forward+ example: instanced boxes drawn with a depth prepass (what culling reads), then
 * a colour pass whose fragment shader calls `cull_shade` with the culled tiles, or into a
 * G-buffer for TiledDeferredShading. Small on purpose: it shows the whole path.
 */
export class ForwardPlusBoxes {
  readonly #device: GPUDevice;
  readonly #culler: TileCuller;
  readonly #depthFormat: GPUTextureFormat;
  readonly #reversedZ: boolean;
  readonly #pipelines: Record<'depth' | 'culled' | 'everything' | 'gbuffer', GPURenderPipeline>;
  readonly #camera: GPUBuffer;
  #boxes: GPUBuffer | undefined;
  #count = 0;
  #sceneGroup: GPUBindGroup | undefined;
  #cullGroup: GPUBindGroup | undefined;
  #cullTiles: GPUBuffer | undefined;

  constructor(device: GPUDevice, culler: TileCuller, options: ForwardPlusBoxesOptions) {
    this.#device = device;
    this.#culler = culler;
    this.#depthFormat = options.depthFormat ?? 'depth32float';
    this.#reversedZ = options.reversedZ ?? false;
    const module = device.createShaderModule({ label: 'cuttle.culling.boxes', code: culler.shaderModule({ group: 1, scalarize: options.scalarize ?? false, walk: options.walk ?? 'auto' }) + boxesWgsl });
    const layout0 = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
      ],
    });
    const layout1 = device.createBindGroupLayout({ entries: culler.bindGroupLayoutEntries(0, GPUShaderStage.FRAGMENT) });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [layout0, layout1] });
    const depthOnlyLayout = device.createPipelineLayout({ bindGroupLayouts: [layout0] });
    const compare: GPUCompareFunction = this.#reversedZ ? 'greater' : 'less';
    const pipeline = (entryPoint: string | undefined, targets: GPUColorTargetState[], write: boolean): GPURenderPipeline =>
      device.createRenderPipeline({
        label: `cuttle.culling.boxes.${entryPoint ?? 'depth'}`,
        layout: entryPoint && entryPoint !== 'gbuffer' ? layout : depthOnlyLayout,
        vertex: { module, entryPoint: 'box_vertex' },
        ...(entryPoint ? { fragment: { module, entryPoint, targets } } : {}),
        primitive: { topology: 'triangle-list', cullMode: 'back' },
        depthStencil: { format: this.#depthFormat, depthWriteEnabled: write, depthCompare: write ? compare : 'equal' },
      });
    this.#pipelines = {
      depth: pipeline(undefined, [], true),
      culled: pipeline('forward_plus', [{ format: options.colorFormat }], false),
      everything: pipeline('forward_everything', [{ format: options.colorFormat }], false),
      gbuffer: pipeline('gbuffer', [{ format: 'rgba16float' }, { format: 'rgba8unorm' }], true),
    };
    this.#camera = device.createBuffer({ label: 'cuttle.culling.boxes.camera', size: 80, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** Boxes uploaded by the last `setBoxes`. */
  get boxCount(): number {
    return this.#count;
  }

  /** Uploads boxes (BOX_FLOATS each, e.g. generateCity().boxes). */
  setBoxes(boxes: Float32Array<ArrayBuffer>): void {
    if (boxes.length % BOX_FLOATS !== 0 || boxes.length === 0) throw new GpuCullingError(`boxes needs ${BOX_FLOATS} floats per box, got ${boxes.length} floats.`);
    this.#boxes?.destroy();
    this.#boxes = this.#device.createBuffer({ label: 'cuttle.culling.boxes', size: boxes.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#device.queue.writeBuffer(this.#boxes, 0, boxes);
    this.#count = boxes.length / BOX_FLOATS;
    this.#sceneGroup = this.#device.createBindGroup({
      layout: this.#pipelines.depth.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: this.#camera } }, { binding: 1, resource: { buffer: this.#boxes } }],
    });
  }

  /** Uploads the camera's view-projection and position and the ambient colour (linear RGB, default a dark blue-grey) for the next draws. */
  setCamera(camera: CameraInput, ambient: readonly [number, number, number] = [0.02, 0.02, 0.03]): void {
    const data = new Float32Array(20);
    data.set(multiply(camera.projection, camera.view));
    data.set(ambient, 16);
    this.#device.queue.writeBuffer(this.#camera, 0, data);
  }

  /** The depth prepass: clears and fills `depth`, which culling then reads. */
  drawDepth(encoder: GPUCommandEncoder, depth: GPUTextureView, timestampWrites?: GPURenderPassTimestampWrites): void {
    const pass = encoder.beginRenderPass({
      label: 'cuttle.culling.boxes.depth',
      colorAttachments: [],
      depthStencilAttachment: { view: depth, depthLoadOp: 'clear', depthClearValue: this.#reversedZ ? 0 : 1, depthStoreOp: 'store' },
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    this.#drawBoxes(pass, this.#pipelines.depth, false);
    pass.end();
  }

  /** The colour pass over the prepass depth (depth test 'equal'): forward+ over culled tiles, or every entity. */
  drawShaded(encoder: GPUCommandEncoder, color: GPUTextureView, depth: GPUTextureView, mode: ShadingMode = 'culled', timestampWrites?: GPURenderPassTimestampWrites): void {
    const pass = encoder.beginRenderPass({
      label: `cuttle.culling.boxes.${mode}`,
      colorAttachments: [{ view: color, loadOp: 'clear', clearValue: { r: 0.01, g: 0.012, b: 0.02, a: 1 }, storeOp: 'store' }],
      depthStencilAttachment: { view: depth, depthReadOnly: true },
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    this.#drawBoxes(pass, this.#pipelines[mode], true);
    pass.end();
  }

  /** Draws the G-buffer for TiledDeferredShading: normal (rgba16float) and albedo (rgba8unorm), with its own depth. */
  drawGBuffer(encoder: GPUCommandEncoder, normal: GPUTextureView, albedo: GPUTextureView, depth: GPUTextureView): void {
    const pass = encoder.beginRenderPass({
      label: 'cuttle.culling.boxes.gbuffer',
      colorAttachments: [
        { view: normal, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 0 }, storeOp: 'store' },
        { view: albedo, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 0 }, storeOp: 'store' },
      ],
      depthStencilAttachment: { view: depth, depthLoadOp: 'clear', depthClearValue: this.#reversedZ ? 0 : 1, depthStoreOp: 'store' },
    });
    this.#drawBoxes(pass, this.#pipelines.gbuffer, false);
    pass.end();
  }

  /** Frees the box and camera buffers. */
  destroy(): void {
    this.#boxes?.destroy();
    this.#camera.destroy();
  }

  #drawBoxes(pass: GPURenderPassEncoder, pipeline: GPURenderPipeline, culled: boolean): void {
    if (!this.#sceneGroup) throw new GpuCullingError('call setBoxes before drawing.');
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.#sceneGroup);
    if (culled) {
      const tiles = this.#culler.tileBuffer;
      if (tiles !== this.#cullTiles) {
        this.#cullTiles = tiles;
        this.#cullGroup = this.#device.createBindGroup({ layout: pipeline.getBindGroupLayout(1), entries: this.#culler.bindGroupEntries(0) });
      }
      pass.setBindGroup(1, this.#cullGroup);
    }
    pass.draw(BOX_VERTICES, this.#count);
  }
}

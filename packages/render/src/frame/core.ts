// What every frame of a Renderer shares: the device's layouts, shader modules and pipelines,
// the uniforms, the shadow maps, the instance and draw-slot buffers, the bind groups over them,
// the helpers (fluids, compute raster, forward+) and the frame graph's pool of transient
// textures. The passes (src/passes) record with it; the Renderer owns one.
import { TileCuller, type CullWalk, type Technique, type TileSize } from '@cuttle/gpu-culling';
import commonWgsl from '../shaders/common.wgsl?raw';
import depthWgsl from '../shaders/depth.wgsl?raw';
import forwardWgsl from '../shaders/forward.wgsl?raw';
import fluidWgsl from '../shaders/fluid.wgsl?raw';
import tonemapWgsl from '../shaders/tonemap.wgsl?raw';
import tonemapComputeWgsl from '../shaders/tonemap-compute.wgsl?raw';
import filterClearWgsl from '../shaders/filter-clear.wgsl?raw';
import { PASSES } from '../api.ts';
import { buildOpaqueGroups, type DrawGroup } from '../draw-lists.ts';
import { FRAME_BYTES } from '../frame-uniform.ts';
import { FluidPasses } from '../fluid-passes.ts';
import { ForwardOpaque } from '../forward-opaque.ts';
import { TransientPool } from '../graph/pool.ts';
import { computeDepth, computeHdrOut } from '../layout-entries.ts';
import { MATERIAL_LAYOUT } from '../scene/materials.ts';
import { INSTANCE_FLOATS, MAX_SHADOW_SPOTS, type RenderScene } from '../scene/render-scene.ts';
import { SkinnedRaster, skinnedGBufferWgsl } from '../skinned-raster.ts';
import { SsaoPass } from '../ssao/ssao-pass.ts';
import type { SsaoOptions } from '../ssao/api.ts';
import type { Layouts, Modules } from './layouts.ts';
import { createPipeline, SHADOW_CASTING } from './pipelines.ts';
import { DEPTH_FORMAT, MOTION_FORMAT, TargetsMemo, type Targets } from './targets.ts';

export const SHADOW_LAYERS = 1 + MAX_SHADOW_SPOTS;
/** Dynamic-offset slots of the depth-view uniform: one per shadow layer (the sun, then each spot). */
export const VIEW_SLOT_BYTES = 256;
export const WORD = 4;

export interface CoreOptions {
  format: GPUTextureFormat;
  maxLights: number;
  technique: Technique;
  tileSize: TileSize;
  tileWalk: CullWalk;
  shadowMapSize: number;
  transparentShadows: 'simple' | 'separate-depth';
  timestamps: boolean;
  ssao: Partial<SsaoOptions>;
}

export interface DrawLists {
  scene: RenderScene;
  version: number;
  groups: DrawGroup[];
  order: ArrayLike<number>;
  transparent: number[];
}

export class RendererCore {
  readonly device: GPUDevice;
  readonly format: GPUTextureFormat;
  readonly shadowMapSize: number;
  readonly transparentShadows: 'simple' | 'separate-depth';
  readonly culler: TileCuller;
  readonly ssaoPass: SsaoPass;
  readonly layouts: Layouts;
  readonly modules: Modules;
  readonly emptyGroup: GPUBindGroup;
  readonly fluids: FluidPasses;
  readonly skinnedRaster: SkinnedRaster;
  readonly forward: ForwardOpaque;
  readonly frameUniform: GPUBuffer;
  readonly frameData = new Float32Array(FRAME_BYTES / WORD);
  readonly viewUniform: GPUBuffer;
  readonly tonemapUniform: GPUBuffer;
  readonly shadowMaps: GPUTexture;
  readonly shadowFilters: GPUTexture;
  readonly transparentShadowMaps: GPUTexture;
  readonly samplers: { shadow: GPUSampler; filter: GPUSampler };
  readonly timing: { querySet: GPUQuerySet; resolve: GPUBuffer; readback: GPUBuffer } | undefined;
  /** The frame graph's transient textures, kept from frame to frame. */
  readonly pool: TransientPool;
  readonly targets = new TargetsMemo();
  /** The renderer's own instance buffer, for scenes without an instances allocator. */
  #ownInstances: GPUBuffer;
  /** What binding 1 of the frame and depth groups reads: the own buffer or a scene's range. */
  #instances: GPUBufferBinding;
  slots: GPUBuffer;
  readonly #pipelines = new Map<string, GPURenderPipeline>();
  readonly #pixelPipelines = new Map<string, GPUComputePipeline>();
  #filterClear: { pipeline: GPUComputePipeline; group: GPUBindGroup } | undefined;
  #tonemapCompute: GPUComputePipeline | undefined;
  #tonemapComputeGroup: { texture: GPUTexture; hdr: GPUTexture; group: GPUBindGroup } | undefined;
  readonly #tonemapGroups = new WeakMap<GPUTexture, GPUBindGroup>();
  readonly #deferredGroups = new WeakMap<Targets, GPUBindGroup>();
  #ambientOcclusion: GPUTexture | undefined;
  #frameGroup: GPUBindGroup | undefined;
  #depthGroup: GPUBindGroup | undefined;
  #cullGroup: GPUBindGroup | undefined;
  #cullTiles: GPUBuffer | undefined;
  #lists: DrawLists | undefined;

  constructor(device: GPUDevice, options: CoreOptions) {
    this.device = device;
    this.format = options.format;
    this.shadowMapSize = options.shadowMapSize;
    this.transparentShadows = options.transparentShadows;
    this.ssaoPass = new SsaoPass(device, { normals: 'improved', ...options.ssao });
    this.culler = new TileCuller(device, { technique: options.technique, maxEntities: options.maxLights, tileSize: options.tileSize });
    this.pool = new TransientPool(device, 'cuttle.render');
    // The frame's shading inputs are read by the compute passes too (lighting, fluid).
    const visibility = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE;
    const shading = GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE;
    this.layouts = {
      frame: device.createBindGroupLayout({
        label: 'cuttle.render.frame',
        entries: [
          { binding: 0, visibility, buffer: { type: 'uniform' } },
          { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
          { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
          { binding: 3, visibility: shading, texture: { sampleType: 'depth', viewDimension: '2d-array' } },
          { binding: 4, visibility: shading, texture: { sampleType: 'float', viewDimension: '2d-array' } },
          { binding: 5, visibility: shading, sampler: { type: 'comparison' } },
          { binding: 6, visibility: shading, sampler: { type: 'filtering' } },
          { binding: 7, visibility: shading, texture: { sampleType: 'unfilterable-float' } },
          { binding: 8, visibility: shading, texture: { sampleType: 'depth', viewDimension: '2d-array' } },
        ],
      }),
      depthFrame: device.createBindGroupLayout({
        label: 'cuttle.render.depth-view',
        entries: [
          { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: 'uniform', hasDynamicOffset: true } },
          { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
          { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
        ],
      }),
      cull: device.createBindGroupLayout({ label: 'cuttle.render.culling', entries: this.culler.bindGroupLayoutEntries(0, shading) }),
      material: device.createBindGroupLayout(MATERIAL_LAYOUT),
      // The lighting pass reads the depth and the G-buffer and writes the HDR target (forward.wgsl).
      deferred: device.createBindGroupLayout({
        label: 'cuttle.render.deferred',
        entries: [
          computeDepth(10),
          { binding: 11, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'uint' } },
          { binding: 12, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
          computeHdrOut(14),
          // The still surfaces' motion vectors (still_motion; the lighting pass leaves them be).
          { binding: 15, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format: MOTION_FORMAT } },
        ],
      }),
      empty: device.createBindGroupLayout({ label: 'cuttle.render.empty', entries: [] }),
    };
    this.emptyGroup = device.createBindGroup({ layout: this.layouts.empty, entries: [] });
    this.modules = {
      depth: device.createShaderModule({ label: 'cuttle.render.depth', code: commonWgsl + depthWgsl }),
      forward: device.createShaderModule({ label: 'cuttle.render.forward', code: this.culler.shaderModule({ group: 1, walk: options.tileWalk }) + commonWgsl + forwardWgsl + fluidWgsl + skinnedGBufferWgsl() }),
      tonemap: device.createShaderModule({ label: 'cuttle.render.tonemap', code: tonemapWgsl }),
    };
    this.fluids = new FluidPasses(device, { module: this.modules.forward, frameLayout: this.layouts.frame, cullLayout: this.layouts.cull, emptyLayout: this.layouts.empty, emptyGroup: this.emptyGroup, depthFormat: DEPTH_FORMAT });
    this.skinnedRaster = new SkinnedRaster(device, {
      forwardModule: this.modules.forward, frameLayout: this.layouts.frame, emptyLayout: this.layouts.empty, cullLayout: this.layouts.cull, materialLayout: this.layouts.material, depthFormat: DEPTH_FORMAT,
      shadowBias: { constant: SHADOW_CASTING.depthStencil!.depthBias!, slope: SHADOW_CASTING.depthStencil!.depthBiasSlopeScale! },
    });
    this.forward = new ForwardOpaque(device, { module: this.modules.forward, layouts: this.layouts, depthFormat: DEPTH_FORMAT, motionFormat: MOTION_FORMAT });
    this.frameUniform = device.createBuffer({ label: 'cuttle.render.frame', size: FRAME_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.viewUniform = device.createBuffer({ label: 'cuttle.render.depth-views', size: VIEW_SLOT_BYTES * SHADOW_LAYERS, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.tonemapUniform = device.createBuffer({ label: 'cuttle.render.tonemap', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.tonemapUniform, 0, new Uint32Array([options.format.endsWith('-srgb') ? 0 : 1, 0, 0, 0]));
    const size = options.shadowMapSize;
    const layered = (label: string, format: GPUTextureFormat, layers: number, side = size): GPUTexture =>
      device.createTexture({ label: `cuttle.render.${label}`, size: [side, side, layers], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    this.shadowMaps = layered('shadow-maps', DEPTH_FORMAT, SHADOW_LAYERS);
    this.shadowFilters = device.createTexture({ label: 'cuttle.render.shadow-filters', size: [size, size, SHADOW_LAYERS], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING });
    this.transparentShadowMaps = options.transparentShadows === 'separate-depth' ? layered('transparent-shadow-maps', DEPTH_FORMAT, SHADOW_LAYERS) : layered('transparent-shadow-maps', DEPTH_FORMAT, 1, 1);
    this.samplers = {
      shadow: device.createSampler({ label: 'cuttle.render.shadow', compare: 'less', magFilter: 'linear', minFilter: 'linear' }),
      filter: device.createSampler({ label: 'cuttle.render.filter', magFilter: 'linear', minFilter: 'linear' }),
    };
    this.#ownInstances = device.createBuffer({ label: 'cuttle.render.instances', size: 64 * INSTANCE_FLOATS * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#instances = { buffer: this.#ownInstances };
    this.slots = device.createBuffer({ label: 'cuttle.render.draw-slots', size: 64 * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    if (options.timestamps && device.features.has('timestamp-query')) {
      const count = PASSES.length * 2;
      this.timing = {
        querySet: device.createQuerySet({ label: 'cuttle.render.timestamps', type: 'timestamp', count }),
        resolve: device.createBuffer({ size: count * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
        readback: device.createBuffer({ size: count * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ }),
      };
    }
  }

  /** A render pipeline by its variant name (made on first use; see pipelines.ts). */
  pipeline(name: string): GPURenderPipeline {
    let pipeline = this.#pipelines.get(name);
    if (!pipeline) {
      pipeline = createPipeline(this, name);
      this.#pipelines.set(name, pipeline);
    }
    return pipeline;
  }

  /** The per-pixel compute passes' pipelines (forward.wgsl's still_motion and deferred_shade). */
  pixelPipeline(entryPoint: 'still_motion' | 'deferred_shade'): GPUComputePipeline {
    let pipeline = this.#pixelPipelines.get(entryPoint);
    if (!pipeline) {
      const lit = entryPoint === 'deferred_shade';
      pipeline = this.device.createComputePipeline({
        label: `cuttle.render.${entryPoint}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.layouts.frame, lit ? this.layouts.cull : this.layouts.empty, this.layouts.deferred] }),
        compute: { module: this.modules.forward, entryPoint },
      });
      this.#pixelPipelines.set(entryPoint, pipeline);
    }
    return pipeline;
  }

  /** The compute pass that sets the colour filters to white (filter-clear.wgsl), and its group. */
  filterClear(): { pipeline: GPUComputePipeline; group: GPUBindGroup } {
    this.#filterClear ??= (() => {
      const pipeline = this.device.createComputePipeline({
        label: 'cuttle.render.filter-clear',
        layout: 'auto',
        compute: { module: this.device.createShaderModule({ label: 'cuttle.render.filter-clear', code: filterClearWgsl }), entryPoint: 'clear_filters' },
      });
      const group = this.device.createBindGroup({ label: 'cuttle.render.filter-clear', layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: this.shadowFilters.createView({ dimension: '2d-array' }) }] });
      return { pipeline, group };
    })();
    return this.#filterClear;
  }

  /** The compute tone mapping's pipeline, for this renderer's format. */
  tonemapCompute(): GPUComputePipeline {
    this.#tonemapCompute ??= this.device.createComputePipeline({
      label: 'cuttle.render.tonemap-compute',
      layout: 'auto',
      compute: { module: this.device.createShaderModule({ label: 'cuttle.render.tonemap-compute', code: tonemapWgsl + tonemapComputeWgsl.replaceAll('OUTPUT_FORMAT', this.format) }), entryPoint: 'tonemap_compute' },
    });
    return this.#tonemapCompute;
  }

  /** The compute tone mapping's group: made again only when the target texture or the HDR target changes. */
  tonemapComputeGroup(texture: GPUTexture, hdr: GPUTexture): GPUBindGroup {
    const cached = this.#tonemapComputeGroup;
    if (cached?.texture === texture && cached.hdr === hdr) return cached.group;
    const group = this.device.createBindGroup({
      label: 'cuttle.render.tonemap-compute',
      layout: this.tonemapCompute().getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: hdr.createView() },
        { binding: 1, resource: { buffer: this.tonemapUniform } },
        { binding: 2, resource: texture.createView({ dimension: '2d', baseMipLevel: 0, mipLevelCount: 1, baseArrayLayer: 0, arrayLayerCount: 1 }) },
      ],
    });
    this.#tonemapComputeGroup = { texture, hdr, group };
    return group;
  }

  /** The full-screen tone mapping's group over `hdr`. */
  tonemapGroup(hdr: GPUTexture): GPUBindGroup {
    let group = this.#tonemapGroups.get(hdr);
    if (!group) {
      group = this.device.createBindGroup({
        label: 'cuttle.render.tonemap',
        layout: this.pipeline('tonemap').getBindGroupLayout(0),
        entries: [{ binding: 0, resource: hdr.createView() }, { binding: 1, resource: { buffer: this.tonemapUniform } }],
      });
      this.#tonemapGroups.set(hdr, group);
    }
    return group;
  }

  /** The ambient occlusion texture for frames of this size (bound in every lit pass, so it outlives frames). */
  ambientOcclusion(width: number, height: number): GPUTexture {
    const current = this.#ambientOcclusion;
    if (current?.width === width && current.height === height) return current;
    current?.destroy();
    this.#frameGroup = undefined;
    this.#ambientOcclusion = this.device.createTexture({ label: 'cuttle.render.ambient-occlusion', size: [width, height], format: 'r32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING });
    return this.#ambientOcclusion;
  }

  /** Group 0 of the camera's passes: the frame uniform, instances, draw slots, shadow maps, samplers, occlusion. */
  frameGroup(): GPUBindGroup {
    this.#frameGroup ??= this.device.createBindGroup({
      label: 'cuttle.render.frame',
      layout: this.layouts.frame,
      entries: [
        { binding: 0, resource: { buffer: this.frameUniform } },
        { binding: 1, resource: this.#instances },
        { binding: 2, resource: { buffer: this.slots } },
        { binding: 3, resource: this.shadowMaps.createView({ dimension: '2d-array' }) },
        { binding: 4, resource: this.shadowFilters.createView({ dimension: '2d-array' }) },
        { binding: 5, resource: this.samplers.shadow },
        { binding: 6, resource: this.samplers.filter },
        { binding: 7, resource: this.#ambientOcclusion!.createView() },
        { binding: 8, resource: this.transparentShadowMaps.createView({ dimension: '2d-array' }) },
      ],
    });
    return this.#frameGroup;
  }

  /** Group 0 of the depth-only passes (shadow layers): a view per layer by dynamic offset, instances, slots. */
  depthGroup(): GPUBindGroup {
    this.#depthGroup ??= this.device.createBindGroup({
      label: 'cuttle.render.depth-view',
      layout: this.layouts.depthFrame,
      entries: [
        { binding: 0, resource: { buffer: this.viewUniform, size: 64 } },
        { binding: 1, resource: this.#instances },
        { binding: 2, resource: { buffer: this.slots } },
      ],
    });
    return this.#depthGroup;
  }

  /** The culled tiles' group (after this frame's cull; rebuilt when the culler's buffers grow). */
  culledGroup(): GPUBindGroup {
    const tiles = this.culler.tileBuffer;
    if (tiles !== this.#cullTiles || !this.#cullGroup) {
      this.#cullTiles = tiles;
      this.#cullGroup = this.device.createBindGroup({ label: 'cuttle.render.culling', layout: this.layouts.cull, entries: this.culler.bindGroupEntries(0) });
    }
    return this.#cullGroup;
  }

  /** The lighting and still-motion passes' group: the depth, the G-buffer, the HDR and motion targets. */
  deferredGroup(targets: Targets): GPUBindGroup {
    let group = this.#deferredGroups.get(targets);
    if (!group) {
      const gbuffer = targets.gbuffer!;
      group = this.device.createBindGroup({
        label: 'cuttle.render.deferred',
        layout: this.layouts.deferred,
        entries: [
          { binding: 10, resource: targets.depth.createView() },
          { binding: 11, resource: gbuffer.surfaces.createView() },
          { binding: 12, resource: gbuffer.emissive.createView() },
          { binding: 14, resource: targets.hdr.createView() },
          { binding: 15, resource: targets.motion.createView() },
        ],
      });
      this.#deferredGroups.set(targets, group);
    }
    return group;
  }

  /**
   * Uploads the instances into the scene's range (when it has an instances allocator) or the
   * renderer's own buffer, and rebuilds the groups that bind them when that changes.
   */
  upload(scene: RenderScene): void {
    const data = scene.instanceData;
    const range = scene.instanceBuffer;
    let binding: GPUBufferBinding;
    if (range) {
      binding = range;
    } else {
      this.#ownInstances = this.#fit(this.#ownInstances, data.byteLength, 'instances');
      binding = { buffer: this.#ownInstances };
    }
    const current = this.#instances;
    if (binding.buffer !== current.buffer || binding.offset !== current.offset || binding.size !== current.size) {
      this.#instances = range ? { buffer: range.buffer, offset: range.offset, size: range.size } : binding;
      this.#frameGroup = undefined;
      this.#depthGroup = undefined;
    }
    if (data.byteLength > 0) this.device.queue.writeBuffer(binding.buffer, binding.offset ?? 0, data);
  }

  /** Uploads the draw slots: the opaque order, then the transparents back to front. */
  uploadSlots(slots: Uint32Array<ArrayBuffer>): void {
    this.slots = this.#fit(this.slots, slots.byteLength, 'draw-slots');
    this.device.queue.writeBuffer(this.slots, 0, slots);
  }

  /** The scene's opaque groups, draw order and transparents (rebuilt when its structure changes). */
  drawLists(scene: RenderScene): DrawLists {
    if (this.#lists?.scene !== scene || this.#lists.version !== scene.structureVersion) {
      this.#lists = { scene, version: scene.structureVersion, ...buildOpaqueGroups(scene) };
    }
    return this.#lists;
  }

  destroy(): void {
    this.culler.destroy();
    this.ssaoPass.destroy();
    for (const buffer of [this.frameUniform, this.viewUniform, this.tonemapUniform, this.#ownInstances, this.slots]) buffer.destroy();
    for (const texture of [this.shadowMaps, this.shadowFilters, this.transparentShadowMaps]) texture.destroy();
    this.#ambientOcclusion?.destroy();
    this.pool.destroy();
    this.fluids.destroy();
    this.skinnedRaster.destroy();
    this.timing?.querySet.destroy();
    this.timing?.resolve.destroy();
    this.timing?.readback.destroy();
  }

  /** `buffer`, or a larger one when `bytes` do not fit (the bind groups holding it are then rebuilt). */
  #fit(buffer: GPUBuffer, bytes: number, label: string): GPUBuffer {
    if (bytes <= buffer.size) return buffer;
    buffer.destroy();
    this.#frameGroup = undefined;
    this.#depthGroup = undefined;
    return this.device.createBuffer({ label: `cuttle.render.${label}`, size: Math.max(bytes, buffer.size * 2), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  }
}

import { resolveCamera, TileCuller, type Technique, type TileSize } from '@cuttle/gpu-culling';
import { skinnedVertexLayouts, type VertexFormat } from '@cuttle/gpu-skinning';
import type { Gui, GuiRenderer } from '@cuttle/gui';
import commonWgsl from './shaders/common.wgsl?raw';
import depthWgsl from './shaders/depth.wgsl?raw';
import forwardWgsl from './shaders/forward.wgsl?raw';
import fluidWgsl from './shaders/fluid.wgsl?raw';
import tonemapWgsl from './shaders/tonemap.wgsl?raw';
import tonemapComputeWgsl from './shaders/tonemap-compute.wgsl?raw';
import filterClearWgsl from './shaders/filter-clear.wgsl?raw';
import { PASSES, type PassName, type RenderCamera, type Vec3 } from './api.ts';
import { buildOpaqueGroups, sortBackToFront, type DrawGroup } from './draw-lists.ts';
import { drawMeshGroup, drawSkinnedInstances, MESH_VERTEX_BUFFERS } from './draw-group.ts';
import { RenderError } from './errors.ts';
import { FRAME_BYTES, packFrame } from './frame-uniform.ts';
import { FluidPasses } from './fluid-passes.ts';
import { ForwardOpaque } from './forward-opaque.ts';
import { SkinnedRaster, skinnedGBufferWgsl } from './skinned-raster.ts';
import { computeDepth, computeHdrOut } from './layout-entries.ts';
import { MATERIAL_LAYOUT } from './scene/materials.ts';
import { SsaoPass } from './ssao/ssao-pass.ts';
import type { NormalMethod, SsaoOptions } from './ssao/api.ts';
import { INSTANCE_FLOATS, MAX_SHADOW_SPOTS, type RenderScene, type SkinnedDraw } from './scene/render-scene.ts';
import { multiplyMat4, spotClipFromWorld, sunClipFromWorld } from './shadow-views.ts';
import { IDENTITY, invert4 } from './ssao/matrix.ts';

export interface RendererOptions {
  /** Format of the targets `render` draws into (a canvas's preferred format, or rgba8unorm offscreen). */
  format: GPUTextureFormat;
  /** Most culled lights, decals and probes per frame (default 4096). */
  maxLights?: number;
  /** Tile culling storage (default 'flat-bits') and tile size (default 16). */
  technique?: Technique;
  tileSize?: TileSize;
  /** Side of every shadow map in texels (default 2048). */
  shadowMapSize?: number;
  /**
   * 'simple': the post's colour filter, transparents receive no coloured shadow (default);
   * 'separate-depth': a transparent shadow depth map too, so transparents tint transparents.
   */
  transparentShadows?: 'simple' | 'separate-depth';
  /** Strength of the water's caustics (default 1). */
  caustics?: number;
  /** Linear light where no probe reaches (default 0.03, 0.03, 0.04). */
  ambient?: Vec3;
  exposure?: number;
  /** Time every pass with timestamp queries when the device has `timestamp-query` (default true). */
  timestamps?: boolean;
  /**
   * Ambient occlusion from the camera's depth (normals reconstructed the post's improved way by
   * default): false to leave it out, or SsaoPass options. Switchable later through `ssao`.
   */
  ssao?: boolean | Partial<SsaoOptions>;
  /**
   * How skinned meshes reach the shadow maps and the G-buffer. 'compute' (default): rasterized in
   * compute, a workgroup per instance, then one rectangle per draw writes the pixels they won (on
   * an H100 the courtyard's 1,000 characters cost 1.1 ms of the 4K frame this way, 4.5 through
   * the raster hardware). 'hardware': drawn like any mesh. Masked materials always take the
   * hardware path.
   */
  skinnedRaster?: 'compute' | 'hardware';
  /**
   * How opaque surfaces are lit. 'deferred' (default): the opaque pass writes a G-buffer and a
   * compute pass lights every pixel of it. 'forward': a depth prepass, then forward+ (each
   * surface lit in its fragment shader from its tile's culled lights, where the prepass kept it);
   * on an H100 the deferred path is much faster (BENCHMARKS.md).
   */
  opaqueShading?: 'deferred' | 'forward';
}

export interface RenderTarget {
  /** The view the tone-mapped frame lands in (format = options.format). */
  view: GPUTextureView;
  width: number;
  height: number;
  /**
   * The texture of `view`, optional. When it has STORAGE_BINDING usage and a format storage
   * textures allow (rgba8unorm, rgba16float, rgba32float, or bgra8unorm on a device with
   * 'bgra8unorm-storage'), tone mapping runs as a compute pass writing it (1.4 ms faster at 4K
   * on an H100 than the full-screen draw); `view` must then show its whole first mip level.
   */
  texture?: GPUTexture;
}

/** Formats the compute tone mapping can write (bgra8unorm only with 'bgra8unorm-storage'). */
const STORAGE_TONEMAP_FORMATS: ReadonlySet<GPUTextureFormat> = new Set(['rgba8unorm', 'rgba16float', 'rgba32float', 'bgra8unorm']);

/** A @cuttle/gui Gui drawn over the tone-mapped frame by its GuiRenderer (made for the same format). */
export interface GuiOverlay {
  gui: Gui;
  renderer: GuiRenderer;
}

interface Targets {
  width: number;
  height: number;
  depth: GPUTexture;
  hdr: GPUTexture;
  motion: GPUTexture;
  ambientOcclusion: GPUTexture;
  /** The opaque pass's G-buffer (forward.wgsl's GBufferOut; emissive written only when the scene glows) and the group the lighting pass reads it through. */
  gbuffer: { surfaces: GPUTexture; emissive: GPUTexture; group?: GPUBindGroup };
  tonemapGroup: GPUBindGroup;
}

const DEPTH_FORMAT: GPUTextureFormat = 'depth32float';
/** Motion vectors (x, y; z and w spare): a format compute can write, for still_motion. */
const MOTION_FORMAT: GPUTextureFormat = 'rgba16float';
/** Shadow maps keep both sides and lean their depths away from the light against acne. */
const SHADOW_CASTING: Pick<GPURenderPipelineDescriptor, 'primitive' | 'depthStencil'> = {
  primitive: { topology: 'triangle-list', cullMode: 'none' },
  depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less', depthBias: 2, depthBiasSlopeScale: 2.5 },
};
const SHADOW_LAYERS = 1 + MAX_SHADOW_SPOTS;
/** Dynamic-offset slots of the depth-view uniform: one per shadow layer (the sun, then each spot). */
const VIEW_SLOT_BYTES = 256;
const WORD = 4;

/**
 * A small renderer: shadow maps (sun and spots, with transparent colour filters and caustics),
 * a G-buffer pass that also writes the depth, tiled culling (@cuttle/gpu-culling), the opaque
 * surfaces lit in compute (tiled deferred) with motion vectors, sorted forward+ transparents,
 * tone mapping. Renders into any view of `format`: a canvas
 * in the browser, an offscreen texture in Node.
 */
/** Whether any instance of `group` moved since the last frame (no array made: once per group per frame). */
function groupMoved(scene: RenderScene, order: readonly number[], group: DrawGroup): boolean {
  for (let k = group.first; k < group.first + group.count; k++) if (scene.instanceMoved(order[k]!)) return true;
  return false;
}

export class Renderer {
  readonly culler: TileCuller;
  readonly format: GPUTextureFormat;
  readonly shadowMapSize: number;
  readonly transparentShadows: 'simple' | 'separate-depth';
  /** How skinned meshes are rasterized (RendererOptions.skinnedRaster); switchable between frames. */
  skinnedRaster: 'compute' | 'hardware';
  /** How opaque surfaces are lit (RendererOptions.opaqueShading); switchable between frames. */
  opaqueShading: 'deferred' | 'forward';
  caustics: number;
  ambient: Vec3;
  exposure: number;
  /** Whether frames compute and apply ambient occlusion. */
  ssao: boolean;
  readonly #ssaoPass: SsaoPass;
  readonly #device: GPUDevice;
  readonly #layouts: {
    frame: GPUBindGroupLayout;
    depthFrame: GPUBindGroupLayout;
    cull: GPUBindGroupLayout;
    material: GPUBindGroupLayout;
    deferred: GPUBindGroupLayout;
    empty: GPUBindGroupLayout;
  };
  readonly #emptyGroup: GPUBindGroup;
  readonly #fluids: FluidPasses;
  readonly #skinnedRaster: SkinnedRaster;
  readonly #forward: ForwardOpaque;
  /** The per-pixel compute passes' pipelines, by entry point. */
  readonly #pixelPipelines = new Map<string, GPUComputePipeline>();
  #filterClear: { pipeline: GPUComputePipeline; group: GPUBindGroup } | undefined;
  readonly #modules: { depth: GPUShaderModule; forward: GPUShaderModule; tonemap: GPUShaderModule };
  readonly #pipelines = new Map<string, GPURenderPipeline>();
  readonly #frameUniform: GPUBuffer;
  readonly #frameData = new Float32Array(FRAME_BYTES / WORD);
  readonly #viewUniform: GPUBuffer;
  readonly #tonemapUniform: GPUBuffer;
  #tonemapCompute: GPUComputePipeline | undefined;
  /** The compute tone mapping's group for the last target texture (an offscreen target is reused frame after frame). */
  #tonemapComputeGroup: { texture: GPUTexture; hdr: GPUTexture; group: GPUBindGroup } | undefined;
  readonly #shadowMaps: GPUTexture;
  readonly #shadowFilters: GPUTexture;
  readonly #transparentShadowMaps: GPUTexture;
  readonly #samplers: { shadow: GPUSampler; filter: GPUSampler };
  readonly #timing: { querySet: GPUQuerySet; resolve: GPUBuffer; readback: GPUBuffer } | undefined;
  #timingState: 'idle' | 'copied' | 'mapping' = 'idle';
  #timings: Partial<Record<PassName, number>> = {};
  /** The passes the frame whose timestamps were copied ran. */
  #timedPasses: ReadonlySet<PassName> = new Set();
  #pendingTimings: Promise<void> | undefined;
  #instances: GPUBuffer;
  #slots: GPUBuffer;
  #targets: Targets | undefined;
  #frameGroup: GPUBindGroup | undefined;
  #depthGroup: GPUBindGroup | undefined;
  #cullGroup: GPUBindGroup | undefined;
  #cullTiles: GPUBuffer | undefined;
  #lists: { scene: RenderScene; version: number; groups: DrawGroup[]; order: number[]; transparent: number[] } | undefined;
  #previousClipFromWorld: Float32Array | undefined;
  #destroyed = false;

  constructor(device: GPUDevice, options: RendererOptions) {
    const shadowMapSize = options.shadowMapSize ?? 2048;
    if (!Number.isInteger(shadowMapSize) || shadowMapSize < 16 || shadowMapSize > device.limits.maxTextureDimension2D) {
      throw new RenderError(`shadowMapSize must be an integer in 16..${device.limits.maxTextureDimension2D}, got ${shadowMapSize}.`);
    }
    const transparentShadows = options.transparentShadows ?? 'simple';
    const skinnedRaster = options.skinnedRaster ?? 'compute';
    if (!['compute', 'hardware'].includes(skinnedRaster)) throw new RenderError(`skinnedRaster must be 'compute' or 'hardware', got ${skinnedRaster}.`);
    const opaqueShading = options.opaqueShading ?? 'deferred';
    if (!['deferred', 'forward'].includes(opaqueShading)) throw new RenderError(`opaqueShading must be 'deferred' or 'forward', got ${opaqueShading}.`);
    if (!['simple', 'separate-depth'].includes(transparentShadows)) throw new RenderError(`transparentShadows must be 'simple' or 'separate-depth', got ${transparentShadows}.`);
    this.#device = device;
    this.format = options.format;
    this.shadowMapSize = shadowMapSize;
    this.transparentShadows = transparentShadows;
    this.skinnedRaster = skinnedRaster;
    this.opaqueShading = opaqueShading;
    this.caustics = options.caustics ?? 1;
    this.ambient = options.ambient ?? [0.03, 0.03, 0.04];
    this.exposure = options.exposure ?? 1;
    this.ssao = options.ssao !== false;
    this.#ssaoPass = new SsaoPass(device, { normals: 'improved', ...(typeof options.ssao === 'object' ? options.ssao : {}) });
    this.culler = new TileCuller(device, { technique: options.technique ?? 'flat-bits', maxEntities: options.maxLights ?? 4096, tileSize: options.tileSize ?? 16 });

    // The frame's shading inputs are read by the compute passes too (lighting, fluid).
    const visibility = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE;
    const shading = GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE;
    this.#layouts = {
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
    this.#emptyGroup = device.createBindGroup({ layout: this.#layouts.empty, entries: [] });
    this.#modules = {
      depth: device.createShaderModule({ label: 'cuttle.render.depth', code: commonWgsl + depthWgsl }),
      forward: device.createShaderModule({ label: 'cuttle.render.forward', code: this.culler.shaderModule({ group: 1 }) + commonWgsl + forwardWgsl + fluidWgsl + skinnedGBufferWgsl() }),
      tonemap: device.createShaderModule({ label: 'cuttle.render.tonemap', code: tonemapWgsl }),
    };
    this.#fluids = new FluidPasses(device, { module: this.#modules.forward, frameLayout: this.#layouts.frame, cullLayout: this.#layouts.cull, emptyLayout: this.#layouts.empty, emptyGroup: this.#emptyGroup, depthFormat: DEPTH_FORMAT });
    this.#skinnedRaster = new SkinnedRaster(device, {
      forwardModule: this.#modules.forward, frameLayout: this.#layouts.frame, emptyLayout: this.#layouts.empty, cullLayout: this.#layouts.cull, materialLayout: this.#layouts.material, depthFormat: DEPTH_FORMAT,
      shadowBias: { constant: SHADOW_CASTING.depthStencil!.depthBias!, slope: SHADOW_CASTING.depthStencil!.depthBiasSlopeScale! },
    });
    this.#forward = new ForwardOpaque(device, { module: this.#modules.forward, layouts: this.#layouts, depthFormat: DEPTH_FORMAT, motionFormat: MOTION_FORMAT });
    this.#frameUniform = device.createBuffer({ label: 'cuttle.render.frame', size: FRAME_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#viewUniform = device.createBuffer({ label: 'cuttle.render.depth-views', size: VIEW_SLOT_BYTES * SHADOW_LAYERS, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#tonemapUniform = device.createBuffer({ label: 'cuttle.render.tonemap', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.#tonemapUniform, 0, new Uint32Array([options.format.endsWith('-srgb') ? 0 : 1, 0, 0, 0]));
    const layered = (label: string, format: GPUTextureFormat, layers: number, size = shadowMapSize): GPUTexture =>
      device.createTexture({ label: `cuttle.render.${label}`, size: [size, size, layers], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    this.#shadowMaps = layered('shadow-maps', DEPTH_FORMAT, SHADOW_LAYERS);
    this.#shadowFilters = device.createTexture({ label: 'cuttle.render.shadow-filters', size: [shadowMapSize, shadowMapSize, SHADOW_LAYERS], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING });
    this.#transparentShadowMaps = transparentShadows === 'separate-depth' ? layered('transparent-shadow-maps', DEPTH_FORMAT, SHADOW_LAYERS) : layered('transparent-shadow-maps', DEPTH_FORMAT, 1, 1);
    this.#samplers = {
      shadow: device.createSampler({ label: 'cuttle.render.shadow', compare: 'less', magFilter: 'linear', minFilter: 'linear' }),
      filter: device.createSampler({ label: 'cuttle.render.filter', magFilter: 'linear', minFilter: 'linear' }),
    };
    this.#instances = device.createBuffer({ label: 'cuttle.render.instances', size: 64 * INSTANCE_FLOATS * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#slots = device.createBuffer({ label: 'cuttle.render.draw-slots', size: 64 * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    if ((options.timestamps ?? true) && device.features.has('timestamp-query')) {
      const count = PASSES.length * 2;
      this.#timing = {
        querySet: device.createQuerySet({ label: 'cuttle.render.timestamps', type: 'timestamp', count }),
        resolve: device.createBuffer({ size: count * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
        readback: device.createBuffer({ size: count * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ }),
      };
    }
  }

  /** How SSAO reconstructs normals from depth: 'improved' (default) or 'naive' (the post's edge artifacts). */
  get ssaoNormals(): NormalMethod {
    return this.#ssaoPass.normals;
  }

  set ssaoNormals(method: NormalMethod) {
    this.#ssaoPass.normals = method;
  }

  /** The SSAO pass, for its other settings (radius, samples, strength) through `configure`. */
  get ssaoPass(): SsaoPass {
    return this.#ssaoPass;
  }

  /** GPU milliseconds per pass of the latest frame whose timings were read (empty without timestamp-query). */
  get timings(): Readonly<Partial<Record<PassName, number>>> {
    return this.#timings;
  }

  /** The frame's depth, HDR colour, motion vectors and ambient occlusion (after the first render). */
  get targets(): Readonly<Omit<Targets, 'tonemapGroup'>> | undefined {
    return this.#targets;
  }

  /** Records one frame of `scene` seen by `camera` into `encoder`, tone-mapped into `target`. */
  render(encoder: GPUCommandEncoder, scene: RenderScene, camera: RenderCamera, target: RenderTarget, overlays: readonly GuiOverlay[] = []): void {
    if (this.#destroyed) throw new RenderError('this Renderer was destroyed.');
    if (scene.device !== this.#device) throw new RenderError('the scene was made for another device.');
    const { width, height } = target;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RenderError(`target size must be positive integers, got ${width}x${height}.`);
    if (target.texture && (target.texture.width !== width || target.texture.height !== height || target.texture.format !== this.format)) {
      throw new RenderError(`target.texture is ${target.texture.width}x${target.texture.height} ${target.texture.format}; it must be the ${width}x${height} ${this.format} texture of target.view (or leave it out).`);
    }
    const resolved = resolveCamera(camera);
    this.culler.setCamera(camera);
    this.culler.setEntities(scene.lights);
    const targets = this.#ensureTargets(width, height);
    const reversed = resolved.reversedZ;

    // Instances and draw order.
    this.#upload(scene);
    const lists = this.#drawLists(scene);
    const transparent = sortBackToFront(scene, lists.transparent, resolved.position);
    const slots = new Uint32Array(lists.order.length + transparent.length);
    slots.set(lists.order);
    slots.set(transparent, lists.order.length);
    this.#slots = this.#fit(this.#slots, slots.byteLength, 'draw-slots');
    this.#device.queue.writeBuffer(this.#slots, 0, slots);
    if (!this.#frameGroup || !this.#depthGroup) this.#buildGroups();

    // Cameras: the main view and every shadow layer's view.
    const clipFromWorld = multiplyMat4(camera.projection, camera.view);
    const previous = this.#previousClipFromWorld ?? clipFromWorld;
    const bounds = scene.shadowBounds ?? sceneBounds(scene);
    const sun = scene.sun;
    const sunView = sun ? sunClipFromWorld(sun.direction, [bounds[0], bounds[1], bounds[2]], bounds[3]) : clipFromWorld;
    const spotViews = scene.shadowSpots.map((spot) => spotClipFromWorld(spot.position, spot.direction, spot.range, spot.outerAngle));
    const views = new Float32Array((VIEW_SLOT_BYTES / WORD) * SHADOW_LAYERS);
    views.set(sunView, 0);
    spotViews.forEach((view, s) => { views.set(view, (VIEW_SLOT_BYTES / WORD) * (1 + s)); });
    this.#device.queue.writeBuffer(this.#viewUniform, 0, views);
    packFrame(scene, {
      clipFromWorld, previousClipFromWorld: previous, sunClipFromWorld: sunView, spotClipFromWorld: spotViews,
      cameraPosition: resolved.position, exposure: this.exposure, ambient: this.ambient, ambientOcclusion: this.ssao,
      width, height, shadowTexel: 1 / this.shadowMapSize, caustics: this.caustics, transparentShadows: this.transparentShadows === 'simple' ? 0 : 1, reversedZ: reversed,
      cameraRight: [camera.view[0]!, camera.view[4]!, camera.view[8]!, 0], cameraUp: [camera.view[1]!, camera.view[5]!, camera.view[9]!, 0],
      worldFromClip: invert4(clipFromWorld) ?? IDENTITY, emissive: scene.hasEmissive,
    }, this.#frameData);
    this.#device.queue.writeBuffer(this.#frameUniform, 0, this.#frameData);
    this.#previousClipFromWorld = clipFromWorld;

    const timestamps = this.#timing && this.#timingState === 'idle' ? this.#timing.querySet : undefined;
    // The passes this frame times: the others read 0, not what an earlier frame left in their queries.
    const timed = new Set<PassName>();
    const stamp = (pass: PassName, begin: boolean, end: boolean): { timestampWrites?: GPURenderPassTimestampWrites } => {
      if (!timestamps || (!begin && !end)) return {};
      timed.add(pass);
      const index = PASSES.indexOf(pass) * 2;
      return { timestampWrites: { querySet: timestamps, ...(begin ? { beginningOfPassWriteIndex: index } : {}), ...(end ? { endOfPassWriteIndex: index + 1 } : {}) } };
    };

    // Skinning first: every later pass draws its output.
    const skinnings = [...new Set(scene.skinned.map((draw) => draw.skinning))];
    const skinIndex = PASSES.indexOf('skinning') * 2;
    if (skinnings.length > 0) timed.add('skinning');
    skinnings.forEach((skinning, k) => {
      skinning.skin(encoder, timestamps ? { querySet: timestamps, ...(k === 0 ? { beginIndex: skinIndex } : {}), ...(k === skinnings.length - 1 ? { endIndex: skinIndex + 1 } : {}) } : undefined);
    });
    // Only the shadow layers the shading reads: the sun's (when it casts shadows) and each shadow spot's.
    const layers: number[] = [];
    if (sun?.shadows) layers.push(0);
    scene.shadowSpots.forEach((_, s) => layers.push(1 + s));
    const computed = this.#skinnedRaster.fits(width, height, this.shadowMapSize) ? this.#computeSkinned(scene) : [];
    if (computed.length > 0) {
      const cullBack = computed.map((draw) => !scene.material(draw.material).doubleSided);
      const layerViews = layers.map((layer) => views.subarray(layer * (VIEW_SLOT_BYTES / WORD), layer * (VIEW_SLOT_BYTES / WORD) + 16));
      this.#skinnedRaster.prepare(computed, cullBack, { clipFromWorld, width, height, reversed }, layerViews, this.shadowMapSize);
      if (layers.length > 0) this.#skinnedRaster.shadows(encoder, stamp('shadows', true, false));
    }
    this.#shadowPasses(encoder, scene, lists, transparent, layers, computed, stamp);
    const fluids = this.#fluids.prepare(scene, clipFromWorld, width, height);
    const forward = this.opaqueShading === 'forward';
    const skinned = { hardware: scene.skinned.filter((draw) => !computed.includes(draw)), computed, raster: this.#skinnedRaster };
    if (forward) {
      // Forward+: the depth prepass (timed as 'depth', with the fluid's splat) before culling and SSAO.
      if (computed.length > 0) this.#skinnedRaster.camera(encoder, stamp('depth', true, false));
      this.#forward.prepass(encoder, scene, lists.groups, targets, reversed, skinned, { frame: this.#frameGroup!, empty: this.#emptyGroup }, stamp('depth', computed.length === 0, fluids.length === 0));
      if (fluids.length > 0) this.#fluids.splat(encoder, fluids, targets, this.#frameGroup!, reversed, {}, stamp('depth', false, true));
    } else {
      if (computed.length > 0) this.#skinnedRaster.camera(encoder, stamp('opaque', true, false));
      this.#gbufferPass(encoder, scene, lists, targets, reversed, computed, stamp('opaque', computed.length === 0, false));
      this.#pixelPass(encoder, targets, 'still_motion', stamp('opaque', false, true));
      if (fluids.length > 0) this.#fluids.splat(encoder, fluids, targets, this.#frameGroup!, reversed, stamp('depth', true, false), stamp('depth', false, true));
    }
    const cullIndex = PASSES.indexOf('culling') * 2;
    timed.add('culling');
    this.culler.cull(encoder, targets.depth, timestamps ? { querySet: timestamps, beginIndex: cullIndex, endIndex: cullIndex + 1 } : undefined);
    if (this.ssao) {
      const ssaoIndex = PASSES.indexOf('ssao') * 2;
      timed.add('ssao');
      this.#ssaoPass.run(encoder, { depth: targets.depth, camera, output: targets.ambientOcclusion, ...(timestamps ? { timestamps: { querySet: timestamps, beginIndex: ssaoIndex, endIndex: ssaoIndex + 1 } } : {}) });
    }
    if (forward) this.#forward.shade(encoder, scene, lists.groups, targets, skinned, { frame: this.#frameGroup!, cull: this.#culledGroup() }, stamp('opaque', true, true));
    else this.#pixelPass(encoder, targets, 'deferred_shade', stamp('lighting', true, true));
    // Where a particle won, the G-buffer holds the surface behind it (the splat came after it):
    // the fluid's shading lights those pixels over what the lighting pass wrote.
    if (fluids.length > 0) this.#fluids.shade(encoder, fluids, targets, this.#frameGroup!, this.#culledGroup(), stamp('fluid', true, true));
    this.#transparentPass(encoder, scene, lists, transparent, targets, reversed, stamp('transparent', true, true));
    this.#tonemap(encoder, targets, target, stamp('tonemap', true, true));
    if (overlays.length > 0) {
      // GUI last, over the tone-mapped frame, in its own pass (no depth).
      const gui = encoder.beginRenderPass({ label: 'cuttle.render.gui', colorAttachments: [{ view: target.view, loadOp: 'load', storeOp: 'store' }] });
      for (const overlay of overlays) overlay.renderer.draw(gui, overlay.gui, width, height);
      gui.end();
    }
    if (timestamps && this.#timing) {
      encoder.resolveQuerySet(this.#timing.querySet, 0, PASSES.length * 2, this.#timing.resolve, 0);
      encoder.copyBufferToBuffer(this.#timing.resolve, 0, this.#timing.readback, 0, PASSES.length * 16);
      this.#timingState = 'copied';
      this.#timedPasses = timed;
    }
    scene.settleMotion();
  }

  /**
   * After the frame's commands were submitted: reads its pass timings (ms). Passes a frame did
   * not run (no shadows, no SSAO) read 0. Resolves at once with the last timings when none are pending.
   */
  readTimings(): Promise<Readonly<Partial<Record<PassName, number>>>> {
    const timing = this.#timing;
    if (!timing || this.#timingState !== 'copied') return (this.#pendingTimings ?? Promise.resolve()).then(() => this.#timings);
    this.#timingState = 'mapping';
    this.#pendingTimings = timing.readback.mapAsync(GPUMapMode.READ).then(() => {
      const stamps = new BigUint64Array(timing.readback.getMappedRange());
      const timings: Partial<Record<PassName, number>> = {};
      PASSES.forEach((pass, p) => {
        const begin = stamps[p * 2]!, end = stamps[p * 2 + 1]!;
        timings[pass] = this.#timedPasses.has(pass) && end > begin ? Number(end - begin) / 1e6 : 0;
      });
      timing.readback.unmap();
      this.#timings = timings;
      this.#timingState = 'idle';
    });
    return this.#pendingTimings.then(() => this.#timings);
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.culler.destroy();
    this.#ssaoPass.destroy();
    for (const buffer of [this.#frameUniform, this.#viewUniform, this.#tonemapUniform, this.#instances, this.#slots]) buffer.destroy();
    for (const texture of [this.#shadowMaps, this.#shadowFilters, this.#transparentShadowMaps]) texture.destroy();
    this.#destroyTargets();
    this.#fluids.destroy();
    this.#skinnedRaster.destroy();
    this.#timing?.querySet.destroy();
    this.#timing?.resolve.destroy();
    this.#timing?.readback.destroy();
  }

  /** The shadow layers' passes; the skinned draws in `computed` come from the compute raster (its pass ran first). */
  #shadowPasses(encoder: GPUCommandEncoder, scene: RenderScene, lists: { groups: DrawGroup[]; order: number[] }, transparent: number[], layers: readonly number[], computed: readonly SkinnedDraw[], stamp: (pass: PassName, begin: boolean, end: boolean) => object): void {
    if (layers.length === 0) return;
    this.#clearFilters(encoder, Math.max(...layers) + 1, computed.length === 0 ? stamp('shadows', true, false) : {});
    layers.forEach((layer, k) => {
      const last = k === layers.length - 1;
      const viewOffset = layer * VIEW_SLOT_BYTES;
      const depthView = this.#shadowMaps.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 });
      const pass = encoder.beginRenderPass({
        label: `cuttle.render.shadow${layer}`,
        colorAttachments: [],
        depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' },
      });
      this.#drawShadowCasters(pass, scene, lists.groups, viewOffset);
      this.#drawSkinned(pass, scene, 'shadow', false, viewOffset, computed);
      if (computed.length > 0) this.#skinnedRaster.resolveShadow(pass, k);
      pass.end();
      if (this.transparentShadows === 'separate-depth') {
        const transparentDepth = encoder.beginRenderPass({
          label: `cuttle.render.transparent-shadow${layer}`,
          colorAttachments: [],
          depthStencilAttachment: { view: this.#transparentShadowMaps.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 }), depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' },
        });
        this.#drawEach(transparentDepth, scene, transparent, lists.order.length, this.#pipeline('transparent-shadow-depth'), viewOffset);
        transparentDepth.end();
      }
      // The colour filter: white (cleared in compute: all light through), transparents multiplied in.
      const filter = encoder.beginRenderPass({
        label: `cuttle.render.shadow-filter${layer}`,
        colorAttachments: [{ view: this.#shadowFilters.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 }), loadOp: 'load', storeOp: 'store' }],
        depthStencilAttachment: { view: depthView, depthReadOnly: true },
        ...(last ? stamp('shadows', false, true) : {}),
      });
      this.#drawEach(filter, scene, transparent, lists.order.length, this.#pipeline('shadow-filter'), viewOffset);
      filter.end();
    });
  }

  /** The first `layers` colour filters set to white (filter-clear.wgsl). */
  #clearFilters(encoder: GPUCommandEncoder, layers: number, timestampWrites: object): void {
    this.#filterClear ??= (() => {
      const pipeline = this.#device.createComputePipeline({
        label: 'cuttle.render.filter-clear',
        layout: 'auto',
        compute: { module: this.#device.createShaderModule({ label: 'cuttle.render.filter-clear', code: filterClearWgsl }), entryPoint: 'clear_filters' },
      });
      const group = this.#device.createBindGroup({ label: 'cuttle.render.filter-clear', layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: this.#shadowFilters.createView({ dimension: '2d-array' }) }] });
      return { pipeline, group };
    })();
    const pass = encoder.beginComputePass({ label: 'cuttle.render.filter-clear', ...timestampWrites });
    pass.setPipeline(this.#filterClear.pipeline);
    pass.setBindGroup(0, this.#filterClear.group);
    pass.dispatchWorkgroups(Math.ceil(this.shadowMapSize / 8), Math.ceil(this.shadowMapSize / 8), layers);
    pass.end();
  }

  /** The HDR frame tone-mapped into the target: a compute pass where the target allows it, else a full-screen draw. */
  #tonemap(encoder: GPUCommandEncoder, targets: Targets, target: RenderTarget, timestampWrites: { timestampWrites?: GPURenderPassTimestampWrites }): void {
    const texture = target.texture;
    const storable = STORAGE_TONEMAP_FORMATS.has(this.format) && (this.format !== 'bgra8unorm' || this.#device.features.has('bgra8unorm-storage'));
    if (texture && storable && (texture.usage & GPUTextureUsage.STORAGE_BINDING) !== 0) {
      this.#tonemapCompute ??= this.#device.createComputePipeline({
        label: 'cuttle.render.tonemap-compute',
        layout: 'auto',
        compute: { module: this.#device.createShaderModule({ label: 'cuttle.render.tonemap-compute', code: tonemapWgsl + tonemapComputeWgsl.replaceAll('OUTPUT_FORMAT', this.format) }), entryPoint: 'tonemap_compute' },
      });
      const pass = encoder.beginComputePass({ label: 'cuttle.render.tonemap', ...timestampWrites });
      pass.setPipeline(this.#tonemapCompute);
      pass.setBindGroup(0, this.#tonemapComputeBindGroup(this.#tonemapCompute, texture, targets.hdr));
      pass.dispatchWorkgroups(Math.ceil(targets.width / 8), Math.ceil(targets.height / 8));
      pass.end();
      return;
    }
    const pass = encoder.beginRenderPass({ label: 'cuttle.render.tonemap', colorAttachments: [{ view: target.view, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 1 }, storeOp: 'store' }], ...timestampWrites });
    pass.setPipeline(this.#pipeline('tonemap'));
    pass.setBindGroup(0, targets.tonemapGroup);
    pass.draw(3);
    pass.end();
  }

  /** The compute tone mapping's group: made again only when the target texture or the HDR target changes. */
  #tonemapComputeBindGroup(pipeline: GPUComputePipeline, texture: GPUTexture, hdr: GPUTexture): GPUBindGroup {
    const cached = this.#tonemapComputeGroup;
    if (cached?.texture === texture && cached.hdr === hdr) return cached.group;
    const group = this.#device.createBindGroup({
      label: 'cuttle.render.tonemap-compute',
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: hdr.createView() },
        { binding: 1, resource: { buffer: this.#tonemapUniform } },
        { binding: 2, resource: texture.createView({ dimension: '2d', baseMipLevel: 0, mipLevelCount: 1, baseArrayLayer: 0, arrayLayerCount: 1 }) },
      ],
    });
    this.#tonemapComputeGroup = { texture, hdr, group };
    return group;
  }

  /**
   * The opaque surfaces' G-buffer and the camera's depth in one pass (no depth prepass: the
   * lighting runs per pixel in compute, so overdraw only costs G-buffer writes, which was
   * cheaper on the H100 than rasterizing the scene twice).
   */
  #gbufferPass(encoder: GPUCommandEncoder, scene: RenderScene, lists: { groups: DrawGroup[]; order: readonly number[] }, targets: Targets, reversed: boolean, computed: readonly SkinnedDraw[], timestampWrites: object): void {
    // No target but the depth is cleared: on the H100 a clear through the raster hardware costs
    // about as much as writing the pixels. Where the depth stays clear (the sky) the G-buffer
    // holds whatever an earlier frame left, and the passes after read the depth first;
    // still_motion writes the motion of every pixel the pass did not.
    const kept = (texture: GPUTexture): GPURenderPassColorAttachment => ({ view: texture.createView(), loadOp: 'load', storeOp: 'store' });
    const { surfaces, emissive } = targets.gbuffer;
    const glow = scene.hasEmissive;
    const opaque = encoder.beginRenderPass({
      label: 'cuttle.render.opaque',
      colorAttachments: (glow ? [surfaces, targets.motion, emissive] : [surfaces, targets.motion]).map(kept),
      depthStencilAttachment: { view: targets.depth.createView(), depthLoadOp: 'clear', depthClearValue: reversed ? 0 : 1, depthStoreOp: 'store' },
      ...timestampWrites,
    });
    // Before culling: the G-buffer needs no lights (its pipelines leave group 1 empty).
    opaque.setBindGroup(0, this.#frameGroup);
    opaque.setBindGroup(1, this.#emptyGroup);
    // Characters first: they stand on the floor, so the depth test then spares the floor's writes under them.
    this.#drawSkinned(opaque, scene, 'opaque', reversed, 0, computed, glow);
    computed.forEach((draw, d) => {
      opaque.setBindGroup(2, scene.material(draw.material).group);
      this.#skinnedRaster.resolveCamera(opaque, d, glow, reversed);
    });
    const variant = `${glow ? '-glow' : ''}${reversed ? '-reversed' : ''}`;
    for (const group of lists.groups) {
      const material = scene.material(group.material);
      const moving = groupMoved(scene, lists.order, group);
      opaque.setPipeline(this.#pipeline(`opaque${material.doubleSided ? '-double' : ''}${moving ? '' : '-still'}${variant}`));
      this.#drawGroup(opaque, scene, group, material.group, true);
    }
    opaque.end();
  }

  /**
   * A compute pass over every pixel of the G-buffer (forward.wgsl): `still_motion` right after
   * the opaque pass (the still surfaces' motion vectors), `deferred_shade` after culling and SSAO
   * (the lighting, with the culled tiles).
   */
  #pixelPass(encoder: GPUCommandEncoder, targets: Targets, entryPoint: 'still_motion' | 'deferred_shade', timestampWrites: object): void {
    const lit = entryPoint === 'deferred_shade';
    let pipeline = this.#pixelPipelines.get(entryPoint);
    if (!pipeline) {
      pipeline = this.#device.createComputePipeline({
        label: `cuttle.render.${entryPoint}`,
        layout: this.#device.createPipelineLayout({ bindGroupLayouts: [this.#layouts.frame, lit ? this.#layouts.cull : this.#layouts.empty, this.#layouts.deferred] }),
        compute: { module: this.#modules.forward, entryPoint },
      });
      this.#pixelPipelines.set(entryPoint, pipeline);
    }
    const pass = encoder.beginComputePass({ label: `cuttle.render.${entryPoint}`, ...timestampWrites });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.#frameGroup);
    pass.setBindGroup(1, lit ? this.#culledGroup() : this.#emptyGroup);
    pass.setBindGroup(2, this.#deferredGroup(targets));
    pass.dispatchWorkgroups(Math.ceil(targets.width / 8), Math.ceil(targets.height / 8));
    pass.end();
  }

  /** The lighting and still-motion passes' group: the depth, the G-buffer, the HDR and motion targets. */
  #deferredGroup(targets: Targets): GPUBindGroup {
    const gbuffer = targets.gbuffer;
    gbuffer.group ??= this.#device.createBindGroup({
      label: 'cuttle.render.deferred',
      layout: this.#layouts.deferred,
      entries: [
        { binding: 10, resource: targets.depth.createView() },
        { binding: 11, resource: gbuffer.surfaces.createView() },
        { binding: 12, resource: gbuffer.emissive.createView() },
        { binding: 14, resource: targets.hdr.createView() },
        { binding: 15, resource: targets.motion.createView() },
      ],
    });
    return gbuffer.group;
  }

  /** Transparents, sorted back to front, lit forward over the lit opaque frame. */
  #transparentPass(encoder: GPUCommandEncoder, scene: RenderScene, lists: { order: number[] }, transparent: number[], targets: Targets, reversed: boolean, timestampWrites: object): void {
    const loaded = (texture: GPUTexture): GPURenderPassColorAttachment => ({ view: texture.createView(), loadOp: 'load', storeOp: 'store' });
    const blended = encoder.beginRenderPass({ label: 'cuttle.render.transparent', colorAttachments: [loaded(targets.hdr)], depthStencilAttachment: { view: targets.depth.createView(), depthReadOnly: true }, ...timestampWrites });
    this.#bindForward(blended);
    transparent.forEach((instance, k) => {
      const material = scene.material(scene.instanceMaterial(instance));
      blended.setPipeline(this.#pipeline(`transparent${material.doubleSided ? '-double' : ''}${reversed ? '-reversed' : ''}`));
      this.#drawGroup(blended, scene, { mesh: scene.instanceMesh(instance), material: material.id, first: lists.order.length + k, count: 1 }, material.group, true);
    });
    blended.end();
  }

  #bindForward(pass: GPURenderPassEncoder): void {
    pass.setBindGroup(0, this.#frameGroup);
    pass.setBindGroup(1, this.#culledGroup());
  }

  /** The culled tiles' group (after this frame's cull; rebuilt when the culler's buffers grow). */
  #culledGroup(): GPUBindGroup {
    const tiles = this.culler.tileBuffer;
    if (tiles !== this.#cullTiles || !this.#cullGroup) {
      this.#cullTiles = tiles;
      this.#cullGroup = this.#device.createBindGroup({ label: 'cuttle.render.culling', layout: this.#layouts.cull, entries: this.culler.bindGroupEntries(0) });
    }
    return this.#cullGroup;
  }

  /** Opaque and masked groups into a shadow layer's depth (the layer's view at `viewOffset`). */
  #drawShadowCasters(pass: GPURenderPassEncoder, scene: RenderScene, groups: DrawGroup[], viewOffset: number): void {
    pass.setBindGroup(0, this.#depthGroup, [viewOffset]);
    for (const group of groups) {
      const material = scene.material(group.material);
      const variant = `shadow-${material.mask ? 'masked' : 'opaque'}`;
      pass.setPipeline(this.#pipeline(variant));
      this.#drawGroup(pass, scene, group, material.group, false);
    }
  }

  /** The skinned draws the compute raster takes this frame (masked materials stay on the hardware path). */
  #computeSkinned(scene: RenderScene): SkinnedDraw[] {
    return this.skinnedRaster === 'compute' ? scene.skinned.filter((draw) => !scene.material(draw.material).mask) : [];
  }

  /** Skinned characters (but those in `computed`) into a shadow layer (its view at `viewOffset`) or the G-buffer pass. */
  #drawSkinned(pass: GPURenderPassEncoder, scene: RenderScene, kind: 'shadow' | 'opaque', reversed: boolean, viewOffset: number, computed: readonly SkinnedDraw[], glow = false): void {
    for (const draw of scene.skinned) {
      if (computed.includes(draw)) continue;
      const material = scene.material(draw.material);
      const format = draw.skinning.format;
      if (kind === 'opaque') {
        pass.setPipeline(this.#pipeline(`skinned-opaque-${format}${material.doubleSided ? '-double' : ''}${glow ? '-glow' : ''}${reversed ? '-reversed' : ''}`));
        pass.setBindGroup(2, material.group);
        draw.skinning.vertexBuffers.forEach((buffer, slot) => { pass.setVertexBuffer(slot, buffer); });
      } else {
        pass.setPipeline(this.#pipeline(`skinned-shadow-${format}-${material.mask ? 'masked' : 'opaque'}`));
        pass.setBindGroup(0, this.#depthGroup, [viewOffset]);
        pass.setBindGroup(1, material.group);
        pass.setVertexBuffer(0, draw.skinning.vertexBuffers[0]);
      }
      drawSkinnedInstances(pass, draw);
    }
  }

  /** One draw per instance (transparents), starting at draw slot `first`. */
  #drawEach(pass: GPURenderPassEncoder, scene: RenderScene, instances: number[], first: number, pipeline: GPURenderPipeline, viewOffset: number): void {
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.#depthGroup, [viewOffset]);
    instances.forEach((instance, k) => {
      const material = scene.material(scene.instanceMaterial(instance));
      this.#drawGroup(pass, scene, { mesh: scene.instanceMesh(instance), material: material.id, first: first + k, count: 1 }, material.group, false);
    });
  }

  #drawGroup(pass: GPURenderPassEncoder, scene: RenderScene, group: DrawGroup, materialGroup: GPUBindGroup, forward: boolean): void {
    drawMeshGroup(pass, scene, group, materialGroup, forward ? 2 : 1, forward);
  }

  #upload(scene: RenderScene): void {
    const data = scene.instanceData;
    this.#instances = this.#fit(this.#instances, data.byteLength, 'instances');
    if (data.byteLength > 0) this.#device.queue.writeBuffer(this.#instances, 0, data);
  }

  /** `buffer`, or a larger one when `bytes` do not fit (the bind groups holding it are then rebuilt). */
  #fit(buffer: GPUBuffer, bytes: number, label: string): GPUBuffer {
    if (bytes <= buffer.size) return buffer;
    buffer.destroy();
    this.#frameGroup = undefined;
    this.#depthGroup = undefined;
    return this.#device.createBuffer({ label: `cuttle.render.${label}`, size: Math.max(bytes, buffer.size * 2), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  }

  #drawLists(scene: RenderScene): { groups: DrawGroup[]; order: number[]; transparent: number[] } {
    if (this.#lists?.scene !== scene || this.#lists.version !== scene.structureVersion) {
      this.#lists = { scene, version: scene.structureVersion, ...buildOpaqueGroups(scene) };
    }
    return this.#lists;
  }

  #ensureTargets(width: number, height: number): Targets {
    if (this.#targets?.width === width && this.#targets.height === height) return this.#targets;
    this.#destroyTargets();
    const device = this.#device;
    const make = (label: string, format: GPUTextureFormat, usage: GPUTextureUsageFlags): GPUTexture => device.createTexture({ label: `cuttle.render.${label}`, size: [width, height], format, usage });
    // Storage too: the fluid's shading pass writes its pixels from compute.
    const hdr = make('hdr', 'rgba16float', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC | GPUTextureUsage.STORAGE_BINDING);
    const ambientOcclusion = make('ambient-occlusion', 'r32float', GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING);
    this.#targets = {
      width,
      height,
      depth: make('depth', DEPTH_FORMAT, GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC),
      hdr,
      motion: make('motion', MOTION_FORMAT, GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC),
      ambientOcclusion,
      gbuffer: {
        surfaces: make('gbuffer-surfaces', 'rg32uint', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING),
        emissive: make('gbuffer-emissive', 'rgba16float', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING),
      },
      tonemapGroup: device.createBindGroup({
        label: 'cuttle.render.tonemap',
        layout: this.#pipeline('tonemap').getBindGroupLayout(0),
        entries: [{ binding: 0, resource: hdr.createView() }, { binding: 1, resource: { buffer: this.#tonemapUniform } }],
      }),
    };
    this.#frameGroup = undefined;
    return this.#targets;
  }

  #buildGroups(): void {
    if (!this.#targets) return;
    const device = this.#device;
    this.#frameGroup = device.createBindGroup({
      label: 'cuttle.render.frame',
      layout: this.#layouts.frame,
      entries: [
        { binding: 0, resource: { buffer: this.#frameUniform } },
        { binding: 1, resource: { buffer: this.#instances } },
        { binding: 2, resource: { buffer: this.#slots } },
        { binding: 3, resource: this.#shadowMaps.createView({ dimension: '2d-array' }) },
        { binding: 4, resource: this.#shadowFilters.createView({ dimension: '2d-array' }) },
        { binding: 5, resource: this.#samplers.shadow },
        { binding: 6, resource: this.#samplers.filter },
        { binding: 7, resource: this.#targets.ambientOcclusion.createView() },
        { binding: 8, resource: this.#transparentShadowMaps.createView({ dimension: '2d-array' }) },
      ],
    });
    this.#depthGroup = device.createBindGroup({
      label: 'cuttle.render.depth-view',
      layout: this.#layouts.depthFrame,
      entries: [
        { binding: 0, resource: { buffer: this.#viewUniform, size: 64 } },
        { binding: 1, resource: { buffer: this.#instances } },
        { binding: 2, resource: { buffer: this.#slots } },
      ],
    });
  }

  #destroyTargets(): void {
    if (!this.#targets) return;
    const { gbuffer } = this.#targets;
    for (const texture of [this.#targets.depth, this.#targets.hdr, this.#targets.motion, this.#targets.ambientOcclusion, gbuffer.surfaces, gbuffer.emissive]) texture.destroy();
    this.#fluids.releaseTargets();
    this.#targets = undefined;
    this.#frameGroup = undefined;
  }

  #pipeline(name: string): GPURenderPipeline {
    let pipeline = this.#pipelines.get(name);
    if (!pipeline) {
      pipeline = this.#createPipeline(name);
      this.#pipelines.set(name, pipeline);
    }
    return pipeline;
  }

  #createPipeline(name: string): GPURenderPipeline {
    const device = this.#device;
    const [position, uv] = MESH_VERTEX_BUFFERS as [GPUVertexBufferLayout, GPUVertexBufferLayout];
    if (name === 'tonemap') {
      return device.createRenderPipeline({
        label: 'cuttle.render.tonemap',
        layout: 'auto',
        vertex: { module: this.#modules.tonemap, entryPoint: 'tonemap_vertex' },
        fragment: { module: this.#modules.tonemap, entryPoint: 'tonemap_fragment', targets: [{ format: this.format }] },
      });
    }
    const depthLayout = device.createPipelineLayout({ bindGroupLayouts: [this.#layouts.depthFrame, this.#layouts.material] });
    if (name.startsWith('skinned-shadow')) {
      const format = name.split('-')[2] as VertexFormat;
      const masked = name.includes('masked');
      const skinnedPosition: GPUVertexBufferLayout = { arrayStride: skinnedVertexLayouts(format)[0]!.arrayStride, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] };
      return device.createRenderPipeline({
        label: `cuttle.render.${name}`,
        layout: depthLayout,
        vertex: { module: this.#modules.depth, entryPoint: 'skinned_depth_vertex', buffers: [skinnedPosition] },
        ...(masked ? { fragment: { module: this.#modules.depth, entryPoint: 'depth_masked', targets: [] } } : {}),
        ...SHADOW_CASTING,
      });
    }
    if (name === 'shadow-opaque' || name === 'shadow-masked') {
      return device.createRenderPipeline({
        label: `cuttle.render.${name}`,
        layout: depthLayout,
        vertex: { module: this.#modules.depth, entryPoint: 'depth_vertex', buffers: [position, uv] },
        ...(name === 'shadow-masked' ? { fragment: { module: this.#modules.depth, entryPoint: 'depth_masked', targets: [] } } : {}),
        ...SHADOW_CASTING,
      });
    }
    if (name === 'shadow-filter' || name === 'transparent-shadow-depth') {
      const filter = name === 'shadow-filter';
      return device.createRenderPipeline({
        label: `cuttle.render.${name}`,
        layout: depthLayout,
        vertex: { module: this.#modules.depth, entryPoint: 'depth_vertex', buffers: [position, uv] },
        ...(filter
          ? {
              fragment: {
                module: this.#modules.depth,
                entryPoint: 'shadow_filter',
                // Colour multiplied in (any order gives the same product); caustics added in alpha.
                targets: [{ format: 'rgba8unorm', blend: { color: { srcFactor: 'dst', dstFactor: 'zero' }, alpha: { srcFactor: 'one', dstFactor: 'one' } } }],
              },
            }
          : {}),
        primitive: { topology: 'triangle-list', cullMode: 'none' },
        depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: !filter, depthCompare: 'less', ...(filter ? {} : { depthBias: 2, depthBiasSlopeScale: 2.5 }) },
      });
    }
    const skinned = name.startsWith('skinned-opaque');
    const transparent = name.startsWith('transparent');
    const still = name.includes('-still');
    return device.createRenderPipeline({
      label: `cuttle.render.${name}`,
      layout: device.createPipelineLayout({ bindGroupLayouts: [this.#layouts.frame, transparent ? this.#layouts.cull : this.#layouts.empty, this.#layouts.material] }),
      vertex: skinned
        ? { module: this.#modules.forward, entryPoint: 'skinned_vertex', buffers: skinnedVertexLayouts(name.split('-')[2] as VertexFormat) }
        : { module: this.#modules.forward, entryPoint: transparent ? 'mesh_vertex' : 'mesh_gbuffer_vertex', buffers: [...MESH_VERTEX_BUFFERS] },
      fragment: transparent
        ? {
            module: this.#modules.forward,
            entryPoint: 'transparent_fragment',
            // Transparents leave the motion vectors to the surfaces behind them.
            targets: [{ format: 'rgba16float', blend: { color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' } } }],
          }
        : {
            module: this.#modules.forward,
            // Skinned surfaces hand over fewer interpolants (no uvs or tangents): their own fragment entry.
            entryPoint: `gbuffer${skinned ? '_plain' : ''}${still ? '_still' : ''}${name.includes('-glow') ? '_glow' : ''}_fragment`,
            // Still surfaces leave the motion target alone (still_motion fills it in).
            targets: [{ format: 'rg32uint' }, { format: MOTION_FORMAT, writeMask: still ? 0 : GPUColorWrite.ALL }, ...(name.includes('-glow') ? [{ format: 'rgba16float' as const }] : [])],
          },
      // Skinned meshes follow their material like the rest (glTF: counter-clockwise fronts).
      primitive: { topology: 'triangle-list', cullMode: name.includes('-double') ? 'none' : 'back' },
      // The G-buffer pass writes the camera's depth; transparents test against it.
      depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: !transparent, depthCompare: name.endsWith('-reversed') ? 'greater' : 'less' },
    });
  }

}

/** Centre and radius of a sphere around every visible instance (what the sun's shadow map covers). */
function sceneBounds(scene: RenderScene): [number, number, number, number] {
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < scene.instanceCount; i++) {
    if (!scene.isVisible(i)) continue;
    const [x, y, z, r] = scene.instanceBounds(i);
    low[0] = Math.min(low[0]!, x - r); low[1] = Math.min(low[1]!, y - r); low[2] = Math.min(low[2]!, z - r);
    high[0] = Math.max(high[0]!, x + r); high[1] = Math.max(high[1]!, y + r); high[2] = Math.max(high[2]!, z + r);
  }
  if (low[0] === Infinity) return [0, 0, 0, 1];
  const center = [0, 1, 2].map((k) => (low[k]! + high[k]!) / 2);
  return [center[0]!, center[1]!, center[2]!, Math.hypot(high[0]! - center[0]!, high[1]! - center[1]!, high[2]! - center[2]!)];
}

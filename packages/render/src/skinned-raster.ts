// Skinned meshes rasterized in compute (shaders/skinned-raster.wgsl), for the shadow maps and the
// camera's G-buffer, then drawn from what that left (shaders/skinned-resolve.wgsl and
// skinned-gbuffer.wgsl): one rectangle per draw, so the raster hardware writes only the pixels
// the crowd covers instead of setting up each of its triangles. The Renderer owns one.
import type { VertexFormat } from '@cuttle/gpu-skinning';
import commonWgsl from './shaders/common.wgsl?raw';
import rasterCommonWgsl from './shaders/skinned-raster-common.wgsl?raw';
import rasterWgsl from './shaders/skinned-raster.wgsl?raw';
import resolveWgsl from './shaders/skinned-resolve.wgsl?raw';
import gbufferResolveWgsl from './shaders/skinned-gbuffer.wgsl?raw';
import type { SkinnedDraw } from './scene/render-scene.ts';

const WORD = 4;
/** A view's uniform slot (skinned-raster-common.wgsl's RasterView, 112 bytes), at the dynamic-offset alignment. */
const VIEW_BYTES = 256;
const VIEW_WORDS = VIEW_BYTES / WORD;
const MAX_GROUPS_X = 65535;
/** RasterView.flags (skinned-raster-common.wgsl). */
const RASTER_GREATER = 1;
const RASTER_CULL_BACK = 2;
const RASTER_INDEX_16 = 4;
/** A draw's box of pixels in a view (skinned-raster.wgsl's raster_boxes). */
const BOX_BYTES = 16;
const VERTEX_WORDS: Record<VertexFormat, number> = { packed: 4, f32: 12 };

/** The camera's view this frame. */
export interface RasterCamera {
  clipFromWorld: Float32Array;
  width: number;
  height: number;
  /** Reversed Z: the nearer surface has the greater depth. */
  reversed: boolean;
}

/**
 * Whether the compute raster's per-pixel buffers (one 4-byte word a pixel: the camera's
 * width x height, each shadow layer's shadowSize squared) fit a storage binding under `limits`.
 */
export function skinnedRasterFits(limits: Pick<GPUSupportedLimits, 'maxStorageBufferBindingSize' | 'maxBufferSize'>, width: number, height: number, shadowSize: number): boolean {
  return Math.max(width * height, shadowSize * shadowSize) * WORD <= Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
}

/** The WGSL the forward module appends (group 3 of the camera's resolve pipelines). */
export function skinnedGBufferWgsl(): string {
  return rasterCommonWgsl + resolveWgsl.replaceAll('RASTER_GROUP', '3') + gbufferResolveWgsl;
}

export interface SkinnedRasterOptions {
  /** The forward module, with skinnedGBufferWgsl() in it. */
  forwardModule: GPUShaderModule;
  /** Groups 0 to 2 of the camera's resolve pipelines: the frame's, an empty one (the culled tiles' when lit forward), the material's. */
  frameLayout: GPUBindGroupLayout;
  emptyLayout: GPUBindGroupLayout;
  cullLayout: GPUBindGroupLayout;
  materialLayout: GPUBindGroupLayout;
  depthFormat: GPUTextureFormat;
  /** The shadow maps' depth bias, as the hardware pipelines have it. */
  shadowBias: { constant: number; slope: number };
}

/** Per-pixel buffers of one kind of view: nearest-depth keys (and the winning triangles' ids). */
interface PixelBuffers {
  words: number;
  depths: GPUBuffer;
  /** The camera's only: shadow views keep no ids. */
  ids?: GPUBuffer;
}

export class SkinnedRaster {
  readonly #device: GPUDevice;
  readonly #options: SkinnedRasterOptions;
  readonly #layouts: { raster: GPUBindGroupLayout; resolve: GPUBindGroupLayout };
  /** Each draw's groups by use and view (dropped when the per-pixel buffers change). */
  #groups = new WeakMap<SkinnedDraw, Map<string, GPUBindGroup>>();
  readonly #kernels = new Map<string, GPUComputePipeline>();
  readonly #resolves = new Map<string, GPURenderPipeline>();
  readonly #depthModule: GPUShaderModule;
  readonly #rasterModule: GPUShaderModule;
  readonly #dummy: GPUBuffer;
  #uniform: GPUBuffer;
  #boxes: GPUBuffer;
  #camera: PixelBuffers | undefined;
  /** One per shadow layer slot (a layer of 4096 x 4096 texels alone is 64 MiB, half the usual binding limit). */
  #shadows: PixelBuffers[] = [];
  /** This frame's draws and views (prepare). */
  #frame: { draws: readonly SkinnedDraw[]; shadowLayers: number; width: number; height: number; shadowSize: number } | undefined;

  constructor(device: GPUDevice, options: SkinnedRasterOptions) {
    this.#device = device;
    this.#options = options;
    const storage = (binding: number, type: GPUBufferBindingType, visibility: number): GPUBindGroupLayoutEntry => ({ binding, visibility, buffer: { type } });
    const draw = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
    this.#layouts = {
      raster: device.createBindGroupLayout({
        label: 'cuttle.render.skinned-raster',
        entries: [
          { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
          ...[1, 2, 3].map((b) => storage(b, 'read-only-storage', GPUShaderStage.COMPUTE)),
          ...[4, 5, 6].map((b) => storage(b, 'storage', GPUShaderStage.COMPUTE)),
        ],
      }),
      resolve: device.createBindGroupLayout({
        label: 'cuttle.render.skinned-resolve',
        entries: [
          { binding: 0, visibility: draw, buffer: { type: 'uniform', hasDynamicOffset: true } },
          ...[1, 2, 3, 4, 5, 7].map((b) => storage(b, 'read-only-storage', GPUShaderStage.FRAGMENT)),
          storage(6, 'read-only-storage', draw),
        ],
      }),
    };
    this.#rasterModule = device.createShaderModule({ label: 'cuttle.render.skinned-raster', code: rasterCommonWgsl + rasterWgsl });
    this.#depthModule = device.createShaderModule({ label: 'cuttle.render.skinned-depth-resolve', code: commonWgsl + rasterCommonWgsl + resolveWgsl.replaceAll('RASTER_GROUP', '0') });
    this.#dummy = device.createBuffer({ label: 'cuttle.render.skinned-raster-none', size: 16, usage: GPUBufferUsage.STORAGE });
    this.#uniform = this.#buffer('views', VIEW_BYTES * 2, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    this.#boxes = this.#buffer('boxes', 256, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
  }

  /**
   * Whether a camera target of width x height and shadow maps of shadowSize texels a side fit
   * the device's storage bindings (one 4-byte word a pixel each); if not, draw skinned meshes on
   * the raster hardware.
   */
  fits(width: number, height: number, shadowSize: number): boolean {
    return skinnedRasterFits(this.#device.limits, width, height, shadowSize);
  }

  /**
   * This frame's draws and views: the camera's, and one per shadow layer (`shadows[k]` drawn into
   * layer slot k of the per-pixel buffers). `cullBack[d]` drops draw d's back faces from the camera.
   */
  prepare(draws: readonly SkinnedDraw[], cullBack: readonly boolean[], camera: RasterCamera, shadows: readonly Float32Array[], shadowSize: number): void {
    const views = 1 + shadows.length;
    this.#uniform = this.#fit(this.#uniform, 'views', VIEW_BYTES * views * Math.max(1, draws.length), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    this.#boxes = this.#fit(this.#boxes, 'boxes', BOX_BYTES * views * Math.max(1, draws.length), GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
    this.#camera = this.#pixels(this.#camera, 'camera', camera.width * camera.height);
    shadows.forEach((_, k) => { this.#shadows[k] = this.#pixels(this.#shadows[k], `shadow${k}`, shadowSize * shadowSize); });
    this.#frame = { draws, shadowLayers: shadows.length, width: camera.width, height: camera.height, shadowSize };

    const data = new ArrayBuffer(VIEW_BYTES * views * draws.length);
    const floats = new Float32Array(data), words = new Uint32Array(data);
    let idBase = 0;
    draws.forEach((draw, d) => {
      const triangles = draw.indexCount / 3;
      const instances = draw.instances.length;
      const index16 = draw.indexFormat === 'uint16' ? RASTER_INDEX_16 : 0;
      for (let view = 0; view < views; view++) {
        const at = (view * draws.length + d) * VIEW_WORDS;
        const shadow = view > 0;
        const [width, height] = shadow ? [shadowSize, shadowSize] : [camera.width, camera.height];
        // Shadow maps keep both sides, nearest depth the smallest; the camera follows the material and its Z.
        const flags = (shadow ? 0 : (camera.reversed ? RASTER_GREATER : 0) | (cullBack[d] ? RASTER_CULL_BACK : 0)) | index16;
        floats.set(shadow ? shadows[view - 1]! : camera.clipFromWorld, at);
        words.set([width, height, width, view * draws.length + d, idBase, triangles, instances, flags, Math.min(instances, MAX_GROUPS_X)], at + 16);
        floats.set(shadow ? [this.#options.shadowBias.constant, this.#options.shadowBias.slope] : [0, 0], at + 25);
      }
      idBase += triangles * instances;
    });
    if (data.byteLength > 0) this.#device.queue.writeBuffer(this.#uniform, 0, data);
  }

  /** The shadow layers' depths of every draw (a compute pass; prepare first). */
  shadows(encoder: GPUCommandEncoder, timestampWrites: object): void {
    const frame = this.#frame!;
    for (let layer = 0; layer < frame.shadowLayers; layer++) encoder.clearBuffer(this.#shadows[layer]!.depths, 0, frame.shadowSize * frame.shadowSize * WORD);
    encoder.clearBuffer(this.#boxes, BOX_BYTES * frame.draws.length, BOX_BYTES * frame.draws.length * frame.shadowLayers);
    const pass = encoder.beginComputePass({ label: 'cuttle.render.skinned-shadow-raster', ...timestampWrites });
    for (let layer = 0; layer < frame.shadowLayers; layer++) this.#dispatch(pass, 1 + layer, false);
    pass.end();
  }

  /** The camera's depths, then the ids of the triangles that won them (a compute pass; prepare first). */
  camera(encoder: GPUCommandEncoder, timestampWrites: object): void {
    const frame = this.#frame!;
    const pixels = this.#camera!;
    const bytes = frame.width * frame.height * WORD;
    encoder.clearBuffer(pixels.depths, 0, bytes);
    encoder.clearBuffer(pixels.ids!, 0, bytes);
    encoder.clearBuffer(this.#boxes, 0, BOX_BYTES * frame.draws.length);
    const pass = encoder.beginComputePass({ label: 'cuttle.render.skinned-raster', ...timestampWrites });
    this.#dispatch(pass, 0, false);
    this.#dispatch(pass, 0, true);
    pass.end();
  }

  /** Draws every draw's depths into shadow layer slot `layer` (in a depth-only pass, depth compare less). */
  resolveShadow(pass: GPURenderPassEncoder, layer: number): void {
    const frame = this.#frame!;
    pass.setPipeline(this.#resolvePipeline('shadow'));
    frame.draws.forEach((draw, d) => {
      pass.setBindGroup(0, this.#group(draw, 'resolve', 1 + layer), [this.#slot(1 + layer, d)]);
      pass.draw(6);
    });
  }

  /**
   * Draws draw `d`'s G-buffer surfaces and depths into the opaque pass (after its material group
   * is bound at 2, the frame's at 0 and the empty group at 1).
   */
  resolveCamera(pass: GPURenderPassEncoder, d: number, glow: boolean, reversed: boolean): void {
    const draw = this.#frame!.draws[d]!;
    pass.setPipeline(this.#resolvePipeline(`camera-${draw.skinning.format}${glow ? '-glow' : ''}${reversed ? '-reversed' : ''}`));
    pass.setBindGroup(3, this.#group(draw, 'resolve', 0), [this.#slot(0, d)]);
    pass.draw(6);
  }

  /** Draws every draw's depths into the camera's depth prepass (opaqueShading 'forward'). */
  resolveDepth(pass: GPURenderPassEncoder, reversed: boolean): void {
    pass.setPipeline(this.#resolvePipeline(`depth${reversed ? '-reversed' : ''}`));
    this.#frame!.draws.forEach((draw, d) => {
      pass.setBindGroup(0, this.#group(draw, 'resolve', 0), [this.#slot(0, d)]);
      pass.draw(6);
    });
  }

  /**
   * Lights draw `d`'s pixels in the forward opaque pass (opaqueShading 'forward'; after the
   * frame's group is bound at 0, the culled tiles' at 1 and the draw's material at 2).
   */
  resolveForward(pass: GPURenderPassEncoder, d: number): void {
    const draw = this.#frame!.draws[d]!;
    pass.setPipeline(this.#resolvePipeline(`forward-${draw.skinning.format}`));
    pass.setBindGroup(3, this.#group(draw, 'resolve', 0), [this.#slot(0, d)]);
    pass.draw(6);
  }

  destroy(): void {
    for (const pixels of [this.#camera, ...this.#shadows]) {
      pixels?.depths.destroy();
      pixels?.ids?.destroy();
    }
    for (const buffer of [this.#uniform, this.#boxes, this.#dummy]) buffer.destroy();
  }

  #slot(view: number, d: number): number {
    return (view * this.#frame!.draws.length + d) * VIEW_BYTES;
  }

  #dispatch(pass: GPUComputePassEncoder, view: number, ids: boolean): void {
    this.#frame!.draws.forEach((draw, d) => {
      const instances = draw.instances.length;
      if (instances === 0) return;
      pass.setPipeline(this.#kernel(draw.skinning.format, ids));
      pass.setBindGroup(0, this.#group(draw, 'raster', view), [this.#slot(view, d)]);
      const x = Math.min(instances, MAX_GROUPS_X);
      pass.dispatchWorkgroups(x, Math.ceil(instances / x));
    });
  }

  #kernel(format: VertexFormat, ids: boolean): GPUComputePipeline {
    const key = `${format}-${ids}`;
    let pipeline = this.#kernels.get(key);
    if (!pipeline) {
      pipeline = this.#device.createComputePipeline({
        label: `cuttle.render.skinned-raster-${key}`,
        layout: this.#device.createPipelineLayout({ bindGroupLayouts: [this.#layouts.raster] }),
        compute: { module: this.#rasterModule, entryPoint: 'raster_instances', constants: { RASTER_VERTEX_WORDS: VERTEX_WORDS[format], RASTER_IDS: ids ? 1 : 0 } },
      });
      this.#kernels.set(key, pipeline);
    }
    return pipeline;
  }

  #resolvePipeline(name: string): GPURenderPipeline {
    let pipeline = this.#resolves.get(name);
    if (pipeline) return pipeline;
    const device = this.#device, options = this.#options;
    if (name === 'shadow' || name.startsWith('depth')) {
      // Depths alone: a shadow layer's, or the camera's prepass.
      pipeline = device.createRenderPipeline({
        label: `cuttle.render.skinned-${name}-resolve`,
        layout: device.createPipelineLayout({ bindGroupLayouts: [this.#layouts.resolve] }),
        vertex: { module: this.#depthModule, entryPoint: 'skinned_resolve_vertex' },
        fragment: { module: this.#depthModule, entryPoint: 'skinned_shadow_resolve', targets: [] },
        primitive: { topology: 'triangle-list', cullMode: 'none' },
        depthStencil: { format: options.depthFormat, depthWriteEnabled: true, depthCompare: name.endsWith('-reversed') ? 'greater' : 'less' },
      });
    } else if (name.startsWith('forward')) {
      const format = name.split('-')[1] as VertexFormat;
      pipeline = device.createRenderPipeline({
        label: `cuttle.render.skinned-${name}`,
        layout: device.createPipelineLayout({ bindGroupLayouts: [options.frameLayout, options.cullLayout, options.materialLayout, this.#layouts.resolve] }),
        vertex: { module: options.forwardModule, entryPoint: 'skinned_resolve_vertex' },
        fragment: { module: options.forwardModule, entryPoint: 'skinned_forward_resolve', constants: { RASTER_VERTEX_WORDS: VERTEX_WORDS[format] }, targets: [{ format: 'rgba16float' }, { format: 'rgba16float' }] },
        primitive: { topology: 'triangle-list', cullMode: 'none' },
        // Where the prepass kept the same depth.
        depthStencil: { format: options.depthFormat, depthWriteEnabled: false, depthCompare: 'equal' },
      });
    } else {
      const glow = name.includes('-glow');
      const format = name.split('-')[1] as VertexFormat;
      pipeline = device.createRenderPipeline({
        label: `cuttle.render.skinned-${name}`,
        layout: device.createPipelineLayout({ bindGroupLayouts: [options.frameLayout, options.emptyLayout, options.materialLayout, this.#layouts.resolve] }),
        vertex: { module: options.forwardModule, entryPoint: 'skinned_resolve_vertex' },
        fragment: {
          module: options.forwardModule,
          entryPoint: glow ? 'skinned_gbuffer_glow_resolve' : 'skinned_gbuffer_resolve',
          constants: { RASTER_VERTEX_WORDS: VERTEX_WORDS[format] },
          targets: [{ format: 'rg32uint' }, { format: 'rgba16float' }, ...(glow ? [{ format: 'rgba16float' as const }] : [])],
        },
        primitive: { topology: 'triangle-list', cullMode: 'none' },
        depthStencil: { format: options.depthFormat, depthWriteEnabled: true, depthCompare: name.endsWith('-reversed') ? 'greater' : 'less' },
      });
    }
    this.#resolves.set(name, pipeline);
    return pipeline;
  }

  /** Draw `draw`'s group of `use` (the raster kernel's or the resolve's) for view `view` (0: the camera, 1 + k: shadow layer slot k). */
  #group(draw: SkinnedDraw, use: 'raster' | 'resolve', view: number): GPUBindGroup {
    let groups = this.#groups.get(draw);
    if (!groups) {
      groups = new Map();
      this.#groups.set(draw, groups);
    }
    const key = `${use}-${view}`;
    let group = groups.get(key);
    if (!group) {
      const pixels = view === 0 ? this.#camera! : this.#shadows[view - 1]!;
      const vertexBuffers = draw.skinning.vertexBuffers;
      const resources: GPUBuffer[] = [this.#uniform, vertexBuffers[0]!, draw.indices, draw.instanceRanges, pixels.depths, pixels.ids ?? this.#dummy, this.#boxes];
      if (use === 'resolve') resources.push(vertexBuffers.at(-1)!);
      group = this.#device.createBindGroup({
        label: `cuttle.render.skinned-${key}`,
        layout: use === 'raster' ? this.#layouts.raster : this.#layouts.resolve,
        entries: resources.map((buffer, binding) => ({ binding, resource: binding === 0 ? { buffer, size: VIEW_BYTES } : { buffer } })),
      });
      groups.set(key, group);
    }
    return group;
  }

  #buffer(label: string, size: number, usage: number): GPUBuffer {
    return this.#device.createBuffer({ label: `cuttle.render.skinned-raster-${label}`, size: Math.ceil(size / 16) * 16, usage });
  }

  /** `buffer`, or a larger one (every group made with the old one dropped) when it is too small. */
  #fit(buffer: GPUBuffer, label: string, size: number, usage: number): GPUBuffer {
    if (buffer.size >= size) return buffer;
    buffer.destroy();
    this.#dropGroups();
    return this.#buffer(label, size * 1.5, usage);
  }

  #pixels(pixels: PixelBuffers | undefined, label: string, words: number): PixelBuffers {
    if (pixels && pixels.words >= words) return pixels;
    pixels?.depths.destroy();
    pixels?.ids?.destroy();
    this.#dropGroups();
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const depths = this.#buffer(`${label}-depths`, words * WORD, usage);
    return label === 'camera' ? { words, depths, ids: this.#buffer(`${label}-ids`, words * WORD, usage) } : { words, depths };
  }

  #dropGroups(): void {
    this.#groups = new WeakMap();
  }
}

// The WebGPU side: materials (solid, textured atlas, distance-field text with outline, glow
// and shadow), one vertex buffer per batch of each Gui, patched from the batch's dirty pages,
// and one indexed draw per non-empty batch, in layer order. Draw calls therefore equal the
// number of (layer, material) pairs in use, however many objects there are.
import guiWgsl from './shaders/gui.wgsl?raw';
import type { GuiImage } from './api.ts';
import { GuiError } from './errors.ts';
import type { Gui } from './gui.ts';
import { PAGE_QUADS, type GuiBatch } from './gui-batch.ts';
import type { GuiFont } from './gui-font.ts';
import { SOLID_MATERIAL } from './gui-kinds.ts';
import { QUAD_BYTES, VERTEX_BYTES } from './vertex-format.ts';

/** Effects of a text material, drawn from the distance field: outline, glow and drop shadow (each off when absent). Colours are 0xRRGGBBAA. */
export interface TextStyle {
  /** Outline around the glyphs: width in texels of the font's pages (at most its spread). */
  outline?: { width: number; color: number };
  /** Glow fading out over `width` texels beyond the outline. */
  glow?: { width: number; color: number };
  /** Drop shadow: offset in texels, edge softness in texels. */
  shadow?: { offsetX: number; offsetY: number; softness?: number; color: number };
}

/** Options of an atlas material. */
export interface AtlasOptions {
  /** Sampling of the atlas (default 'linear'). */
  filter?: GPUFilterMode;
}

type MaterialKind = 'textured' | 'text';

interface Material {
  kind: MaterialKind;
  group: GPUBindGroup;
  style: GPUBuffer;
  texture: GPUTexture | undefined;
  spread: number;
  pageWidth: number;
  pageHeight: number;
}

interface BatchBuffer {
  buffer: GPUBuffer;
  generation: number;
}

interface GuiGpuState {
  view: GPUBuffer;
  clips: GPUBuffer;
  clipCapacity: number;
  clipVersion: number;
  group: GPUBindGroup;
  batches: Map<GuiBatch, BatchBuffer>;
}

const STYLE_BYTES = 80;

function unpackColor(rgba: number): number[] {
  return [(rgba >>> 24) / 255, ((rgba >>> 16) & 0xff) / 255, ((rgba >>> 8) & 0xff) / 255, (rgba & 0xff) / 255];
}

/**
 * The TextStyle uniform of gui.wgsl: outline, glow and shadow colours, then spread, outline
 * width, glow width, shadow softness, shadow offset and page size (texels). The TypeScript
 * reference renderer reads the same numbers.
 */
export function textStyleUniform(style: TextStyle, spread: number, pageWidth: number, pageHeight: number): Float32Array<ArrayBuffer> {
  const data = new Float32Array(STYLE_BYTES / 4);
  data.set(style.outline ? unpackColor(style.outline.color) : [0, 0, 0, 0], 0);
  data.set(style.glow ? unpackColor(style.glow.color) : [0, 0, 0, 0], 4);
  data.set(style.shadow ? unpackColor(style.shadow.color) : [0, 0, 0, 0], 8);
  data.set([spread, style.outline?.width ?? 0, style.glow?.width ?? 0, style.shadow?.softness ?? 0.5, style.shadow?.offsetX ?? 0, style.shadow?.offsetY ?? 0, pageWidth, pageHeight], 12);
  return data;
}

/**
 * Draws {@link Gui}s with WebGPU: materials (solid, textured atlas, distance-field text with outline, glow and shadow), one vertex buffer per batch patched from its dirty pages, and one indexed draw per non-empty batch in layer order.
 */
export class GuiRenderer {
  /** The device every buffer, texture and pipeline is created on. */
  readonly device: GPUDevice;
  /** Colour format of the render pass the renderer draws into (the pipelines' target). */
  readonly format: GPUTextureFormat;
  readonly #pipelines: Record<MaterialKind, GPURenderPipeline>;
  readonly #materials: Material[] = [];
  readonly #guis = new Map<Gui, GuiGpuState>();
  readonly #owned: { destroy(): unknown }[] = [];
  #index: GPUBuffer | undefined;
  #indexQuads = 0;
  /** Draw calls recorded by the latest draw(). */
  lastDrawCalls = 0;

  constructor(device: GPUDevice, format: GPUTextureFormat) {
    this.device = device;
    this.format = format;
    const module = device.createShaderModule({ label: 'cuttle.gui', code: guiWgsl });
    const blend: GPUBlendState = {
      color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
      alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
    };
    const vertexLayout: GPUVertexBufferLayout = {
      arrayStride: VERTEX_BYTES,
      attributes: [
        { shaderLocation: 0, offset: 0, format: 'float32x2' },
        { shaderLocation: 1, offset: 8, format: 'unorm16x2' },
        { shaderLocation: 2, offset: 12, format: 'unorm8x4' },
        { shaderLocation: 3, offset: 16, format: 'uint32' },
      ],
    };
    const groups = [
      device.createBindGroupLayout({
        label: 'cuttle.gui.view',
        entries: [
          { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: 'uniform' } },
          { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
        ],
      }),
      device.createBindGroupLayout({
        label: 'cuttle.gui.material',
        entries: [
          { binding: 0, visibility: GPUShaderStage.FRAGMENT, texture: { viewDimension: '2d-array' } },
          { binding: 1, visibility: GPUShaderStage.FRAGMENT, sampler: {} },
          { binding: 2, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } },
        ],
      }),
    ];
    const layout = device.createPipelineLayout({ label: 'cuttle.gui', bindGroupLayouts: groups });
    const pipeline = (kind: MaterialKind): GPURenderPipeline =>
      device.createRenderPipeline({
        label: `cuttle.gui.${kind}`,
        layout,
        vertex: { module, entryPoint: 'vs', buffers: [vertexLayout] },
        fragment: { module, entryPoint: kind === 'text' ? 'fs_text' : 'fs_textured', targets: [{ format, blend }] },
        primitive: { topology: 'triangle-list' },
      });
    this.#pipelines = { textured: pipeline('textured'), text: pipeline('text') };
    const white: GuiImage = { width: 1, height: 1, channels: 4, data: new Uint8Array([255, 255, 255, 255]) };
    const solid = this.createAtlasMaterial([white], { filter: 'nearest' });
    if (solid !== SOLID_MATERIAL) throw new GuiError('internal: the solid material must be material 0.');
  }

  /** Number of materials (ids run 0..count-1; 0 is solid colour). */
  get materialCount(): number {
    return this.#materials.length;
  }

  #track<T extends { destroy(): unknown }>(resource: T): T {
    this.#owned.push(resource);
    return resource;
  }

  #pagesTexture(pages: readonly GuiImage[], label: string): GPUTexture {
    const first = pages[0];
    if (!first) throw new GuiError(`${label}: at least one page image is needed.`);
    for (const [i, p] of pages.entries()) {
      if (p.width !== first.width || p.height !== first.height || p.channels !== first.channels) throw new GuiError(`${label}: page ${i} is ${p.width}x${p.height}x${p.channels}, page 0 is ${first.width}x${first.height}x${first.channels}; pages must match.`);
      if (p.data.length !== p.width * p.height * p.channels) throw new GuiError(`${label}: page ${i} holds ${p.data.length} bytes, ${p.width}x${p.height}x${p.channels} needs ${p.width * p.height * p.channels}.`);
    }
    const texture = this.#track(this.device.createTexture({
      label,
      size: [first.width, first.height, pages.length],
      format: first.channels === 1 ? 'r8unorm' : 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    }));
    pages.forEach((p, layer) => {
      this.device.queue.writeTexture({ texture, origin: [0, 0, layer] }, p.data as Uint8Array<ArrayBuffer>, { bytesPerRow: p.width * p.channels, rowsPerImage: p.height }, [p.width, p.height, 1]);
    });
    return texture;
  }

  #material(kind: MaterialKind, texture: GPUTexture, filter: GPUFilterMode, spread: number): number {
    if (this.#materials.length >= 0xffff) throw new GuiError('too many materials (65535).');
    const style = this.#track(this.device.createBuffer({ label: 'cuttle.gui.style', size: STYLE_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }));
    const sampler = this.device.createSampler({ magFilter: filter, minFilter: filter, addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge' });
    const group = this.device.createBindGroup({
      label: `cuttle.gui.material.${this.#materials.length}`,
      layout: this.#pipelines[kind].getBindGroupLayout(1),
      entries: [
        { binding: 0, resource: texture.createView({ dimension: '2d-array' }) },
        { binding: 1, resource: sampler },
        { binding: 2, resource: { buffer: style } },
      ],
    });
    this.#materials.push({ kind, group, style, texture, spread, pageWidth: texture.width, pageHeight: texture.height });
    return this.#materials.length - 1;
  }

  /**
   * A textured material: images/icons from an atlas. Pages are GuiImages (uploaded here) or
   * a GPUTexture with array layers; vertices pick the layer with `page`.
   */
  createAtlasMaterial(pages: readonly GuiImage[] | GPUTexture, options: AtlasOptions = {}): number {
    const texture = Array.isArray(pages) ? this.#pagesTexture(pages as readonly GuiImage[], 'cuttle.gui.atlas') : (pages as GPUTexture);
    const id = this.#material('textured', texture, options.filter ?? 'linear', 0);
    this.device.queue.writeBuffer(this.#materials[id]!.style, 0, new Float32Array(STYLE_BYTES / 4));
    return id;
  }

  /** A distance-field text material for `font`, whose pages are the distance-field images. */
  createTextMaterial(font: GuiFont, pages: readonly GuiImage[] | GPUTexture, style: TextStyle = {}): number {
    if (font.spread <= 0) throw new GuiError('createTextMaterial: the font has no distanceField block; make it with distanceFieldFont or cuttle-font first.');
    const texture = Array.isArray(pages) ? this.#pagesTexture(pages as readonly GuiImage[], 'cuttle.gui.font') : (pages as GPUTexture);
    if (texture.depthOrArrayLayers < font.pageCount) throw new GuiError(`createTextMaterial: the font has ${font.pageCount} page(s), the texture ${texture.depthOrArrayLayers} layer(s).`);
    const id = this.#material('text', texture, 'linear', font.spread);
    this.setTextStyle(id, style);
    return id;
  }

  /** Changes a text material's outline, glow and shadow. */
  setTextStyle(material: number, style: TextStyle): void {
    const m = this.#materials[material];
    if (m?.kind !== 'text') throw new GuiError(`setTextStyle: material ${material} is not a text material.`);
    for (const [name, width] of [['outline', style.outline?.width], ['glow', style.glow?.width]] as const) {
      if (width !== undefined && !(width >= 0)) throw new GuiError(`setTextStyle: ${name} width must be >= 0, got ${width}.`);
    }
    if (style.outline && style.outline.width > m.spread) throw new GuiError(`setTextStyle: outline width ${style.outline.width} exceeds the font's spread (${m.spread} texels); regenerate the font with a larger spread.`);
    const data = textStyleUniform(style, m.spread, m.pageWidth, m.pageHeight);
    this.device.queue.writeBuffer(m.style, 0, data);
  }

  #ensureIndex(quads: number): GPUBuffer {
    if (this.#index && this.#indexQuads >= quads) return this.#index;
    let capacity = Math.max(1024, this.#indexQuads);
    while (capacity < quads) capacity *= 2;
    const indices = new Uint32Array(capacity * 6);
    for (let q = 0; q < capacity; q++) {
      const v = q * 4;
      indices.set([v, v + 1, v + 2, v + 2, v + 1, v + 3], q * 6);
    }
    // The old buffer may still be referenced by a pass not yet submitted: let it be collected.
    this.#index = this.device.createBuffer({ label: 'cuttle.gui.indices', size: indices.byteLength, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    this.#owned.push(this.#index);
    this.device.queue.writeBuffer(this.#index, 0, indices);
    this.#indexQuads = capacity;
    return this.#index;
  }

  #state(gui: Gui): GuiGpuState {
    let state = this.#guis.get(gui);
    if (!state || state.clipCapacity < gui.clipCount) {
      const clipCapacity = Math.max(16, state ? state.clipCapacity * 2 : 16, gui.clipCount);
      const view = state?.view ?? this.#track(this.device.createBuffer({ label: 'cuttle.gui.view', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }));
      const clips = this.#track(this.device.createBuffer({ label: 'cuttle.gui.clips', size: clipCapacity * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }));
      const group = this.device.createBindGroup({
        label: 'cuttle.gui.view',
        layout: this.#pipelines.textured.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: view } },
          { binding: 1, resource: { buffer: clips } },
        ],
      });
      state = { view, clips, clipCapacity, clipVersion: -1, group, batches: state?.batches ?? new Map<GuiBatch, BatchBuffer>() };
      this.#guis.set(gui, state);
    }
    return state;
  }

  /** Copies the batch's dirty pages (all of it after a reallocation) into its GPU buffer. */
  #upload(state: GuiGpuState, batch: GuiBatch, immediate: boolean): GPUBuffer {
    let gpu = state.batches.get(batch);
    const bytes = batch.capacity * QUAD_BYTES;
    if (gpu?.generation !== batch.generation || gpu.buffer.size < bytes) {
      gpu = { buffer: this.#track(this.device.createBuffer({ label: `cuttle.gui.batch.${batch.layer}.${batch.material}`, size: bytes, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST })), generation: batch.generation };
      state.batches.set(batch, gpu);
      this.device.queue.writeBuffer(gpu.buffer, 0, batch.words.buffer, 0, batch.used * QUAD_BYTES);
    } else if (immediate) {
      this.device.queue.writeBuffer(gpu.buffer, 0, batch.words.buffer, 0, batch.used * QUAD_BYTES);
    } else if (batch.anyDirty) {
      const pages = Math.ceil(batch.used / PAGE_QUADS);
      for (let p = 0; p < pages; ) {
        if (!batch.dirtyPages[p]) {
          p++;
          continue;
        }
        let end = p + 1;
        while (end < pages && batch.dirtyPages[end]) end++;
        const from = p * PAGE_QUADS * QUAD_BYTES;
        const to = Math.min(end * PAGE_QUADS, batch.used) * QUAD_BYTES;
        this.device.queue.writeBuffer(gpu.buffer, from, batch.words.buffer, from, to - from);
        p = end;
      }
    }
    batch.clearDirty();
    return gpu.buffer;
  }

  /**
   * Uploads what changed in `gui` and records one draw per non-empty batch into `pass`,
   * whose target is `width` x `height` pixels. Returns the number of draw calls.
   */
  draw(pass: GPURenderPassEncoder, gui: Gui, width: number, height: number): number {
    if (!(width > 0 && height > 0)) throw new GuiError(`draw: target size must be positive, got ${width}x${height}.`);
    const state = this.#state(gui);
    this.device.queue.writeBuffer(state.view, 0, new Float32Array([width, height, 0, 0]));
    if (state.clipVersion !== gui.clipVersion) {
      this.device.queue.writeBuffer(state.clips, 0, gui.clipRects.buffer, 0, gui.clipCount * 16);
      state.clipVersion = gui.clipVersion;
    }
    let maxQuads = 0;
    for (const batch of gui.batches) maxQuads = Math.max(maxQuads, batch.used);
    const index = this.#ensureIndex(maxQuads);
    let calls = 0;
    let pipeline: GPURenderPipeline | undefined;
    for (const batch of gui.batches) {
      if (batch.used === 0) {
        batch.clearDirty();
        continue;
      }
      const material = this.#materials[batch.material];
      if (!material) throw new GuiError(`draw: material ${batch.material} (layer ${batch.layer}) does not exist in this renderer.`);
      const buffer = this.#upload(state, batch, gui.mode === 'immediate');
      const next = this.#pipelines[material.kind];
      if (next !== pipeline) {
        pass.setPipeline(next);
        pass.setBindGroup(0, state.group);
        pipeline = next;
      }
      pass.setBindGroup(1, material.group);
      pass.setVertexBuffer(0, buffer);
      pass.setIndexBuffer(index, 'uint32');
      pass.drawIndexed(batch.used * 6);
      calls++;
    }
    this.lastDrawCalls = calls;
    return calls;
  }

  /** Forgets a Gui's GPU buffers (they are destroyed with the renderer). */
  release(gui: Gui): void {
    this.#guis.delete(gui);
  }

  /** Destroys every GPU resource the renderer made (textures, uniform and vertex buffers of every material and Gui) and forgets its Guis. */
  destroy(): void {
    for (const resource of this.#owned) resource.destroy();
    this.#owned.length = 0;
    this.#guis.clear();
    this.#index = undefined;
    this.#indexQuads = 0;
  }
}

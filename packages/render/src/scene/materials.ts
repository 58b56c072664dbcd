// Materials and textures on the GPU. Each material is a small uniform block and a bind group
// of its five textures (base colour, metallic-roughness, normal, emissive, occlusion; 1x1
// defaults where absent) and a sampler, so a draw switches material with one setBindGroup.
import type { CompressedTextureInput, MaterialInput, TextureInput, TextureOptions } from '../api.ts';
import { RenderError } from '../errors.ts';
import { MipGenerator, mipLevelCount } from './mipmaps.ts';
import type { BufferRange, SceneBuffers } from './scene-buffers.ts';
import { textureFormatInfo, textureLevelByteLength } from './texture-formats.ts';

/** Bytes of a material's uniform block (see shaders/common.wgsl, struct Material). */
export const MATERIAL_BYTES = 64;

export const MATERIAL_FLAG = { baseColorTexture: 1, metallicRoughnessTexture: 2, normalTexture: 4, mask: 8, blend: 16, doubleSided: 32, caustics: 64, emissiveTexture: 128, occlusionTexture: 256 } as const;

/** Whether a material emits light (an emissive factor other than 0; the emissive texture multiplies it). */
export function emits(input: MaterialInput): boolean {
  return (input.emissive ?? [0, 0, 0]).some((c) => c !== 0);
}

/** Whether a material's occlusion texture changes anything (it has one, at a strength above 0). */
export function occludes(input: MaterialInput): boolean {
  return input.occlusionTexture !== undefined && (input.occlusionStrength ?? 1) > 0;
}

export interface GpuMaterial {
  readonly id: number;
  readonly input: Readonly<MaterialInput>;
  /** The uniform block: a buffer of its own, or a range of the scene's uniform allocator. */
  readonly uniform: BufferRange;
  readonly group: GPUBindGroup;
  readonly blend: boolean;
  readonly mask: boolean;
  readonly doubleSided: boolean;
}

export function packMaterial(input: MaterialInput): Float32Array<ArrayBuffer> {
  const data = new Float32Array(MATERIAL_BYTES / 4);
  const words = new Uint32Array(data.buffer);
  data.set(input.baseColor ?? [1, 1, 1, 1], 0);
  data.set(input.emissive ?? [0, 0, 0], 4);
  data[7] = input.alphaCutoff ?? 0.5;
  data[8] = input.metallic ?? 0;
  data[9] = input.roughness ?? 0.8;
  data[10] = input.normalScale ?? 1;
  data[12] = input.occlusionStrength ?? 1;
  let flags = 0;
  if (input.baseColorTexture !== undefined) flags |= MATERIAL_FLAG.baseColorTexture;
  if (input.metallicRoughnessTexture !== undefined) flags |= MATERIAL_FLAG.metallicRoughnessTexture;
  if (input.normalTexture !== undefined) flags |= MATERIAL_FLAG.normalTexture;
  // The shaders sample these only where they change something: emitted light is the factor
  // times the texture (no light at factor 0), occlusion 1 + strength * (texture.r - 1).
  if (input.emissiveTexture !== undefined && emits(input)) flags |= MATERIAL_FLAG.emissiveTexture;
  if (occludes(input)) flags |= MATERIAL_FLAG.occlusionTexture;
  if (input.alphaMode === 'mask') flags |= MATERIAL_FLAG.mask;
  if (input.alphaMode === 'blend') flags |= MATERIAL_FLAG.blend;
  if (input.doubleSided) flags |= MATERIAL_FLAG.doubleSided;
  if (input.caustics) flags |= MATERIAL_FLAG.caustics;
  words[11] = flags;
  return data;
}

function checkUnit(name: string, value: number | undefined): void {
  if (value !== undefined && !(value >= 0 && value <= 1)) throw new RenderError(`${name} must be in 0..1, got ${value}.`);
}

/**
 * The bind group layout of a material (uniform; base colour, metallic-roughness and normal
 * textures; sampler; emissive and occlusion textures); equal layouts are interchangeable.
 */
export const MATERIAL_LAYOUT: GPUBindGroupLayoutDescriptor = {
  label: 'cuttle.render.material',
  entries: [
    { binding: 0, visibility: 3, buffer: { type: 'uniform' } },
    { binding: 1, visibility: 2, texture: { sampleType: 'float' } },
    { binding: 2, visibility: 2, texture: { sampleType: 'float' } },
    { binding: 3, visibility: 2, texture: { sampleType: 'float' } },
    { binding: 4, visibility: 2, sampler: { type: 'filtering' } },
    { binding: 5, visibility: 2, texture: { sampleType: 'float' } },
    { binding: 6, visibility: 2, texture: { sampleType: 'float' } },
  ],
};

export class MaterialStore {
  readonly #device: GPUDevice;
  readonly #uniforms: SceneBuffers;
  readonly #layout: GPUBindGroupLayout;
  readonly #sampler: GPUSampler;
  readonly #textures: GPUTexture[] = [];
  readonly #materials: GpuMaterial[] = [];
  readonly #defaults: { white: GPUTexture; flatNormal: GPUTexture };
  /** Made with the first texture that has more than one level. */
  #mips: MipGenerator | undefined;

  constructor(device: GPUDevice, uniforms: SceneBuffers) {
    this.#device = device;
    this.#uniforms = uniforms;
    this.#layout = device.createBindGroupLayout(MATERIAL_LAYOUT);
    this.#sampler = device.createSampler({ label: 'cuttle.render.material', magFilter: 'linear', minFilter: 'linear', mipmapFilter: 'linear', addressModeU: 'repeat', addressModeV: 'repeat', maxAnisotropy: 4 });
    this.#defaults = {
      white: this.#solid([255, 255, 255, 255], 'rgba8unorm'),
      flatNormal: this.#solid([128, 128, 255, 255], 'rgba8unorm'),
    };
  }

  get layout(): GPUBindGroupLayout {
    return this.#layout;
  }

  get count(): number {
    return this.#materials.length;
  }

  get(id: number): GpuMaterial {
    const material = this.#materials[id];
    if (!material) throw new RenderError(`material ${id} does not exist (there are ${this.#materials.length}).`);
    return material;
  }

  /**
   * Uploads a texture (sRGB for colour, linear for data such as normals) with its mip chain, made
   * on the GPU: colour averaged in linear light, `normalMap` textures renormalized at each level;
   * `mipmaps: false` keeps one level. Returns its id.
   */
  addTexture(input: TextureInput, options: TextureOptions = {}): number {
    const format: GPUTextureFormat = options.srgb ? 'rgba8unorm-srgb' : 'rgba8unorm';
    const { width, height } = input;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RenderError(`a texture needs a positive integer size, got ${width}x${height}.`);
    const limit = this.#device.limits.maxTextureDimension2D;
    if (width > limit || height > limit) throw new RenderError(`${width}x${height} is larger than this device's maxTextureDimension2D (${limit}).`);
    if (options.normalMap && options.srgb) throw new RenderError('a normal map holds vectors, not colour: add it without srgb.');
    if ('data' in input && input.data.length !== width * height * 4) throw new RenderError(`texture data must hold ${width * height * 4} bytes (RGBA8), got ${input.data.length}.`);
    const mipLevels = options.mipmaps === false ? 1 : mipLevelCount(width, height);
    const texture = this.#device.createTexture({ label: `cuttle.render.texture${this.#textures.length}`, size: [width, height], format, mipLevelCount: mipLevels, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.RENDER_ATTACHMENT });
    if ('data' in input) {
      this.#device.queue.writeTexture({ texture }, input.data, { bytesPerRow: width * 4 }, [width, height]);
    } else {
      this.#device.queue.copyExternalImageToTexture({ source: input }, { texture }, [width, height]);
    }
    (this.#mips ??= new MipGenerator(this.#device)).generate(texture, options.normalMap === true);
    this.#textures.push(texture);
    return this.#textures.length - 1;
  }

  /**
   * Uploads a texture whose levels come made (block-compressed or RGBA8, e.g. transcoded from
   * KTX2): checked whole before anything is created, so a refused one changes nothing. Returns its id.
   */
  addCompressedTexture(input: CompressedTextureInput): number {
    const info = textureFormatInfo(input.format);
    if (!info) throw new RenderError(`${input.format} is not a texture format addCompressedTexture takes: use a BC, ETC2, EAC, ASTC 4x4 or rgba8unorm format.`);
    const { width, height, levels } = input;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RenderError(`a texture needs a positive integer size, got ${width}x${height}.`);
    const limit = this.#device.limits.maxTextureDimension2D;
    if (width > limit || height > limit) throw new RenderError(`${width}x${height} is larger than this device's maxTextureDimension2D (${limit}).`);
    if (info.feature && !this.#device.features.has(info.feature)) throw new RenderError(`${input.format} needs the device feature ${info.feature}, which this device was not created with: request it (if the adapter has it) or transcode to another format.`);
    if (width % info.blockWidth !== 0 || height % info.blockHeight !== 0) throw new RenderError(`a ${input.format} texture must be a multiple of ${info.blockWidth}x${info.blockHeight} texels, got ${width}x${height}: transcode it to rgba8unorm instead.`);
    const fullChain = mipLevelCount(width, height);
    if (levels.length < 1 || levels.length > fullChain) throw new RenderError(`a ${width}x${height} texture has 1 to ${fullChain} mip levels, got ${levels.length}.`);
    levels.forEach((level, i) => {
      const expected = textureLevelByteLength(info, width, height, i);
      if (level.byteLength !== expected) throw new RenderError(`mip level ${i} of a ${width}x${height} ${input.format} texture must hold ${expected} bytes, got ${level.byteLength}.`);
    });
    const texture = this.#device.createTexture({ label: `cuttle.render.texture${this.#textures.length}`, size: [width, height], format: input.format, mipLevelCount: levels.length, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC });
    levels.forEach((level, i) => {
      // Copies cover whole blocks: a level smaller than a block is written as one block.
      const blocksWide = Math.ceil(Math.max(1, width >> i) / info.blockWidth);
      const blocksHigh = Math.ceil(Math.max(1, height >> i) / info.blockHeight);
      this.#device.queue.writeTexture({ texture, mipLevel: i }, level, { bytesPerRow: blocksWide * info.bytesPerBlock, rowsPerImage: blocksHigh }, [blocksWide * info.blockWidth, blocksHigh * info.blockHeight]);
    });
    this.#textures.push(texture);
    return this.#textures.length - 1;
  }

  /** A texture of this scene (tests read its levels back). */
  texture(id: number): GPUTexture {
    const texture = this.#textures[id];
    if (!texture) throw new RenderError(`texture ${id} does not exist (there are ${this.#textures.length}).`);
    return texture;
  }

  add(input: MaterialInput): GpuMaterial {
    this.#check(input);
    const id = this.#materials.length;
    const uniform = this.#uniforms.allocate(MATERIAL_BYTES, `material${id}`);
    const material = this.#write(id, uniform, input);
    this.#materials.push(material);
    return material;
  }

  /**
   * Gives material `id` new properties in place: every instance and skinned draw that uses it
   * shows them from the next frame. Checked like `add`; a refused input changes nothing.
   */
  update(id: number, input: MaterialInput): GpuMaterial {
    const old = this.get(id);
    this.#check(input);
    const material = this.#write(id, old.uniform, input);
    this.#materials[id] = material;
    return material;
  }

  #check(input: MaterialInput): void {
    checkUnit('metallic', input.metallic);
    checkUnit('roughness', input.roughness);
    checkUnit('alphaCutoff', input.alphaCutoff);
    checkUnit('occlusionStrength', input.occlusionStrength);
    const textures = [
      ['baseColorTexture', input.baseColorTexture], ['metallicRoughnessTexture', input.metallicRoughnessTexture], ['normalTexture', input.normalTexture],
      ['emissiveTexture', input.emissiveTexture], ['occlusionTexture', input.occlusionTexture],
    ] as const;
    for (const [name, id] of textures) {
      if (id !== undefined && !this.#textures[id]) throw new RenderError(`${name} ${id} is not a texture of this scene (add it with addTexture first).`);
    }
    if (input.baseColor && ((input.baseColor as readonly number[]).length !== 4 || !input.baseColor.every(Number.isFinite))) throw new RenderError('baseColor must be four finite numbers (linear RGBA).');
    if (input.alphaMode !== undefined && !['opaque', 'mask', 'blend'].includes(input.alphaMode)) throw new RenderError(`alphaMode must be 'opaque', 'mask' or 'blend', got ${input.alphaMode}.`);
    if (input.caustics && input.alphaMode !== 'blend') throw new RenderError('caustics are a property of blended (water) materials: set alphaMode to blend.');
  }

  /** Writes `input` into `uniform` and makes the material's bind group. */
  #write(id: number, uniform: BufferRange, input: MaterialInput): GpuMaterial {
    this.#device.queue.writeBuffer(uniform.buffer, uniform.offset, packMaterial(input));
    const view = (texture: number | undefined, fallback: GPUTexture): GPUTextureView => (texture === undefined ? fallback : this.#textures[texture]!).createView();
    const group = this.#device.createBindGroup({
      label: `cuttle.render.material${id}`,
      layout: this.#layout,
      entries: [
        { binding: 0, resource: { buffer: uniform.buffer, offset: uniform.offset, size: MATERIAL_BYTES } },
        { binding: 1, resource: view(input.baseColorTexture, this.#defaults.white) },
        { binding: 2, resource: view(input.metallicRoughnessTexture, this.#defaults.white) },
        { binding: 3, resource: view(input.normalTexture, this.#defaults.flatNormal) },
        { binding: 4, resource: this.#sampler },
        { binding: 5, resource: view(input.emissiveTexture, this.#defaults.white) },
        // The same texture as metallic-roughness in glTF's ORM packing (red: occlusion): two views of it.
        { binding: 6, resource: view(input.occlusionTexture, this.#defaults.white) },
      ],
    });
    return { id, input: { ...input }, uniform, group, blend: input.alphaMode === 'blend', mask: input.alphaMode === 'mask', doubleSided: input.doubleSided ?? false };
  }

  destroy(): void {
    for (const material of this.#materials) this.#uniforms.free(material.uniform);
    this.#materials.length = 0;
    for (const texture of this.#textures) texture.destroy();
    this.#defaults.white.destroy();
    this.#defaults.flatNormal.destroy();
  }

  #solid(rgba: number[], format: GPUTextureFormat): GPUTexture {
    const texture = this.#device.createTexture({ size: [1, 1], format, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    this.#device.queue.writeTexture({ texture }, new Uint8Array(rgba), { bytesPerRow: 4 }, [1, 1]);
    return texture;
  }
}

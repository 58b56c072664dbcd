// The formats a texture may arrive in already made (transcoded from KTX2 / Basis Universal, or
// read from a DDS): the block-compressed families WebGPU has and plain RGBA8. Each level is
// rows of blocks, top row first; a level smaller than a block still takes a whole one.

/** A format `addCompressedTexture` takes. */
export type CompressedTextureFormat =
  | 'bc1-rgba-unorm' | 'bc1-rgba-unorm-srgb'
  | 'bc3-rgba-unorm' | 'bc3-rgba-unorm-srgb'
  | 'bc4-r-unorm' | 'bc5-rg-unorm'
  | 'bc7-rgba-unorm' | 'bc7-rgba-unorm-srgb'
  | 'etc2-rgb8unorm' | 'etc2-rgb8unorm-srgb'
  | 'etc2-rgba8unorm' | 'etc2-rgba8unorm-srgb'
  | 'eac-rg11unorm'
  | 'astc-4x4-unorm' | 'astc-4x4-unorm-srgb'
  | 'rgba8unorm' | 'rgba8unorm-srgb';

/** How a format lays out its texels, and what the device must have to sample it. */
export interface TextureFormatInfo {
  /** Texels per block across and down (1 for RGBA8). */
  blockWidth: number;
  /** Texels per block down (4 for block formats, 1 for RGBA8). */
  blockHeight: number;
  /** Bytes per block (per texel for RGBA8). */
  bytesPerBlock: number;
  /** The device feature it needs; none for RGBA8. */
  feature?: GPUFeatureName;
  /** Stored as sRGB: sampled and filtered in linear light. */
  srgb: boolean;
}

const bc = (bytesPerBlock: number, srgb: boolean): TextureFormatInfo => ({ blockWidth: 4, blockHeight: 4, bytesPerBlock, feature: 'texture-compression-bc', srgb });
const etc2 = (bytesPerBlock: number, srgb: boolean): TextureFormatInfo => ({ blockWidth: 4, blockHeight: 4, bytesPerBlock, feature: 'texture-compression-etc2', srgb });
const astc = (srgb: boolean): TextureFormatInfo => ({ blockWidth: 4, blockHeight: 4, bytesPerBlock: 16, feature: 'texture-compression-astc', srgb });

const FORMATS: Record<CompressedTextureFormat, TextureFormatInfo> = {
  'bc1-rgba-unorm': bc(8, false),
  'bc1-rgba-unorm-srgb': bc(8, true),
  'bc3-rgba-unorm': bc(16, false),
  'bc3-rgba-unorm-srgb': bc(16, true),
  'bc4-r-unorm': bc(8, false),
  'bc5-rg-unorm': bc(16, false),
  'bc7-rgba-unorm': bc(16, false),
  'bc7-rgba-unorm-srgb': bc(16, true),
  'etc2-rgb8unorm': etc2(8, false),
  'etc2-rgb8unorm-srgb': etc2(8, true),
  'etc2-rgba8unorm': etc2(16, false),
  'etc2-rgba8unorm-srgb': etc2(16, true),
  'eac-rg11unorm': etc2(16, false),
  'astc-4x4-unorm': astc(false),
  'astc-4x4-unorm-srgb': astc(true),
  'rgba8unorm': { blockWidth: 1, blockHeight: 1, bytesPerBlock: 4, srgb: false },
  'rgba8unorm-srgb': { blockWidth: 1, blockHeight: 1, bytesPerBlock: 4, srgb: true },
};

/** The layout of `format`, or undefined when `addCompressedTexture` does not take it. */
export function textureFormatInfo(format: string): TextureFormatInfo | undefined {
  return Object.hasOwn(FORMATS, format) ? FORMATS[format as CompressedTextureFormat] : undefined;
}

/** Bytes of mip `level` of a `width` x `height` texture in a format laid out as `info`. */
export function textureLevelByteLength(info: TextureFormatInfo, width: number, height: number, level: number): number {
  const w = Math.max(1, width >> level);
  const h = Math.max(1, height >> level);
  return Math.ceil(w / info.blockWidth) * Math.ceil(h / info.blockHeight) * info.bytesPerBlock;
}

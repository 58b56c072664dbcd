// RGBA8 pixels in, a KTX2 file with Basis Universal supercompression and a full mip chain out.
// basisu makes the mips (Kaiser filter; sRGB colour averaged in linear light, normal maps
// renormalized at each level, linear data averaged as it is) before it compresses, so every
// level is filtered from the source, not from a compressed level above it.
import { basisModule } from './basis-module.ts';
import type { TextureUsage } from './texture-usage.ts';

/** basisu's default ETC1S quality (1-255): the size / quality balance most engines ship. */
export const ETC1S_QUALITY = 128;
/**
 * ETC1S effort 0-6. basisu's default is 2; 1 measured 3.7x faster on a 1,024 px colour texture
 * for 0.1 dB less PSNR and a 3% smaller file (bench/textures.ts), so the compiler takes 1.
 */
export const ETC1S_EFFORT = 1;
/** UASTC effort 0-4: 1 is basisu's default. */
export const UASTC_EFFORT = 1;

/** How basisu is set up for a texture. */
export interface Ktx2Settings {
  /** ETC1S: endpoints and selectors shared across blocks and channels; UASTC: each 4x4 block on its own, 8 bits a texel. */
  codec: 'etc1s' | 'uastc';
  /** sRGB transfer in the file, and mips averaged in linear light. */
  srgb: boolean;
  /** Mips renormalized as vectors (normal maps). */
  renormalize: boolean;
}

/**
 * Each usage's settings. Metallic-roughness data is UASTC, not ETC1S: ETC1S codes a block as one
 * colour line, so green (roughness) and blue (metallic) that vary independently bleed into each
 * other (measured on NormalTangentTest's map: BENCHMARKS.md, "Metallic-roughness textures").
 */
export const USAGE_SETTINGS: Readonly<Record<TextureUsage, Ktx2Settings>> = {
  color: { codec: 'etc1s', srgb: true, renormalize: false },
  normal: { codec: 'uastc', srgb: false, renormalize: true },
  data: { codec: 'uastc', srgb: false, renormalize: false },
};

export class TextureEncodeError extends Error {
  override name = 'TextureEncodeError';
}

let encodes = 0;

/** How many textures this thread has encoded (a compile's statistics, and the cache's tests). */
export function ktx2EncodeCount(): number {
  return encodes;
}

export async function encodeKtx2(rgba: Uint8Array, width: number, height: number, usage: TextureUsage): Promise<Uint8Array> {
  encodes++;
  return encodeKtx2With(rgba, width, height, USAGE_SETTINGS[usage], usage);
}

/** encodeKtx2 with explicit settings (the benchmark compares codecs with it); `label` names the texture in errors. */
export async function encodeKtx2With(rgba: Uint8Array, width: number, height: number, settings: Ktx2Settings, label: string): Promise<Uint8Array> {
  if (rgba.length !== width * height * 4) throw new TextureEncodeError(`expected ${width * height * 4} bytes of RGBA8 for ${width}x${height}, got ${rgba.length}`);
  const basis = await basisModule();
  const encoder = new basis.BasisEncoder();
  try {
    encoder.setCreateKTX2File(true);
    encoder.setDebug(false);
    encoder.setStatusOutput(false);
    encoder.setMipGen(true);
    encoder.setMipFilter('kaiser');
    encoder.setUASTC(settings.codec === 'uastc');
    if (settings.renormalize) encoder.setNormalMapPreset();
    // Perceptual error metrics weigh channels as colour; data and vectors are compared as they are.
    encoder.setPerceptual(settings.srgb);
    encoder.setMipSRGB(settings.srgb);
    encoder.setMipRenormalize(settings.renormalize);
    encoder.setKTX2AndBasisSRGBTransferFunc(settings.srgb);
    if (settings.codec === 'uastc') {
      encoder.setPackUASTCFlags(UASTC_EFFORT);
      encoder.setKTX2UASTCSupercompression(true);
    } else {
      encoder.setQualityLevel(ETC1S_QUALITY);
      encoder.setETC1SCompressionLevel(ETC1S_EFFORT);
    }
    if (!encoder.setSliceSourceImage(0, rgba, width, height, 0)) throw new TextureEncodeError(`the Basis encoder refused a ${width}x${height} image`);
    // Both codecs store at most 1 byte per texel (UASTC: 16-byte 4x4 blocks), 4/3 of that with
    // the mips, plus the container: twice that is always enough.
    const out = new Uint8Array(Math.ceil(width * height * 2.7) + 65536);
    const length = encoder.encode(out);
    if (length === 0) throw new TextureEncodeError(`the Basis encoder failed on a ${width}x${height} ${label} texture`);
    return out.slice(0, length);
  } finally {
    encoder.delete();
  }
}

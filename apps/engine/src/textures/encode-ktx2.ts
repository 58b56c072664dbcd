// RGBA8 pixels in, a KTX2 file with Basis Universal supercompression and a full mip chain out.
// basisu makes the mips (Kaiser filter; sRGB colour averaged in linear light, normal maps
// renormalized at each level) before it compresses, so every level is filtered from the source,
// not from a compressed level above it.
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

export class TextureEncodeError extends Error {
  override name = 'TextureEncodeError';
}

export async function encodeKtx2(rgba: Uint8Array, width: number, height: number, usage: TextureUsage): Promise<Uint8Array> {
  if (rgba.length !== width * height * 4) throw new TextureEncodeError(`expected ${width * height * 4} bytes of RGBA8 for ${width}x${height}, got ${rgba.length}`);
  const basis = await basisModule();
  const encoder = new basis.BasisEncoder();
  try {
    encoder.setCreateKTX2File(true);
    encoder.setDebug(false);
    encoder.setStatusOutput(false);
    encoder.setMipGen(true);
    encoder.setMipFilter('kaiser');
    if (usage === 'normal') {
      encoder.setUASTC(true);
      encoder.setNormalMapPreset();
      encoder.setPerceptual(false);
      encoder.setMipSRGB(false);
      encoder.setMipRenormalize(true);
      encoder.setKTX2AndBasisSRGBTransferFunc(false);
      encoder.setPackUASTCFlags(UASTC_EFFORT);
      encoder.setKTX2UASTCSupercompression(true);
    } else {
      encoder.setUASTC(false);
      encoder.setPerceptual(true);
      encoder.setMipSRGB(true);
      encoder.setMipRenormalize(false);
      encoder.setKTX2AndBasisSRGBTransferFunc(true);
      encoder.setQualityLevel(ETC1S_QUALITY);
      encoder.setETC1SCompressionLevel(ETC1S_EFFORT);
    }
    if (!encoder.setSliceSourceImage(0, rgba, width, height, 0)) throw new TextureEncodeError(`the Basis encoder refused a ${width}x${height} image`);
    // Both codecs store at most 1 byte per texel (UASTC: 16-byte 4x4 blocks), 4/3 of that with
    // the mips, plus the container: twice that is always enough.
    const out = new Uint8Array(Math.ceil(width * height * 2.7) + 65536);
    const length = encoder.encode(out);
    if (length === 0) throw new TextureEncodeError(`the Basis encoder failed on a ${width}x${height} ${usage} texture`);
    return out.slice(0, length);
  } finally {
    encoder.delete();
  }
}

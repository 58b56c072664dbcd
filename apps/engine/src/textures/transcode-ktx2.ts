// KTX2 (Basis Universal) in, the levels the GPU samples out: transcoded to the best block format
// the device has, without decoding to pixels on the way. ETC1S (colour) transcodes losslessly to
// ETC1, so ETC2 devices come first for it, then BC1/BC3; UASTC (normal maps and metallic-roughness
// data, both linear) to ASTC 4x4 without loss, then BC7; RGBA8 when the device has no compressed format (or the size is not a multiple
// of 4 texels, which block formats need).
import type { CompressedTextureFormat, CompressedTextureInput } from '@cuttle/render';
import type { BasisModule } from './basis-module.ts';
import { TranscodeTarget } from './basis-module.ts';
import { Ktx2Error, readKtx2Header } from './ktx2-header.ts';
import type { TextureUsage } from './texture-usage.ts';

/** Which texture-compression families a device has. */
export interface CompressionSupport {
  bc: boolean;
  etc2: boolean;
  astc: boolean;
}

export function compressionSupport(device: GPUDevice): CompressionSupport {
  return { bc: device.features.has('texture-compression-bc'), etc2: device.features.has('texture-compression-etc2'), astc: device.features.has('texture-compression-astc') };
}

export interface TranscodeChoice {
  target: TranscodeTarget;
  format: CompressedTextureFormat;
}

const srgbOf = (format: CompressedTextureFormat, srgb: boolean): CompressedTextureFormat => (srgb ? (`${format}-srgb` as CompressedTextureFormat) : format);

/** The transcoder target and GPU format for a texture of `usage` on a device with `support`. */
export function chooseTranscode(support: CompressionSupport, usage: TextureUsage, alpha: boolean, width: number, height: number): TranscodeChoice {
  const srgb = usage === 'color';
  const blocks = width % 4 === 0 && height % 4 === 0;
  if (blocks && usage === 'color') {
    if (support.etc2) return alpha ? { target: TranscodeTarget.etc2Rgba, format: srgbOf('etc2-rgba8unorm', srgb) } : { target: TranscodeTarget.etc1Rgb, format: srgbOf('etc2-rgb8unorm', srgb) };
    if (support.bc) return alpha ? { target: TranscodeTarget.bc3Rgba, format: srgbOf('bc3-rgba-unorm', srgb) } : { target: TranscodeTarget.bc1Rgb, format: srgbOf('bc1-rgba-unorm', srgb) };
    if (support.astc) return { target: TranscodeTarget.astc4x4Rgba, format: srgbOf('astc-4x4-unorm', srgb) };
  }
  // Normal maps and data are UASTC and never sRGB.
  if (blocks) {
    if (support.astc) return { target: TranscodeTarget.astc4x4Rgba, format: 'astc-4x4-unorm' };
    if (support.bc) return { target: TranscodeTarget.bc7Rgba, format: 'bc7-rgba-unorm' };
    if (support.etc2) return { target: TranscodeTarget.etc2Rgba, format: 'etc2-rgba8unorm' };
  }
  return { target: TranscodeTarget.rgba32, format: srgbOf('rgba8unorm', srgb) };
}

/** What the texture's container says it is; the file must agree. */
export interface ExpectedTexture {
  width: number;
  height: number;
  levels: number;
}

/**
 * Transcodes every level of `ktx2` for the GPU format `choice` names. Throws Ktx2Error, naming
 * the problem, for a file that is not a valid Basis Universal KTX2 of the expected size.
 */
export function transcodeKtx2(basis: BasisModule, ktx2: Uint8Array, choice: TranscodeChoice, expected: ExpectedTexture): CompressedTextureInput {
  const header = readKtx2Header(ktx2);
  if (header.width !== expected.width || header.height !== expected.height || header.levelCount !== expected.levels) {
    throw new Ktx2Error(`is ${header.width}x${header.height} with ${header.levelCount} levels, but its container says ${expected.width}x${expected.height} with ${expected.levels}`);
  }
  if (header.vkFormat !== 0 || (header.supercompression !== 1 && header.supercompression !== 2)) throw new Ktx2Error(`is not Basis Universal (vkFormat ${header.vkFormat}, supercompression ${header.supercompression})`);
  const file = new basis.KTX2File(ktx2);
  try {
    if (!file.isValid() || !(file.isETC1S() || file.isUASTC())) throw new Ktx2Error('is not a Basis Universal KTX2 the transcoder accepts');
    if (!file.startTranscoding()) throw new Ktx2Error('could not start transcoding (its Basis data is damaged)');
    const levels: Uint8Array<ArrayBuffer>[] = [];
    for (let level = 0; level < header.levelCount; level++) {
      const out = new Uint8Array(file.getImageTranscodedSizeInBytes(level, 0, 0, choice.target));
      if (!file.transcodeImage(out, level, 0, 0, choice.target, 0, -1, -1)) throw new Ktx2Error(`level ${level} did not transcode to ${choice.format} (its data is damaged)`);
      levels.push(out);
    }
    return { format: choice.format, width: header.width, height: header.height, levels };
  } finally {
    file.close();
    file.delete();
  }
}

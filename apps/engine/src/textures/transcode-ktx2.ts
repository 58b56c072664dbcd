// KTX2 (Basis Universal) in, the levels the GPU samples out: transcoded to the best block format
// the device has, without decoding to pixels on the way. ETC1S (colour) transcodes losslessly to
// ETC1, so ETC2 devices come first for it, then BC1/BC3; UASTC (normal maps and metallic-roughness
// data, both linear) to ASTC 4x4 without loss, then BC7; RGBA8 when the device has no compressed format (or the size is not a multiple
// of 4 texels, which block formats need).
import { textureFormatInfo, textureLevelByteLength, type CompressedTextureFormat, type CompressedTextureInput } from '@cuttle/render';
import type { BasisModule } from './basis-module.ts';
import { TranscodeTarget } from './basis-module.ts';
import { Ktx2Error, readKtx2Header } from './ktx2-header.ts';
import type { TextureUsage } from './texture-usage.ts';
import { transcodeLevels, TranscodeOutcome } from './transcode-levels.ts';

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
 * Checks what can be checked without the transcoder: the header and level index agree with the
 * container and lie inside the file, and the data is Basis Universal. Throws Ktx2Error naming
 * the problem. Cheap (a hundred bytes read), so the parallel load runs it on the main thread.
 */
export function checkKtx2(ktx2: Uint8Array, expected: ExpectedTexture): void {
  const header = readKtx2Header(ktx2);
  if (header.width !== expected.width || header.height !== expected.height || header.levelCount !== expected.levels) {
    throw new Ktx2Error(`is ${header.width}x${header.height} with ${header.levelCount} levels, but its container says ${expected.width}x${expected.height} with ${expected.levels}`);
  }
  if (header.vkFormat !== 0 || (header.supercompression !== 1 && header.supercompression !== 2)) throw new Ktx2Error(`is not Basis Universal (vkFormat ${header.vkFormat}, supercompression ${header.supercompression})`);
}

/** Bytes of every level of a `width` x `height` texture with `levels` levels in `format`. */
export function levelByteLengths(format: CompressedTextureFormat, width: number, height: number, levels: number): number[] {
  const info = textureFormatInfo(format)!;
  return Array.from({ length: levels }, (_, level) => textureLevelByteLength(info, width, height, level));
}

/** The Ktx2Error for a failed transcodeLevels `code` (the same words on every thread). */
export function transcodeFailure(code: number, format: CompressedTextureFormat): Ktx2Error {
  const level = code >> 4;
  switch (code & 15) {
    case TranscodeOutcome.notAccepted:
      return new Ktx2Error('is not a Basis Universal KTX2 the transcoder accepts');
    case TranscodeOutcome.notStarted:
      return new Ktx2Error('could not start transcoding (its Basis data is damaged)');
    case TranscodeOutcome.wrongSize:
      return new Ktx2Error(`level ${level} does not transcode to the size a ${format} level of its header's size takes (its header is damaged)`);
    case TranscodeOutcome.levelFailed:
      return new Ktx2Error(`level ${level} did not transcode to ${format} (its data is damaged)`);
    default:
      return new Ktx2Error(`was not transcoded (outcome ${code}): the transcoding thread stopped before it`);
  }
}

/**
 * Transcodes every level of `ktx2` for the GPU format `choice` names. Throws Ktx2Error, naming
 * the problem, for a file that is not a valid Basis Universal KTX2 of the expected size.
 */
export function transcodeKtx2(basis: BasisModule, ktx2: Uint8Array, choice: TranscodeChoice, expected: ExpectedTexture): CompressedTextureInput {
  checkKtx2(ktx2, expected);
  const levels = levelByteLengths(choice.format, expected.width, expected.height, expected.levels).map((bytes) => new Uint8Array(bytes));
  const code = transcodeLevels(basis, ktx2, choice.target, levels);
  if (code !== TranscodeOutcome.ok) throw transcodeFailure(code, choice.format);
  return { format: choice.format, width: expected.width, height: expected.height, levels };
}

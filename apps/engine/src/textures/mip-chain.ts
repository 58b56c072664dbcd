// A texture's mip chain: how many levels a full one has, and the bytes they take on the GPU.
import { textureFormatInfo, textureLevelByteLength, type CompressedTextureFormat } from '@cuttle/render';

/** Levels of a full chain for a `width` x `height` texture, down to 1x1. */
export function mipLevelCount(width: number, height: number): number {
  return Math.floor(Math.log2(Math.max(width, height))) + 1;
}

/** GPU bytes of the first `levels` levels of a `width` x `height` texture in `format`. */
export function chainBytes(format: CompressedTextureFormat, width: number, height: number, levels = mipLevelCount(width, height)): number {
  const info = textureFormatInfo(format)!;
  let bytes = 0;
  for (let level = 0; level < levels; level++) bytes += textureLevelByteLength(info, width, height, level);
  return bytes;
}

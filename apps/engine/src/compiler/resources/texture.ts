// png: decoded, then written as a KTX2 file with Basis Universal supercompression and a full
// mip chain made offline (textures/encode-ktx2.ts). The runtime transcodes it to what the GPU
// samples (BC, ETC2, ASTC or RGBA8) without decoding pixels. In the watch loop's drafts, the
// decoded RGBA8 as it is (the GPU makes its mips at load), until a compile without --watch.
import { decodePng } from '@cuttle/gui';
import { writeContainer } from '../../runtime/container.ts';
import { compileRgba } from '../../textures/compile-rgba.ts';
import { MAX_TEXTURE_SIZE } from '../../textures/limits.ts';
import type { CompileContext } from '../context.ts';

export { MAX_TEXTURE_SIZE };

/** The size a PNG's IHDR claims, read before anything is inflated; undefined when there is no IHDR first. */
function claimedSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export async function compileTexture(ctx: CompileContext): Promise<Uint8Array> {
  if (ctx.textureConflict !== undefined) return ctx.fail([], ctx.textureConflict, 'Give one of the two materials its own copy of the texture');
  // A header that claims a huge image (a decompression bomb, or a lie) is refused before inflating.
  const claimed = claimedSize(ctx.bytes);
  if (claimed && (claimed.width > MAX_TEXTURE_SIZE || claimed.height > MAX_TEXTURE_SIZE)) {
    return ctx.fail([], `says it is ${claimed.width}x${claimed.height}, larger than ${MAX_TEXTURE_SIZE} px on a side, which not every GPU loads`, `Scale it down to at most ${MAX_TEXTURE_SIZE}x${MAX_TEXTURE_SIZE}`);
  }
  let image;
  try {
    image = await decodePng(ctx.bytes);
  } catch (error) {
    return ctx.fail([], `is not a PNG this compiler reads (${error instanceof Error ? error.message : String(error)})`, 'Save it as an 8-bit grey or RGBA PNG');
  }
  const { width, height } = image;
  const rgba = image.channels === 1 ? greyToRgba(image.data, width * height) : image.data;
  const texture = await compileRgba(rgba, width, height, ctx.textureUsage, ctx.textureDraft);
  return writeContainer({ type: 'texture', meta: texture.meta, sections: { [texture.section]: texture.data } });
}

function greyToRgba(grey: Uint8Array, texels: number): Uint8Array {
  const rgba = new Uint8Array(texels * 4);
  for (let i = 0; i < texels; i++) {
    const g = grey[i]!;
    rgba[i * 4] = g;
    rgba[i * 4 + 1] = g;
    rgba[i * 4 + 2] = g;
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}

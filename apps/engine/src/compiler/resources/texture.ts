// png: decoded once at compile time into RGBA8 rows the GPU takes as they are.
import { decodePng } from '@cuttle/gui';
import type { TextureMeta } from '../../runtime/formats.ts';
import { writeContainer } from '../../runtime/container.ts';
import type { CompileContext } from '../context.ts';

export async function compileTexture(ctx: CompileContext): Promise<Uint8Array> {
  let image;
  try {
    image = await decodePng(ctx.bytes);
  } catch (error) {
    return ctx.fail([], `is not a PNG this compiler reads (${error instanceof Error ? error.message : String(error)})`, 'Save it as an 8-bit grey or RGBA PNG');
  }
  const { width, height } = image;
  let rgba = image.data;
  if (image.channels === 1) {
    rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const g = image.data[i]!;
      rgba[i * 4] = g;
      rgba[i * 4 + 1] = g;
      rgba[i * 4 + 2] = g;
      rgba[i * 4 + 3] = 255;
    }
  }
  const meta: TextureMeta = { width, height };
  return writeContainer({ type: 'texture', meta, sections: { rgba } });
}

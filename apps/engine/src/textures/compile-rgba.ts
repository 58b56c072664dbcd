// RGBA8 pixels in, what a compiled texture holds out: its header and the bytes of its one
// section (a KTX2 file with Basis Universal supercompression, or the RGBA8 itself for a draft).
// The png resources and the images embedded in GLBs both go through here, so both are
// compressed the same way for the same usage.
import type { TextureMeta } from '../runtime/formats.ts';
import { encodeKtx2 } from './encode-ktx2.ts';
import { mipLevelCount } from './mip-chain.ts';
import type { TextureUsage } from './texture-usage.ts';

export interface CompiledTexture {
  meta: TextureMeta;
  /** `ktx2` for codec 'basis', `rgba` for a draft. */
  section: 'ktx2' | 'rgba';
  data: Uint8Array;
}

function hasAlpha(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

export async function compileRgba(rgba: Uint8Array, width: number, height: number, usage: TextureUsage, draft: boolean): Promise<CompiledTexture> {
  const levels = mipLevelCount(width, height);
  const alpha = hasAlpha(rgba);
  if (draft) return { meta: { width, height, levels, usage, alpha, codec: 'rgba8' }, section: 'rgba', data: rgba };
  const ktx2 = await encodeKtx2(rgba, width, height, usage);
  return { meta: { width, height, levels, usage, alpha, codec: 'basis' }, section: 'ktx2', data: ktx2 };
}

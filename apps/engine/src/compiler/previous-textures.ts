// A GLB's embedded images, as its last compile encoded them: a recompile of the GLB (its geometry
// or a material factor edited) reuses each image whose source is unchanged instead of encoding it
// again, so an unchanged texture is never recompressed, embedded or not. The previous output is
// the compiler's own file but is read defensively: anything that does not parse reuses nothing.
import { readContainer, section } from '../runtime/container.ts';
import { DATA_FORMAT_VERSION, type MeshMeta, type TextureMeta } from '../runtime/formats.ts';
import type { TextureUsage } from '../textures/texture-usage.ts';
import { contentHash } from './hash.ts';

export interface PreviousTexture {
  meta: TextureMeta;
  data: Uint8Array;
}

/** What an embedded image compiles from: its bytes, its usage, draft or final, the format version. */
export function textureSourceKey(image: Uint8Array, usage: TextureUsage, draft: boolean): string {
  return `${contentHash(image)}:${usage}:${draft ? 'draft' : 'final'}:v${DATA_FORMAT_VERSION}`;
}

/** The previous output's encoded images by source key (empty when there is none or it does not parse). */
export function previousTextures(output: Uint8Array | undefined): Map<string, PreviousTexture> {
  const found = new Map<string, PreviousTexture>();
  if (!output) return found;
  try {
    const container = readContainer<MeshMeta>(output, 'mesh');
    if (container.meta.kind !== 'static') return found;
    container.meta.textures.forEach((meta, i) => {
      if (typeof meta.source !== 'string') return;
      const data = section(container, `texture${i}`, Uint8Array);
      found.set(meta.source, { meta, data });
    });
  } catch {
    found.clear();
  }
  return found;
}

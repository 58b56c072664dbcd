// A compiled material's textures into a render material input, for both kinds of compiled
// material: a .material resource names its textures (png resources), a GLB's own material
// numbers them (its embedded images). One place, so a new texture slot is added once.
import type { MaterialInput } from '@cuttle/render';

/** The texture slots of a compiled material; `T` is how it refers to a texture. */
export interface MaterialTextureRefs<T> {
  baseColorTexture?: T;
  normalTexture?: T;
  metallicRoughnessTexture?: T;
  emissiveTexture?: T;
  occlusionTexture?: T;
  occlusionStrength?: number;
}

/** Sets `input`'s texture ids from `m`'s references, `texture(ref)` adding (or finding) each; returns `input`. */
export function withMaterialTextures<T>(input: MaterialInput, m: MaterialTextureRefs<T>, texture: (ref: T) => number): MaterialInput {
  if (m.baseColorTexture !== undefined) input.baseColorTexture = texture(m.baseColorTexture);
  if (m.normalTexture !== undefined) input.normalTexture = texture(m.normalTexture);
  if (m.metallicRoughnessTexture !== undefined) input.metallicRoughnessTexture = texture(m.metallicRoughnessTexture);
  if (m.emissiveTexture !== undefined) input.emissiveTexture = texture(m.emissiveTexture);
  if (m.occlusionTexture !== undefined) {
    input.occlusionTexture = texture(m.occlusionTexture);
    input.occlusionStrength = m.occlusionStrength ?? 1;
  }
  return input;
}

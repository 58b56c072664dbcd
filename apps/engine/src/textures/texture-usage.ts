// What a texture is for decides how it is compressed and filtered: colour is sRGB, averaged in
// linear light for its mips and ETC1S-compressed; a normal map is linear, renormalized at every
// mip level and UASTC-compressed (ETC1S's shared endpoints blur vectors). The compiler learns
// it from the materials that refer to the texture (Godot's importer does the same): a texture
// named by any `normal_texture` key is a normal map.
import type { DependencyGraph } from '@cuttle/tools-merge';
import { resourcePath } from '@cuttle/tools-merge';

export type TextureUsage = 'color' | 'normal';

/** The keys whose texture is a normal map. */
const NORMAL_KEYS = new Set(['normal_texture']);

/** Source paths of the textures that are normal maps (every other texture is colour). */
export function normalMapPaths(graph: Pick<DependencyGraph, 'references'>): Set<string> {
  const normals = new Set<string>();
  for (const reference of graph.references) {
    const key = reference.path[reference.path.length - 1];
    if (typeof key === 'string' && NORMAL_KEYS.has(key)) normals.add(resourcePath(reference.to));
  }
  return normals;
}

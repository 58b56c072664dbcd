// What a texture is for decides how it is compressed and filtered: colour is sRGB, averaged in
// linear light for its mips and ETC1S-compressed; a normal map is linear, renormalized at every
// mip level and UASTC-compressed (ETC1S's shared endpoints blur vectors); data (a
// metallic-roughness or occlusion map, or both packed as ORM) is linear, its mips plain averages, UASTC-compressed so that its
// channels keep their precision apart. The compiler learns it from the materials that refer to
// the texture (Godot's importer does the same).
import type { DependencyGraph, ResourceId } from '@cuttle/tools-merge';
import { resourcePath } from '@cuttle/tools-merge';

export type TextureUsage = 'color' | 'normal' | 'data';

/**
 * The material keys whose texture is not colour, and what it is (with its name in messages).
 * `base_color_texture` and `emissive_texture` are colour, what a texture is unless a key here
 * says otherwise.
 */
const USAGE_KEYS: ReadonlyMap<string, { usage: Exclude<TextureUsage, 'color'>; name: string }> = new Map([
  ['normal_texture', { usage: 'normal', name: 'a normal map' }],
  ['metallic_roughness_texture', { usage: 'data', name: 'metallic-roughness data' }],
  // Data too, so one ORM texture serves both keys (red occlusion, green roughness, blue metallic).
  ['occlusion_texture', { usage: 'data', name: 'occlusion data' }],
]);

/**
 * What the project's materials use each texture for. Colour is what a texture is unless a key
 * says otherwise, so a texture that is also colour elsewhere takes the other usage (as a normal
 * map always did); a texture that is a normal map for one material and data for another has no
 * usage that serves both and is in `conflicts`, with the message its compile fails with.
 */
export interface TextureUsages {
  /** Source paths of the textures that are not colour. */
  usage: ReadonlyMap<string, TextureUsage>;
  /** Source path → the problem, naming a material of each usage. */
  conflicts: ReadonlyMap<string, string>;
}

export function textureUsages(graph: Pick<DependencyGraph, 'references'>): TextureUsages {
  const first = new Map<string, { usage: TextureUsage; name: string; from: ResourceId; key: string }>();
  const conflicts = new Map<string, string>();
  for (const reference of graph.references) {
    const key = reference.path[reference.path.length - 1];
    if (typeof key !== 'string') continue;
    const keyed = USAGE_KEYS.get(key);
    if (keyed === undefined) continue;
    const { usage, name } = keyed;
    const path = resourcePath(reference.to);
    const known = first.get(path);
    if (!known) first.set(path, { usage, name, from: reference.from, key });
    else if (known.usage !== usage && !conflicts.has(path)) {
      conflicts.set(path, `is ${known.name} for ${resourcePath(known.from)} (${known.key}) and ${name} for ${resourcePath(reference.from)} (${key}), and one compiled texture cannot be both`);
    }
  }
  return { usage: new Map([...first].map(([path, { usage }]) => [path, usage])), conflicts };
}

/** The usage of texture `path`: colour unless a material key says otherwise. */
export function usageOf(usages: TextureUsages, path: string): TextureUsage {
  return usages.usage.get(path) ?? 'color';
}

/** TextureUsages as the compile workers' shared header carries it. */
export interface TextureUsagesJson {
  usage: [string, TextureUsage][];
  conflicts: [string, string][];
}

export function usagesToJson(usages: TextureUsages): TextureUsagesJson {
  return { usage: [...usages.usage], conflicts: [...usages.conflicts] };
}

export function usagesFromJson(json: TextureUsagesJson): TextureUsages {
  return { usage: new Map(json.usage), conflicts: new Map(json.conflicts) };
}

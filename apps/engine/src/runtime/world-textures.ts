// Which compiled textures a world's static units will load, found before the world is built so
// the frame workers can transcode them together (texture-prefetch.ts): the textures of each
// material a placement names, and every image a GLB drawn with its own materials embeds. A
// superset is harmless (a texture never added costs its transcode, nothing else); a resource
// that cannot be read is left out, and the build reports it where a one-thread load would.
import type { MaterialMeta, MeshMeta, TextureMeta } from './formats.ts';
import { section } from './container.ts';
import type { ResourceStore } from './resources.ts';
import type { TextureSource } from './texture-prefetch.ts';

/** What the world names texture `index` of GLB `mesh` (its loads and its errors). */
export const meshTextureName = (mesh: string, index: number): string => `texture ${index} of ${mesh}.glb`;

/** The render component's rows: their mesh and material hashes (0: the GLB's own materials). */
export interface RenderRows {
  count: number;
  mesh: ArrayLike<number>;
  material: ArrayLike<number>;
}

export function worldTextureSources(store: ResourceStore, names: Record<string, string>, rows: RenderRows): TextureSource[] {
  const sources: TextureSource[] = [];
  const seen = new Set<string>();
  const named = (hash: number, type: string): string | undefined => {
    const name = names[hash];
    return name?.startsWith(`${type}:`) ? name.slice(type.length + 1) : undefined;
  };
  const add = (key: string, read: () => void): void => {
    if (seen.has(key)) return;
    seen.add(key);
    try {
      read();
    } catch {
      // Reported by the build, in its order.
    }
  };
  for (let i = 0; i < rows.count; i++) {
    const hash = rows.material[i]!;
    const material = hash === 0 ? undefined : named(hash, 'material');
    if (material !== undefined) {
      add(`material:${material}`, () => {
        const m = store.get<MaterialMeta>('material', material).meta;
        for (const texture of [m.baseColorTexture, m.normalTexture, m.metallicRoughnessTexture, m.emissiveTexture, m.occlusionTexture]) {
          if (texture !== undefined) add(`png:${texture}`, () => sources.push(pngSource(store, texture)));
        }
      });
      continue;
    }
    const mesh = hash === 0 ? named(rows.mesh[i]!, 'glb') : undefined;
    if (mesh === undefined) continue;
    add(`glb:${mesh}`, () => {
      const container = store.get<MeshMeta>('glb', mesh);
      if (container.meta.kind !== 'static') return;
      container.meta.textures.forEach((meta, index) => sources.push({ name: meshTextureName(mesh, index), meta, data: section(container, `texture${index}`, Uint8Array) }));
    });
  }
  return sources;
}

function pngSource(store: ResourceStore, name: string): TextureSource {
  const container = store.get<TextureMeta>('png', name);
  return { name, meta: container.meta, data: section(container, container.meta.codec === 'rgba8' ? 'rgba' : 'ktx2', Uint8Array) };
}

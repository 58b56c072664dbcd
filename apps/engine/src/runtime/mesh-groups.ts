// A compiled static mesh in a render scene: one render mesh per group (views of the container's
// sections, already quantised as the renderer stores them, uploaded without per-vertex work but
// the tangents render derives), and the render input of each of the GLB's own materials, whose
// textures come from the same container.
import type { MaterialInput, MeshLodInput, RenderScene } from '@cuttle/render';
import { EngineError } from '../errors.ts';
import type { Container } from './container.ts';
import { section } from './container.ts';
import type { MeshMeta, StaticMeshMeta } from './formats.ts';
import { withMaterialTextures } from './material-textures.ts';

export interface StaticMeshGroups {
  /** Per group: its render mesh and its material's index in the mesh (-1: none). */
  groups: { mesh: number; material: number }[];
  container: Container<StaticMeshMeta>;
}

/** glTF's default material, for primitives that name none (glTF 2.0, 3.9.6). */
export const GLTF_DEFAULT_MATERIAL: MaterialInput = { baseColor: [1, 1, 1, 1], metallic: 1, roughness: 1 };

/** Adds every group of compiled mesh `name` to `render`. */
export function addStaticMesh(render: RenderScene, name: string, container: Container<MeshMeta>): StaticMeshGroups {
  if (container.meta.kind !== 'static') throw new EngineError(`${name}.glb is skinned: place it through a unit with a character component.`);
  const c = container as Container<StaticMeshMeta>;
  const positions = section(c, 'positions', Uint16Array), uvs = section(c, 'uvs', Uint16Array), indices = section(c, 'indices', Uint32Array);
  const normalBytes = section(c, 'normals', Uint8Array);
  const normals = new Int8Array(normalBytes.buffer, normalBytes.byteOffset, normalBytes.byteLength);
  const lodIndices = c.meta.groups.some((g) => g.lods.length > 0) ? section(c, 'lods', Uint32Array) : new Uint32Array(0);
  const groups = c.meta.groups.map((g) => {
    const from = g.firstVertex, to = g.firstVertex + g.vertexCount;
    const lods: MeshLodInput[] = g.lods.map((lod) => ({ indices: lodIndices.subarray(lod.firstIndex, lod.firstIndex + lod.indexCount), error: lod.error }));
    const mesh = render.addQuantizedMesh({
      positions: positions.subarray(from * 4, to * 4),
      positionRange: g.positionRange,
      normals: normals.subarray(from * 4, to * 4),
      uvs: uvs.subarray(from * 2, to * 2),
      uvRange: g.uvRange,
      indices: indices.subarray(g.firstIndex, g.firstIndex + g.indexCount),
      lods,
    });
    return { mesh, material: g.material };
  });
  return { groups, container: c };
}

/** The render input of the mesh's own material `index`; `texture(i)` adds (or finds) its texture `i`. */
export function meshMaterialInput(mesh: StaticMeshGroups, index: number, texture: (index: number) => number): MaterialInput {
  if (index === -1) return GLTF_DEFAULT_MATERIAL;
  const m = mesh.container.meta.materials[index];
  if (!m) throw new EngineError(`a group names material ${index}, which the mesh does not have; recompile it.`);
  return withMaterialTextures({ baseColor: m.baseColor, metallic: m.metallic, roughness: m.roughness, emissive: m.emissive, alphaMode: m.alphaMode, alphaCutoff: m.alphaCutoff, normalScale: m.normalScale, doubleSided: m.doubleSided }, m, texture);
}

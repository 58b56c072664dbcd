// Recording an opaque group's instanced draw (or one transparent's): the mesh's vertex buffers
// in the slots every mesh pipeline declares (MESH_VERTEX_BUFFERS), its material at `materialSlot`;
// and a skinned draw's instances.
import type { DrawGroup } from './draw-lists.ts';
import type { RenderScene, SkinnedDraw } from './scene/render-scene.ts';

/**
 * Vertex buffer slots 0-3: position, uv, normal, tangent (shader locations 0, 2, 1, 3). Positions
 * and uvs are 16-bit unsigned normalized over the mesh's ranges (8 and 4 bytes, not 12 and 8; the
 * instance maps them back), normals and tangents 8-bit signed normalized (4 bytes each, not 12
 * and 16; under half a degree of direction): a vertex is 20 bytes instead of 48.
 */
export const MESH_VERTEX_BUFFERS: readonly GPUVertexBufferLayout[] = [
  { arrayStride: 8, attributes: [{ shaderLocation: 0, offset: 0, format: 'unorm16x4' }] },
  { arrayStride: 4, attributes: [{ shaderLocation: 2, offset: 0, format: 'unorm16x2' }] },
  { arrayStride: 4, attributes: [{ shaderLocation: 1, offset: 0, format: 'snorm8x4' }] },
  { arrayStride: 4, attributes: [{ shaderLocation: 3, offset: 0, format: 'snorm8x4' }] },
];

/** Binds the group's material and mesh (with normals and tangents when `shaded`) and draws its instances. */
export function drawMeshGroup(pass: GPURenderPassEncoder, scene: RenderScene, group: DrawGroup, materialGroup: GPUBindGroup, materialSlot: number, shaded: boolean): void {
  const mesh = scene.mesh(group.mesh);
  pass.setBindGroup(materialSlot, materialGroup);
  const { positions, uvs, normals, tangents, indices } = mesh;
  pass.setVertexBuffer(0, positions.buffer, positions.offset, positions.size);
  pass.setVertexBuffer(1, uvs.buffer, uvs.offset, uvs.size);
  if (shaded) {
    pass.setVertexBuffer(2, normals.buffer, normals.offset, normals.size);
    pass.setVertexBuffer(3, tangents.buffer, tangents.offset, tangents.size);
  }
  pass.setIndexBuffer(indices.buffer, mesh.indexFormat, indices.offset, indices.size);
  const lod = mesh.lods[group.lod ?? 0]!;
  pass.drawIndexed(lod.indexCount, group.count, lod.firstIndex, 0, group.first);
}

/**
 * A skinned draw's instances, one indexed draw each at its output vertices, each of the level of
 * detail it takes this frame (vertex buffers bound by the caller).
 */
export function drawSkinnedInstances(pass: GPURenderPassEncoder, draw: SkinnedDraw): void {
  pass.setIndexBuffer(draw.indices, draw.indexFormat);
  const { instances, lods, levels } = draw;
  for (let k = 0; k < instances.length; k++) {
    const lod = lods[levels[k]!]!;
    pass.drawIndexed(lod.indexCount, 1, lod.firstIndex, instances[k]!.outputVertex);
  }
}

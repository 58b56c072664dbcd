// A static GLB: every triangle primitive at its node's world matrix, grouped by glTF material
// (primitives sharing one are merged, whatever node they hang from), each group in the vertex
// order meshoptimizer picks for the GPU's caches, with its own levels of detail, and quantised
// as @cuttle/render stores vertices (positions and uvs unorm16 over the group's ranges, normals
// snorm8), so the runtime uploads the sections as they are. The groups' materials and their
// embedded textures are compiled with them (gltf-materials.ts).
import type { Document, Material, Node as GltfNode, Primitive } from '@gltf-transform/core';
import { packSnorm8x4, quantizePositions, quantizeUvs } from '@cuttle/render';
import type { SectionArray } from '../runtime/container.ts';
import { writeContainer } from '../runtime/container.ts';
import type { MeshGroupMeta, StaticMeshMeta } from '../runtime/formats.ts';
import type { CompileContext } from './context.ts';
import type { GlbJson } from './glb-json.ts';
import { arrayOf, checkTriangles, elements } from './gltf-accessors.ts';
import { compileGltfMaterials } from './gltf-materials.ts';
import { concat, extendBox, lodRanges } from './mesh-arrays.ts';
import { buildMeshLods } from './mesh-lods.ts';
import { optimizeMesh } from './mesh-optimize.ts';

const TRIANGLES = 4;
const POINTS_AND_LINES = new Set([0, 1, 2, 3]);

interface GroupInput {
  positions: number[];
  normals: number[];
  uvs: number[];
  indices: number[];
}

function transformPoint(m: ArrayLike<number>, x: number, y: number, z: number, w: number, out: Float32Array): void {
  for (let r = 0; r < 3; r++) out[r] = m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]! * w;
}

/** Whether a matrix mirrors (negative determinant of its 3x3 part): its triangles' winding flips. */
function mirrors(m: ArrayLike<number>): boolean {
  const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) + m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
  return det < 0;
}

function primitiveLabel(node: GltfNode, p: number): string {
  const mesh = node.getMesh()!;
  return `primitive ${p} of mesh "${mesh.getName()}" (node "${node.getName()}")`;
}

/** Appends one primitive, in world space, to its group. */
function addPrimitive(ctx: CompileContext, group: GroupInput, node: GltfNode, primitive: Primitive, where: string): void {
  const position = primitive.getAttribute('POSITION')!;
  const normal = primitive.getAttribute('NORMAL');
  if (!normal) ctx.fail([], `${where} has no normals`, 'Export the mesh with normals');
  const uv = primitive.getAttribute('TEXCOORD_0');
  const material = primitive.getMaterial();
  if (!uv && (material?.getBaseColorTexture() || material?.getNormalTexture() || material?.getMetallicRoughnessTexture() || material?.getEmissiveTexture() || material?.getOcclusionTexture())) ctx.fail([], `${where} has a textured material but no TEXCOORD_0`, 'Export the mesh with its uvs');
  const world = node.getWorldMatrix();
  const base = group.positions.length / 3;
  const p = elements(position, 3), n = elements(normal, 3);
  const count = position.getCount();
  const tp = new Float32Array(3), tn = new Float32Array(3);
  for (let i = 0; i < count; i++) {
    transformPoint(world, p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!, 1, tp);
    transformPoint(world, n[i * 3]!, n[i * 3 + 1]!, n[i * 3 + 2]!, 0, tn);
    const length = Math.hypot(tn[0]!, tn[1]!, tn[2]!) || 1;
    group.positions.push(tp[0]!, tp[1]!, tp[2]!);
    group.normals.push(tn[0]! / length, tn[1]! / length, tn[2]! / length);
  }
  if (uv) group.uvs.push(...elements(uv, 2));
  else for (let i = 0; i < count; i++) group.uvs.push(0, 0);
  const index = primitive.getIndices();
  const list = index ? arrayOf(index) : Array.from({ length: count }, (_, i) => i);
  checkTriangles(ctx, list, count, where);
  // A mirroring matrix (a negative scale) turns front faces into back faces: swap two corners.
  const flip = mirrors(world);
  for (let i = 0; i < list.length; i += 3) group.indices.push(base + list[i]!, base + list[flip ? i + 2 : i + 1]!, base + list[flip ? i + 1 : i + 2]!);
}

export async function compileStaticMesh(ctx: CompileContext, document: Document, json: GlbJson | undefined): Promise<Uint8Array> {
  const root = document.getRoot();
  const groups = new Map<Material | null, GroupInput>();
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    mesh.listPrimitives().forEach((primitive, p) => {
      const mode = primitive.getMode();
      // Points and lines draw nothing here; strips and fans would need unrolling this does not do.
      if (POINTS_AND_LINES.has(mode)) return;
      const where = primitiveLabel(node, p);
      if (mode !== TRIANGLES) ctx.fail([], `${where} is a triangle ${mode === 5 ? 'strip' : 'fan'}; only triangle lists are read`, 'Export the mesh triangulated (triangle lists)');
      if (!primitive.getAttribute('POSITION')) return;
      const material = primitive.getMaterial();
      let group = groups.get(material);
      if (!group) groups.set(material, (group = { positions: [], normals: [], uvs: [], indices: [] }));
      addPrimitive(ctx, group, node, primitive, where);
    });
  }
  if (groups.size === 0) return ctx.fail([], 'holds no triangle mesh', 'Export at least one mesh with triangles');

  const allMaterials = root.listMaterials();
  const used = allMaterials.filter((m) => groups.has(m));
  const compiled = await compileGltfMaterials(ctx, used, (m) => allMaterials.indexOf(m), root.listTextures(), json);
  // Groups in material order, the primitives without a material (glTF's default) last.
  const order: [number, GroupInput][] = used.map((m, i) => [i, groups.get(m)!]);
  const unlit = groups.get(null);
  if (unlit) order.push([-1, unlit]);

  const positions: Uint16Array[] = [], normals: Uint8Array[] = [], uvs: Uint16Array[] = [], indices: Uint32Array[] = [], lodIndices: Uint32Array[] = [];
  const metas: MeshGroupMeta[] = [];
  let vertexCount = 0, indexCount = 0;
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const [material, group] of order) {
    extendBox(group.positions, min, max);
    const optimized = await optimizeMesh(new Uint32Array(group.indices), [{ data: new Float32Array(group.positions), size: 3 }, { data: new Float32Array(group.normals), size: 3 }, { data: new Float32Array(group.uvs), size: 2 }]);
    const [p, n, uv] = optimized.attributes as [Float32Array, Float32Array, Float32Array];
    const lods = await buildMeshLods(optimized.indices, p, n, uv);
    const quantizedPositions = quantizePositions(p);
    const quantizedUvs = quantizeUvs(uv);
    const packedNormals = packSnorm8x4(n, 3);
    metas.push({
      material,
      positionRange: [...quantizedPositions.range],
      uvRange: [...quantizedUvs.range],
      firstVertex: vertexCount,
      vertexCount: optimized.vertexCount,
      firstIndex: indexCount,
      indexCount: optimized.indices.length,
      lods: lodRanges(lods, lodIndices),
    });
    positions.push(quantizedPositions.values);
    normals.push(new Uint8Array(packedNormals.buffer, packedNormals.byteOffset, packedNormals.byteLength));
    uvs.push(quantizedUvs.values);
    indices.push(optimized.indices);
    vertexCount += optimized.vertexCount;
    indexCount += optimized.indices.length;
  }
  const meta: StaticMeshMeta = { kind: 'static', vertexCount, bounds: { min, max }, groups: metas, materials: compiled.materials, textures: compiled.textures };
  const sections: Record<string, SectionArray> = { positions: concat(positions, Uint16Array), normals: concat(normals, Uint8Array), uvs: concat(uvs, Uint16Array), indices: concat(indices, Uint32Array), ...compiled.sections };
  if (lodIndices.length > 0) sections.lods = concat(lodIndices, Uint32Array);
  return writeContainer({ type: 'mesh', meta, sections });
}


// glb: a binary glTF → either one static mesh (every triangle primitive at its node's world
// matrix, merged) or a skinned mesh: @cuttle/gpu-skinning's packed vertex streams, the
// skeleton and the animation clips, stored as flat arrays the runtime views in place. Both in
// the vertex order meshoptimizer picks for the GPU's caches (../mesh-optimize.ts).
import { WebIO, type Accessor, type Node as GltfNode } from '@gltf-transform/core';
import { clipFromGltf, skeletonFromGltf, skinnedVerticesFromGltf, type GltfAnimationInput, type GltfNodeInput } from '@cuttle/gpu-skinning';
import type { ClipChannelMeta, SkinnedMeshMeta, StaticMeshMeta } from '../../runtime/formats.ts';
import { writeContainer, type SectionArray } from '../../runtime/container.ts';
import type { CompileContext } from '../context.ts';
import { buildMeshLods } from '../mesh-lods.ts';
import { optimizeMesh } from '../mesh-optimize.ts';

/** An accessor's array (gltf-transform's union names Float16Array, which lib ES2022 lacks). */
function arrayOf(accessor: Accessor | null): ArrayLike<number> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- see above
  return accessor ? accessor.getArray() ?? [] : [];
}

function elements(accessor: Accessor, size: number): Float32Array {
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  const element: number[] = [];
  for (let i = 0; i < count; i++) out.set(accessor.getElement(i, element).slice(0, size), i * size);
  return out;
}

/**
 * Fails the compile when a primitive's triangle list is not whole triangles or names a vertex it
 * does not have: meshoptimizer and the GPU would read past the vertex data.
 */
function checkTriangles(ctx: CompileContext, list: ArrayLike<number>, vertexCount: number, where: string): void {
  if (list.length % 3 !== 0) ctx.fail([], `${where} has ${list.length} indices, not whole triangles`, 'Export the mesh triangulated');
  for (let i = 0; i < list.length; i++) {
    const v = list[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= vertexCount) ctx.fail([], `${where} names vertex ${v} at index ${i}, but it has ${vertexCount} vertices (the file is damaged)`, 'Export the mesh again');
  }
}

function transformPoint(m: ArrayLike<number>, x: number, y: number, z: number, w: number, out: Float32Array, at: number): void {
  for (let r = 0; r < 3; r++) out[at + r] = m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]! * w;
}

export async function compileMesh(ctx: CompileContext): Promise<Uint8Array> {
  let document;
  try {
    document = await new WebIO().readBinary(new Uint8Array(ctx.bytes));
  } catch (error) {
    return ctx.fail([], `is not a readable GLB (${error instanceof Error ? error.message : String(error)})`, 'Export the mesh as binary glTF 2.0 (.glb) with embedded buffers');
  }
  const root = document.getRoot();
  const skinnedNode = root.listNodes().find((node) => node.getSkin() && node.getMesh());
  if (skinnedNode) return await compileSkinned(ctx, root.listNodes(), skinnedNode, root.listAnimations());

  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const world = node.getWorldMatrix();
    for (const primitive of mesh.listPrimitives()) {
      if (primitive.getMode() !== 4) continue;
      const position = primitive.getAttribute('POSITION');
      if (!position) continue;
      const normal = primitive.getAttribute('NORMAL');
      if (!normal) ctx.fail([], `a primitive of node "${node.getName()}" has no normals`, 'Export the mesh with normals');
      const uv = primitive.getAttribute('TEXCOORD_0');
      const base = positions.length / 3;
      const p = elements(position, 3), n = elements(normal, 3);
      const count = position.getCount();
      const tp = new Float32Array(3), tn = new Float32Array(3);
      for (let i = 0; i < count; i++) {
        transformPoint(world, p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!, 1, tp, 0);
        transformPoint(world, n[i * 3]!, n[i * 3 + 1]!, n[i * 3 + 2]!, 0, tn, 0);
        const length = Math.hypot(tn[0]!, tn[1]!, tn[2]!) || 1;
        positions.push(tp[0]!, tp[1]!, tp[2]!);
        normals.push(tn[0]! / length, tn[1]! / length, tn[2]! / length);
      }
      if (uv) uvs.push(...elements(uv, 2));
      else for (let i = 0; i < count; i++) uvs.push(0, 0);
      const index = primitive.getIndices();
      const list = index ? arrayOf(index) : Array.from({ length: count }, (_, i) => i);
      checkTriangles(ctx, list, count, `a primitive of node "${node.getName()}"`);
      for (let i = 0; i < list.length; i++) indices.push(base + list[i]!);
    }
  }
  if (positions.length === 0) return ctx.fail([], 'holds no triangle mesh', 'Export at least one mesh with triangles');
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[i + k]!);
      max[k] = Math.max(max[k]!, positions[i + k]!);
    }
  }
  const optimized = await optimizeMesh(new Uint32Array(indices), [{ data: new Float32Array(positions), size: 3 }, { data: new Float32Array(normals), size: 3 }, { data: new Float32Array(uvs), size: 2 }]);
  const [p, n, uv] = optimized.attributes as [Float32Array, Float32Array, Float32Array];
  const lods = await buildMeshLods(optimized.indices, p, n, uv);
  const meta: StaticMeshMeta = { kind: 'static', vertexCount: optimized.vertexCount, bounds: { min, max }, lods: lods.map((lod) => ({ error: lod.error, indexCount: lod.indices.length })) };
  const sections: Record<string, SectionArray> = { positions: p, normals: n, uvs: uv, indices: optimized.indices };
  lods.forEach((lod, l) => { sections[`lod${l + 1}`] = lod.indices; });
  return writeContainer({ type: 'mesh', meta, sections });
}

async function compileSkinned(ctx: CompileContext, nodes: GltfNode[], skinned: GltfNode, animations: ReturnType<ReturnType<Awaited<ReturnType<WebIO['readBinary']>>['getRoot']>['listAnimations']>): Promise<Uint8Array> {
  const index = (node: GltfNode | null): number => (node ? nodes.indexOf(node) : -1);
  const nodeInputs: GltfNodeInput[] = nodes.map((node) => ({ children: node.listChildren().map(index), translation: node.getTranslation(), rotation: node.getRotation(), scale: node.getScale(), name: node.getName() }));
  const skin = skinned.getSkin()!;
  const primitive = skinned.getMesh()!.listPrimitives()[0]!;
  const attribute = (semantic: string): ArrayLike<number> | undefined => {
    const accessor = primitive.getAttribute(semantic);
    return accessor ? arrayOf(accessor) : undefined;
  };
  const POSITION = attribute('POSITION'), JOINTS_0 = attribute('JOINTS_0'), WEIGHTS_0 = attribute('WEIGHTS_0'), NORMAL = attribute('NORMAL');
  if (!POSITION || !JOINTS_0 || !WEIGHTS_0 || !NORMAL) return ctx.fail([], 'the skinned primitive lacks POSITION, NORMAL, JOINTS_0 or WEIGHTS_0', 'Export the skinned mesh with normals, joints and weights');
  const vertexCount = POSITION.length / 3;
  const indices = primitive.getIndices();
  const triangles = indices ? Uint32Array.from(arrayOf(indices)) : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  checkTriangles(ctx, triangles, vertexCount, `the skinned primitive of node "${skinned.getName()}"`);
  try {
    const gltfSkeleton = skeletonFromGltf(nodeInputs, { joints: skin.listJoints().map(index), inverseBindMatrices: arrayOf(skin.getInverseBindMatrices()) });
    const { skeleton } = gltfSkeleton;
    const order = await optimizeMesh(triangles, [
      { data: Float32Array.from(POSITION), size: 3 },
      { data: Float32Array.from(NORMAL), size: 3 },
      // Joint numbers are small integers: a float holds them exactly.
      { data: Float32Array.from(JOINTS_0), size: JOINTS_0.length / vertexCount },
      { data: Float32Array.from(WEIGHTS_0), size: WEIGHTS_0.length / vertexCount },
    ]);
    const [position, normal, joints, weights] = order.attributes as [Float32Array, Float32Array, Float32Array, Float32Array];
    const { vertices } = skinnedVerticesFromGltf({ POSITION: position, NORMAL: normal, JOINTS_0: joints, WEIGHTS_0: weights }, { format: 'packed', paletteSize: skeleton.jointCount });
    if (vertices.format !== 'packed') throw new Error('expected packed vertices');
    const sections: Record<string, SectionArray> = {
      positionNormal: vertices.positionNormal,
      tangent: vertices.tangent,
      bones: vertices.bones,
      indices: order.indices,
      parents: skeleton.parents,
      translations: skeleton.restTranslations,
      rotations: skeleton.restRotations,
      scales: skeleton.restScales,
      joints: skeleton.joints,
      inverseBind: skeleton.inverseBindMatrices,
    };
    const clips: SkinnedMeshMeta['clips'] = [];
    animations.forEach((animation, a) => {
      const samplers = animation.listSamplers();
      const input: GltfAnimationInput = {
        name: animation.getName(),
        samplers: samplers.map((s) => ({ input: arrayOf(s.getInput()), output: arrayOf(s.getOutput()), interpolation: s.getInterpolation() })),
        channels: animation.listChannels().map((c) => ({ node: index(c.getTargetNode()), path: c.getTargetPath() ?? 'weights', sampler: samplers.indexOf(c.getSampler()!) })),
      };
      const { clip } = clipFromGltf(input, gltfSkeleton);
      const channels: ClipChannelMeta[] = clip.channels.map((channel, c) => {
        const times = `clip${a}.${c}.times`, values = `clip${a}.${c}.values`;
        sections[times] = channel.times;
        sections[values] = channel.values;
        return { node: channel.node, path: channel.path, interpolation: channel.interpolation, times, values };
      });
      clips.push({ name: clip.name || `clip${a}`, channels });
    });
    const meta: SkinnedMeshMeta = { kind: 'skinned', vertexCount: vertices.vertexCount, bonesUsed: vertices.bonesUsed, jointCount: skeleton.jointCount, clips };
    return writeContainer({ type: 'mesh', meta, sections });
  } catch (error) {
    return ctx.fail([], `skinned mesh refused: ${error instanceof Error ? error.message : String(error)}`, 'Fix the skin in the exporter (weights, joints, skeleton)');
  }
}

// glb: a binary glTF → either a static mesh (../static-mesh.ts: its triangle primitives grouped
// by material, with the GLB's own materials and embedded textures) or a skinned mesh:
// @cuttle/gpu-skinning's packed vertex streams, the skeleton and the animation clips, stored as
// flat arrays the runtime views in place, with levels of detail over its vertices (normals and
// joint weights weighed in: ../mesh-lods.ts). Both in the vertex order meshoptimizer picks for
// the GPU's caches (../mesh-optimize.ts).
import { WebIO, type Node as GltfNode } from '@gltf-transform/core';
import { clipFromGltf, skeletonFromGltf, skinnedVerticesFromGltf, type GltfAnimationInput, type GltfNodeInput } from '@cuttle/gpu-skinning';
import type { ClipChannelMeta, SkinnedMeshMeta } from '../../runtime/formats.ts';
import { writeContainer, type SectionArray } from '../../runtime/container.ts';
import type { CompileContext } from '../context.ts';
import { readGlbJson } from '../glb-json.ts';
import { arrayOf, checkTriangles } from '../gltf-accessors.ts';
import { concat, extendBox, lodRanges } from '../mesh-arrays.ts';
import { buildSkinnedMeshLods } from '../mesh-lods.ts';
import { optimizeMesh } from '../mesh-optimize.ts';
import { compileStaticMesh } from '../static-mesh.ts';

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

  return await compileStaticMesh(ctx, document, readGlbJson(ctx.bytes));
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
    const lods = await buildSkinnedMeshLods(order.indices, position, normal, joints, weights, JOINTS_0.length / vertexCount, skeleton.jointCount);
    const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
    extendBox(position, min, max);
    const lodIndices: Uint32Array[] = [];
    const levels = lodRanges(lods, lodIndices);
    const sections: Record<string, SectionArray> = {
      positionNormal: vertices.positionNormal,
      tangent: vertices.tangent,
      bones: vertices.bones,
      indices: order.indices,
      ...(lodIndices.length > 0 ? { lods: concat(lodIndices, Uint32Array) } : {}),
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
    const meta: SkinnedMeshMeta = { kind: 'skinned', vertexCount: vertices.vertexCount, bonesUsed: vertices.bonesUsed, jointCount: skeleton.jointCount, bounds: { min, max }, lods: levels, clips };
    return writeContainer({ type: 'mesh', meta, sections });
  } catch (error) {
    return ctx.fail([], `skinned mesh refused: ${error instanceof Error ? error.message : String(error)}`, 'Fix the skin in the exporter (weights, joints, skeleton)');
  }
}

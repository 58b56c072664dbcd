// A glTF document to a crowd character through @cuttle/gpu-skinning's glTF adapters: the first
// skin that has a mesh, every triangle primitive skinned with it merged into one mesh, and the
// first animation that moves the skeleton (a walk or a run when one is named so).
import type { Accessor, Animation, Document, Node as GltfNode, Primitive } from '@gltf-transform/core';
import { clipFromGltf, skeletonFromGltf, type AnimationClip, type GltfSkeleton, type SkinnedVertexInput } from '@cuttle/gpu-skinning';
import type { CrowdCharacter } from './crowd-character.ts';
import { CharacterLoadError } from './errors.ts';
import { fitToCrowd } from './fit-character.ts';

const TRIANGLES = 4;

/** Every element of an accessor as floats (normalized and quantized integers decoded). */
function elements(accessor: Accessor, size: number): Float32Array {
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  const element: number[] = [];
  for (let i = 0; i < count; i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < size; k++) out[i * size + k] = element[k] ?? 0;
  }
  return out;
}

/** An accessor's array (gltf-transform's union names Float16Array, which lib ES2022 lacks). */
function arrayOf(accessor: Accessor | null): ArrayLike<number> | undefined {
  if (!accessor) return undefined;
  const array: unknown = accessor.getArray();
  return array as ArrayLike<number> | null ?? undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The skinned triangle primitives of every node using `skin`, merged; influence sets 0 and 1. */
function mergePrimitives(primitives: readonly Primitive[], fileName: string, notes: string[]): { vertices: SkinnedVertexInput; indices: Uint32Array<ArrayBuffer>; vertexCount: number } {
  const used = primitives.filter((primitive) => {
    const skinned = primitive.getMode() === TRIANGLES && primitive.getAttribute('POSITION') && primitive.getAttribute('JOINTS_0') && primitive.getAttribute('WEIGHTS_0');
    if (!skinned) notes.push('left out a primitive that is not skinned triangles');
    return skinned;
  });
  if (used.length === 0) throw new CharacterLoadError(`${fileName}'s skinned mesh has no triangles with POSITION, JOINTS_0 and WEIGHTS_0: export the character's mesh with its skin weights.`);
  const vertexCount = used.reduce((sum, primitive) => sum + primitive.getAttribute('POSITION')!.getCount(), 0);
  const influences = used.some((primitive) => primitive.getAttribute('JOINTS_1') && primitive.getAttribute('WEIGHTS_1')) ? 8 : 4;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const joints = new Uint32Array(vertexCount * influences);
  const weights = new Float32Array(vertexCount * influences);
  const indices: number[] = [];
  let base = 0;
  let missingNormals = false;
  for (const primitive of used) {
    const count = primitive.getAttribute('POSITION')!.getCount();
    positions.set(elements(primitive.getAttribute('POSITION')!, 3), base * 3);
    const normal = primitive.getAttribute('NORMAL');
    if (normal) normals.set(elements(normal, 3), base * 3);
    else {
      missingNormals = true;
      for (let v = base; v < base + count; v++) normals[v * 3 + 1] = 1;
    }
    for (const set of influences === 8 ? [0, 1] : [0]) {
      const jointAccessor = primitive.getAttribute(`JOINTS_${set}`);
      const weightAccessor = primitive.getAttribute(`WEIGHTS_${set}`);
      if (!jointAccessor || !weightAccessor) continue;
      const j = elements(jointAccessor, 4), w = elements(weightAccessor, 4);
      for (let v = 0; v < count; v++) {
        for (let k = 0; k < 4; k++) {
          joints[(base + v) * influences + set * 4 + k] = j[v * 4 + k]!;
          weights[(base + v) * influences + set * 4 + k] = w[v * 4 + k]!;
        }
      }
    }
    const list = arrayOf(primitive.getIndices());
    if (list) {
      for (let i = 0; i < list.length; i++) {
        if (list[i]! >= count) throw new CharacterLoadError(`${fileName}: a primitive's index ${list[i]} is past its ${count} vertices; re-export the mesh.`);
        indices.push(base + list[i]!);
      }
    } else for (let i = 0; i < count; i++) indices.push(base + i);
    base += count;
  }
  if (missingNormals) notes.push('no normals in part of the mesh: it is lit flat');
  return { vertices: { positions, normals, joints, weights, influencesPerVertex: influences }, indices: Uint32Array.from(indices), vertexCount };
}

function clipOf(animation: Animation, nodes: readonly GltfNode[], gltfSkeleton: GltfSkeleton): AnimationClip {
  const samplers = animation.listSamplers();
  const { clip } = clipFromGltf(
    {
      name: animation.getName(),
      samplers: samplers.map((s) => ({ input: arrayOf(s.getInput()) ?? [], output: arrayOf(s.getOutput()) ?? [], interpolation: s.getInterpolation() })),
      channels: animation.listChannels().map((c) => {
        const target = c.getTargetNode();
        return { node: target ? nodes.indexOf(target) : -1, path: c.getTargetPath() ?? 'weights', sampler: samplers.indexOf(c.getSampler()!) };
      }),
    },
    gltfSkeleton,
  );
  return clip;
}

/** The animation to walk with: named walk, then run, then the first; each must move the skeleton. */
function pickClip(animations: readonly Animation[], nodes: readonly GltfNode[], gltfSkeleton: GltfSkeleton, fileName: string): AnimationClip {
  const refused: string[] = [];
  const rank = (animation: Animation): number => (/walk/i.test(animation.getName()) ? 0 : /run/i.test(animation.getName()) ? 1 : 2);
  for (const animation of [...animations].sort((a, b) => rank(a) - rank(b))) {
    try {
      const clip = clipOf(animation, nodes, gltfSkeleton);
      if (clip.channels.length > 0 && clip.duration > 0) return clip;
      refused.push(`"${animation.getName()}" does not move the skin's joints`);
    } catch (error) {
      refused.push(`"${animation.getName()}": ${message(error)}`);
    }
  }
  const why = refused.length > 0 ? ` (${refused.join('; ')})` : '';
  throw new CharacterLoadError(`${fileName} has no animation for its skeleton${why}: export the character with at least one animation, a walk cycle say.`);
}

/** The crowd character of a glTF document; throws CharacterLoadError saying what is missing. */
export function characterFromGltf(document: Document, fileName: string): CrowdCharacter {
  const root = document.getRoot();
  const nodes = root.listNodes();
  const skinnedNode = nodes.find((node) => node.getSkin() && node.getMesh());
  if (!skinnedNode) throw new CharacterLoadError(`${fileName} has no skinned mesh (no node with both a mesh and a skin): export the character together with its armature.`);
  const skin = skinnedNode.getSkin()!;
  const notes: string[] = [];
  const primitives = nodes.filter((node) => node.getSkin() === skin && node.getMesh()).flatMap((node) => node.getMesh()!.listPrimitives());
  if (nodes.some((node) => node.getSkin() && node.getSkin() !== skin && node.getMesh())) notes.push('only the first skin is used');

  let gltfSkeleton: GltfSkeleton;
  try {
    gltfSkeleton = skeletonFromGltf(
      nodes.map((node) => ({ children: node.listChildren().map((child) => nodes.indexOf(child)), translation: node.getTranslation(), rotation: node.getRotation(), scale: node.getScale(), name: node.getName() })),
      { joints: skin.listJoints().map((joint) => nodes.indexOf(joint)), ...(skin.getInverseBindMatrices() ? { inverseBindMatrices: arrayOf(skin.getInverseBindMatrices())! } : {}) },
    );
  } catch (error) {
    throw new CharacterLoadError(`${fileName}'s skeleton was refused: ${message(error)}`);
  }
  const clip = pickClip(root.listAnimations(), nodes, gltfSkeleton, fileName);
  const { vertices, indices, vertexCount } = mergePrimitives(primitives, fileName, notes);
  const fit = fitToCrowd(gltfSkeleton.skeleton, clip, vertices, fileName, notes);
  return { name: fileName, source: 'glTF', skeleton: gltfSkeleton.skeleton, clip, clipRate: 1, vertices, indices, vertexCount, fit, notes };
}

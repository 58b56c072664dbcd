// A joint hierarchy in flat arrays: parent per node, a parents-first order, the rest pose as
// translation / rotation / scale per node, and the skin: which node each palette bone follows
// and its inverse bind matrix. Nodes that are not joints (an armature node above the root
// joint, say) stay in the hierarchy so their transforms reach the joints, as in glTF.
import { GpuSkinningError } from './errors.ts';

/** What `createSkeleton` builds a skeleton from: the node hierarchy, rest transforms and joints. */
export interface SkeletonInput {
  /** Parent node per node, -1 for a root. */
  parents: ArrayLike<number>;
  /** Rest translation xyz per node (default 0). */
  translations?: ArrayLike<number>;
  /** Rest rotation quaternion xyzw per node (default identity); normalized on the way in. */
  rotations?: ArrayLike<number>;
  /** Rest scale xyz per node (default 1). */
  scales?: ArrayLike<number>;
  /** The node each palette bone follows, in palette order (default: every node, in order). */
  joints?: ArrayLike<number>;
  /** Column-major 4x4 inverse bind matrix per joint (glTF's layout; default identity). */
  inverseBindMatrices?: ArrayLike<number>;
  /** Node names (default none). */
  names?: readonly string[];
}

/** A skeleton: the node hierarchy, each node's rest transform, and the joints the palette's bones follow. */
export interface Skeleton {
  /** Nodes in the hierarchy (joints and the nodes above them). */
  nodeCount: number;
  /** Palette size: one bone per joint. */
  jointCount: number;
  /** Parent node per node, -1 for a root. */
  parents: Int32Array;
  /** Node indices with every parent before its children. */
  order: Uint32Array;
  /** Rest translation per node, xyz. */
  restTranslations: Float32Array;
  /** Rest rotation per node, a unit quaternion xyzw. */
  restRotations: Float32Array;
  /** Rest scale per node, xyz. */
  restScales: Float32Array;
  /** The node each palette bone follows, in palette order. */
  joints: Uint32Array;
  /** Column-major 4x4 inverse bind matrix per joint. */
  inverseBindMatrices: Float32Array;
  /** Node names (empty when none were given). */
  names: readonly string[];
}

function finiteArray(name: string, values: ArrayLike<number> | undefined, length: number, fallback: ArrayLike<number>): Float32Array {
  const out = new Float32Array(length);
  if (values === undefined) {
    for (let i = 0; i < length; i++) out[i] = fallback[i % fallback.length]!;
    return out;
  }
  if (values.length !== length) throw new GpuSkinningError(`${name} has ${values.length} values, ${length} expected.`);
  for (let i = 0; i < length; i++) {
    const value = values[i]!;
    if (!Number.isFinite(value)) throw new GpuSkinningError(`${name}[${i}] is ${value}: every value must be finite.`);
    out[i] = value;
  }
  return out;
}

/** Parents-first order of the nodes; throws on a cycle. */
function parentsFirst(parents: Int32Array): Uint32Array {
  const count = parents.length;
  const order = new Uint32Array(count);
  const state = new Uint8Array(count); // 0 unvisited, 1 on the current chain, 2 placed
  let placed = 0;
  const chain: number[] = [];
  for (let start = 0; start < count; start++) {
    let node = start;
    while (node >= 0 && state[node] === 0) {
      state[node] = 1;
      chain.push(node);
      node = parents[node]!;
    }
    if (node >= 0 && state[node] === 1) throw new GpuSkinningError(`the joint hierarchy has a cycle through node ${node}: every chain of parents must end at a root (-1).`);
    while (chain.length > 0) {
      const top = chain.pop()!;
      state[top] = 2;
      order[placed++] = top;
    }
  }
  return order;
}

/** Checks and flattens a joint hierarchy and its skin. Throws GpuSkinningError on bad input. */
export function createSkeleton(input: SkeletonInput): Skeleton {
  const nodeCount = input.parents.length;
  if (nodeCount === 0) throw new GpuSkinningError('a skeleton needs at least one node.');
  const parents = new Int32Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    const parent = input.parents[i]!;
    if (!Number.isInteger(parent) || parent < -1 || parent >= nodeCount || parent === i) {
      throw new GpuSkinningError(`parents[${i}] is ${parent}: it must be -1 (a root) or another node's index below ${nodeCount}.`);
    }
    parents[i] = parent;
  }
  const order = parentsFirst(parents);
  const restTranslations = finiteArray('translations', input.translations, nodeCount * 3, [0]);
  const restRotations = finiteArray('rotations', input.rotations, nodeCount * 4, [0, 0, 0, 1]);
  const restScales = finiteArray('scales', input.scales, nodeCount * 3, [1]);
  for (let i = 0; i < nodeCount; i++) {
    const r = i * 4;
    const length = Math.hypot(restRotations[r]!, restRotations[r + 1]!, restRotations[r + 2]!, restRotations[r + 3]!);
    if (length < 1e-6) throw new GpuSkinningError(`rotation of node ${i} is a zero quaternion: use (0, 0, 0, 1) for no rotation.`);
    for (let c = 0; c < 4; c++) restRotations[r + c]! /= length;
  }

  const jointsInput = input.joints ?? Array.from({ length: nodeCount }, (_, i) => i);
  const jointCount = jointsInput.length;
  if (jointCount === 0) throw new GpuSkinningError('a skin needs at least one joint.');
  const joints = new Uint32Array(jointCount);
  const seen = new Set<number>();
  for (let j = 0; j < jointCount; j++) {
    const node = jointsInput[j]!;
    if (!Number.isInteger(node) || node < 0 || node >= nodeCount) throw new GpuSkinningError(`joints[${j}] is ${node}: it must be a node index below ${nodeCount}.`);
    if (seen.has(node)) throw new GpuSkinningError(`joints[${j}] repeats node ${node}: each node may be one joint only.`);
    seen.add(node);
    joints[j] = node;
  }
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const inverseBindMatrices = finiteArray('inverseBindMatrices', input.inverseBindMatrices, jointCount * 16, identity);
  const names = input.names ?? [];
  if (names.length !== 0 && names.length !== nodeCount) throw new GpuSkinningError(`names has ${names.length} entries for ${nodeCount} nodes.`);
  return { nodeCount, jointCount, parents, order, restTranslations, restRotations, restScales, joints, inverseBindMatrices, names };
}

/** Local transforms of every node of a skeleton: what a clip writes and the palette reads. */
export interface Pose {
  /** Translation per node, xyz. */
  translations: Float32Array;
  /** Rotation per node, a unit quaternion xyzw. */
  rotations: Float32Array;
  /** Scale per node, xyz. */
  scales: Float32Array;
}

/** A pose holding the skeleton's rest transforms. */
export function createPose(skeleton: Skeleton): Pose {
  return { translations: skeleton.restTranslations.slice(), rotations: skeleton.restRotations.slice(), scales: skeleton.restScales.slice() };
}

/** Puts the rest transforms back into `pose` (before sampling a clip that animates only some nodes). */
export function resetPose(skeleton: Skeleton, pose: Pose): void {
  pose.translations.set(skeleton.restTranslations);
  pose.rotations.set(skeleton.restRotations);
  pose.scales.set(skeleton.restScales);
}

// From a pose to the bone palette the kernels read: local matrices from translation / rotation /
// scale, global ones parents first, then per joint global x inverse bind, written as 3x4 rows.
import { BONE_FLOATS } from './api.ts';
import { GpuSkinningError } from './errors.ts';
import type { Pose, Skeleton } from './skeleton.ts';
import { composeMatrix, multiplyMatrices } from './transform-math.ts';

/** Reusable float64 matrices for computePalette (one per node, one for the product). */
export interface PaletteScratch {
  /** Local matrices, 16 floats per node. */
  locals: Float64Array;
  /** Global (model-space) matrices, 16 floats per node. */
  globals: Float64Array;
  /** One 4x4 matrix for the bone product. */
  bone: Float64Array;
}

/** Scratch for {@link computePalette} with `skeleton`, so repeated calls allocate nothing. */
export function createPaletteScratch(skeleton: Skeleton): PaletteScratch {
  return { locals: new Float64Array(skeleton.nodeCount * 16), globals: new Float64Array(skeleton.nodeCount * 16), bone: new Float64Array(16) };
}

/** Options of {@link computePalette}. */
export interface PaletteOptions {
  /** Column-major 4x4 applied above every root node: the instance's world transform (default identity). */
  rootTransform?: ArrayLike<number>;
  /** Where in `out` the palette starts, in floats (default 0). */
  offset?: number;
  /** Reused matrices (from {@link createPaletteScratch}); made per call when left out. */
  scratch?: PaletteScratch;
}

/**
 * Writes `skeleton.jointCount` bones (12 floats each: rows of global x inverse bind) into `out`.
 * With a rootTransform the skinned vertices come out in world space, so motion vectors include
 * the instance's own movement.
 */
export function computePalette(skeleton: Skeleton, pose: Pose, out: Float32Array, options: PaletteOptions = {}): Float32Array {
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset + skeleton.jointCount * BONE_FLOATS > out.length) {
    throw new GpuSkinningError(`the palette needs ${skeleton.jointCount * BONE_FLOATS} floats from offset ${offset}; out has ${out.length}.`);
  }
  const root = options.rootTransform;
  if (root !== undefined && root.length !== 16) throw new GpuSkinningError(`rootTransform must be a 4x4 matrix (16 floats), got ${root.length}.`);
  const scratch = options.scratch ?? createPaletteScratch(skeleton);
  const { locals, globals, bone } = scratch;
  const { order, parents } = skeleton;
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!;
    const parent = parents[node]!;
    const o = node * 16;
    if (parent < 0 && root === undefined) {
      composeMatrix(pose.translations, node * 3, pose.rotations, node * 4, pose.scales, node * 3, globals, o);
      continue;
    }
    composeMatrix(pose.translations, node * 3, pose.rotations, node * 4, pose.scales, node * 3, locals, o);
    if (parent < 0) multiplyMatrices(root!, 0, locals, o, globals, o);
    else multiplyMatrices(globals, parent * 16, locals, o, globals, o);
  }
  const { joints, inverseBindMatrices } = skeleton;
  for (let j = 0; j < joints.length; j++) {
    multiplyMatrices(globals, joints[j]! * 16, inverseBindMatrices, j * 16, bone, 0);
    const b = offset + j * BONE_FLOATS;
    // Column-major (r, c) is bone[c * 4 + r]; the kernels want rows.
    for (let r = 0; r < 3; r++) {
      out[b + r * 4] = bone[r]!;
      out[b + r * 4 + 1] = bone[4 + r]!;
      out[b + r * 4 + 2] = bone[8 + r]!;
      out[b + r * 4 + 3] = bone[12 + r]!;
    }
  }
  return out;
}

/** `count` identity bones (the bind pose when inverse binds are the identity). */
export function identityPalette(count: number): Float32Array {
  const out = new Float32Array(count * BONE_FLOATS);
  for (let b = 0; b < count; b++) {
    out[b * BONE_FLOATS] = 1;
    out[b * BONE_FLOATS + 5] = 1;
    out[b * BONE_FLOATS + 10] = 1;
  }
  return out;
}

// Levels of detail for static and skinned meshes, from meshoptimizer's simplifier (its
// WebAssembly build): each level simplified from the full mesh to a share of its triangles, over
// the same vertices (so the renderer keeps one vertex buffer and switches index ranges), with
// normals and uvs weighed in so seams and shading edges hold (a skinned mesh: normals and its
// joint weights, so a level bends where the full mesh does). Each level carries its geometric
// error in the mesh's units, which the renderer projects to pixels to choose a level per instance.
import { MeshoptSimplifier } from 'meshoptimizer';

export interface MeshLodLevel {
  indices: Uint32Array;
  /** The farthest the level's surface lies from the full mesh, in object-space units. */
  error: number;
}

/** Shares of the full mesh's triangles each level aims at. */
export const LOD_TRIANGLE_SHARES = [0.5, 0.25, 0.125] as const;
/** Meshes with fewer triangles get no levels: too little to save. */
export const LOD_MIN_TRIANGLES = 256;
/** A level must drop at least this share of the previous level's triangles to be kept. */
const MIN_REDUCTION = 0.2;
/** Simplification stops at this error, relative to the mesh's extent (5%): beyond it a level would show at any distance that still draws it. */
const MAX_RELATIVE_ERROR = 0.05;
/** How much a normal's and a uv's difference count against a position's in the simplifier's error. */
const ATTRIBUTE_WEIGHTS = [0.5, 0.5, 0.5, 1, 1];

/** The levels of a mesh (none for a small one, or one the simplifier cannot reduce). */
export async function buildMeshLods(indices: Uint32Array, positions: Float32Array, normals: Float32Array, uvs: Float32Array): Promise<MeshLodLevel[]> {
  if (indices.length / 3 < LOD_MIN_TRIANGLES) return [];
  const vertices = positions.length / 3;
  const attributes = new Float32Array(vertices * 5);
  for (let v = 0; v < vertices; v++) {
    attributes.set(normals.subarray(v * 3, v * 3 + 3), v * 5);
    attributes.set(uvs.subarray(v * 2, v * 2 + 2), v * 5 + 3);
  }
  return await simplifyLevels(indices, positions, attributes, ATTRIBUTE_WEIGHTS);
}

/** The simplifier takes at most 32 attribute floats a vertex: 3 for the normal, the rest for joints. */
export const SKIN_INFLUENCE_SLOTS = 29;
/** How much a normal's and a joint weight's difference count against a position's (see buildSkinnedMeshLods). */
const SKIN_NORMAL_WEIGHT = 0.5;
const SKIN_JOINT_WEIGHT = 1;

/**
 * The levels of a skinned mesh (none for a small one): `joints` and `weights` hold `influences`
 * per vertex (glTF's JOINTS_0 and WEIGHTS_0, as floats). Besides its normal, each vertex tells
 * the simplifier how much each joint moves it, as a dense vector (joint j's weight in slot j;
 * past SKIN_INFLUENCE_SLOTS joints, slot j mod SKIN_INFLUENCE_SLOTS, where joints that share a
 * slot are told apart by position alone): an edge collapses only between vertices that the same
 * joints move alike, so a level keeps the blend across an elbow or a knee and bends as the full
 * mesh does. Positions weighed alone (the bind pose) would let a collapse merge a forearm's vertex
 * into an upper arm's, whose triangles then stretch when the joint turns.
 */
export async function buildSkinnedMeshLods(indices: Uint32Array, positions: Float32Array, normals: Float32Array, joints: Float32Array, weights: Float32Array, influences: number, jointCount: number): Promise<MeshLodLevel[]> {
  if (indices.length / 3 < LOD_MIN_TRIANGLES) return [];
  const vertices = positions.length / 3;
  const slots = Math.min(Math.max(jointCount, 1), SKIN_INFLUENCE_SLOTS);
  const stride = 3 + slots;
  const attributes = new Float32Array(vertices * stride);
  for (let v = 0; v < vertices; v++) {
    attributes.set(normals.subarray(v * 3, v * 3 + 3), v * stride);
    for (let i = 0; i < influences; i++) {
      const weight = weights[v * influences + i]!;
      if (weight > 0) attributes[v * stride + 3 + (joints[v * influences + i]! % slots)]! += weight;
    }
  }
  return await simplifyLevels(indices, positions, attributes, [SKIN_NORMAL_WEIGHT, SKIN_NORMAL_WEIGHT, SKIN_NORMAL_WEIGHT, ...new Array<number>(slots).fill(SKIN_JOINT_WEIGHT)]);
}

/** Levels at LOD_TRIANGLE_SHARES of the full mesh, each simplified from it with `attributes` (their weights' length a vertex) weighed in. */
async function simplifyLevels(indices: Uint32Array, positions: Float32Array, attributes: Float32Array, attributeWeights: number[]): Promise<MeshLodLevel[]> {
  const triangles = indices.length / 3;
  await MeshoptSimplifier.ready;
  const stride = attributeWeights.length;
  const scale = MeshoptSimplifier.getScale(positions, 3);
  const levels: MeshLodLevel[] = [];
  let previous = indices.length;
  let previousError = 0;
  for (const share of LOD_TRIANGLE_SHARES) {
    const target = Math.floor(triangles * share) * 3;
    const [lod, relativeError] = MeshoptSimplifier.simplifyWithAttributes(indices, positions, 3, attributes, stride, attributeWeights, null, target, MAX_RELATIVE_ERROR);
    if (lod.length === 0 || lod.length > previous * (1 - MIN_REDUCTION)) break;
    // Simplified from the full mesh each time: the error can come out lower than the level
    // before's, which would make a coarser level look finer; the renderer needs it to grow.
    const error = Math.max(relativeError * scale, previousError);
    levels.push({ indices: lod, error });
    previous = lod.length;
    previousError = error;
  }
  return levels;
}

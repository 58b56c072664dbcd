// Levels of detail for static meshes, from meshoptimizer's simplifier (its WebAssembly build):
// each level simplified from the full mesh to a share of its triangles, over the same vertices
// (so the renderer keeps one vertex buffer and switches index ranges), with normals and uvs
// weighed in so seams and shading edges hold. Each level carries its geometric error in the
// mesh's units, which the renderer projects to pixels to choose a level per instance.
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
  const triangles = indices.length / 3;
  if (triangles < LOD_MIN_TRIANGLES) return [];
  await MeshoptSimplifier.ready;
  const vertices = positions.length / 3;
  const attributes = new Float32Array(vertices * 5);
  for (let v = 0; v < vertices; v++) {
    attributes.set(normals.subarray(v * 3, v * 3 + 3), v * 5);
    attributes.set(uvs.subarray(v * 2, v * 2 + 2), v * 5 + 3);
  }
  const scale = MeshoptSimplifier.getScale(positions, 3);
  const levels: MeshLodLevel[] = [];
  let previous = indices.length;
  let previousError = 0;
  for (const share of LOD_TRIANGLE_SHARES) {
    const target = Math.floor(triangles * share) * 3;
    const [lod, relativeError] = MeshoptSimplifier.simplifyWithAttributes(indices, positions, 3, attributes, 5, ATTRIBUTE_WEIGHTS, null, target, MAX_RELATIVE_ERROR);
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

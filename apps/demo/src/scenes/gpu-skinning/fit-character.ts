// Stands any reasonably sized model where the procedural walker stands: the mesh is skinned on
// the CPU (the package's reference) at the clip's first frame, and its bounds give a scale to
// crowd size and an offset that puts its feet at the origin, centred over it.
import {
  buildSkinnedVertices,
  computePalette,
  createPose,
  createSkinnedOutput,
  sampleClip,
  skinInstanceReference,
  type AnimationClip,
  type Skeleton,
  type SkinnedVertexInput,
} from '@cuttle/gpu-skinning';
import { CharacterLoadError } from './errors.ts';

/** The largest side of a fitted model's bounds, in metres (about the procedural walker's height). */
export const CROWD_FIGURE_SIZE = 1.8;

/** Column-major scale-then-translate putting the posed mesh's bounds on the origin at crowd size. */
export function fitToCrowd(skeleton: Skeleton, clip: AnimationClip, input: SkinnedVertexInput, fileName: string, notes: string[]): Float32Array<ArrayBuffer> {
  let built;
  try {
    built = buildSkinnedVertices(input, { format: 'f32', paletteSize: skeleton.jointCount, zeroWeights: 'first-joint' });
  } catch (error) {
    throw new CharacterLoadError(`${fileName}'s skinned vertices were refused: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const fix of built.report.fixed) notes.push(`${fix.kind} (${fix.vertices} vertices)`);
  const { vertices } = built;
  const pose = createPose(skeleton);
  sampleClip(clip, 0, pose);
  const palette = computePalette(skeleton, pose, new Float32Array(skeleton.jointCount * 12));
  const output = createSkinnedOutput('f32', vertices.vertexCount);
  skinInstanceReference(vertices, palette, { sourceVertex: 0, vertexCount: vertices.vertexCount, paletteOffset: 0, outputVertex: 0 }, output, 'reset');
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const posed = output.vertices;
  for (let v = 0; v < vertices.vertexCount; v++) {
    for (let k = 0; k < 3; k++) {
      const value = posed[v * 12 + k]!;
      if (value < min[k]!) min[k] = value;
      if (value > max[k]!) max[k] = value;
    }
  }
  const size = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
  if (!Number.isFinite(size) || size <= 0) throw new CharacterLoadError(`${fileName}'s posed mesh has no extent (size ${size}): check its skin's inverse bind matrices and the animation's scales.`);
  const s = CROWD_FIGURE_SIZE / size;
  return new Float32Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, -s * (min[0]! + max[0]!) / 2, -s * min[1]!, -s * (min[2]! + max[2]!) / 2, 1]);
}

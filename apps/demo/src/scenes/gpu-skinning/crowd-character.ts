// What the crowd walks with: a skeleton, one clip, the mesh's per-vertex arrays (built into
// the GPU's format when the crowd is made) and a transform that stands the model at the origin.
import { createProceduralCharacter, type AnimationClip, type Skeleton, type SkinnedVertexInput } from '@cuttle/gpu-skinning';

export interface CrowdCharacter {
  /** 'procedural', or the dropped file's name. */
  name: string;
  source: 'procedural' | 'glTF';
  skeleton: Skeleton;
  clip: AnimationClip;
  /** Clip seconds per second of walking. */
  clipRate: number;
  vertices: SkinnedVertexInput;
  /** Triangle list into `vertices`. */
  indices: Uint32Array<ArrayBuffer>;
  vertexCount: number;
  /** Column-major: model space to a figure of crowd size standing at the origin, facing +z. */
  fit: Float32Array<ArrayBuffer>;
  /** What loading changed or left out, for the panel. */
  notes: readonly string[];
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The package's generated walker: 12 bones, a one-second walk at walking pace. */
export function proceduralCrowdCharacter(walkSpeed: number): CrowdCharacter {
  const { skeleton, walk, vertices, indices, vertexCount } = createProceduralCharacter();
  return { name: 'procedural', source: 'procedural', skeleton, clip: walk, clipRate: walkSpeed * 0.9, vertices, indices, vertexCount, fit: new Float32Array(IDENTITY), notes: [] };
}

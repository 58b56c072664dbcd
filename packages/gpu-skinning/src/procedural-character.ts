// A walking figure generated in code: a 12-bone skeleton, a mesh of capped tubes around its
// bones (two influences near each joint), and a looping walk clip. Tests, the benchmark and
// the demo use it so nothing needs a downloaded asset.
import type { SkinnedVertexInput } from './api.ts';
import { createAnimationClip, type AnimationChannelInput, type AnimationClip } from './animation-clip.ts';
import { GpuSkinningError } from './errors.ts';
import { createSkeleton, type Skeleton } from './skeleton.ts';

/** Options of {@link createProceduralCharacter}: its tube resolution. */
export interface ProceduralCharacterOptions {
  /** Rings along each tube (default 8, at least 2). */
  rings?: number;
  /** Vertices around each ring (default 12, at least 3). */
  sides?: number;
}

/** A generated test character: a skeleton of tubes, its vertices and a walk cycle. */
export interface ProceduralCharacter {
  /** The character's skeleton. */
  skeleton: Skeleton;
  /** One second of walking, looping. */
  walk: AnimationClip;
  /** Arrays for buildSkinnedVertices. */
  vertices: SkinnedVertexInput;
  /** Triangle list. */
  indices: Uint32Array<ArrayBuffer>;
  /** Vertices of the mesh. */
  vertexCount: number;
}

// name, parent, bind-pose joint position (metres; y up, facing +z)
const BONES: readonly [string, number, number, number, number][] = [
  ['hips', -1, 0, 1.0, 0],
  ['spine', 0, 0, 1.2, 0],
  ['chest', 1, 0, 1.45, 0],
  ['head', 2, 0, 1.65, 0],
  ['upper arm L', 2, 0.2, 1.5, 0],
  ['forearm L', 4, 0.45, 1.5, 0],
  ['upper arm R', 2, -0.2, 1.5, 0],
  ['forearm R', 6, -0.45, 1.5, 0],
  ['thigh L', 0, 0.1, 0.95, 0],
  ['shin L', 8, 0.1, 0.5, 0],
  ['thigh R', 0, -0.1, 0.95, 0],
  ['shin R', 10, -0.1, 0.5, 0],
];

// bone, from, to, radius: the tube of skin around it
const TUBES: readonly [number, readonly [number, number, number], readonly [number, number, number], number][] = [
  [1, [0, 0.95, 0], [0, 1.45, 0], 0.16],
  [2, [0, 1.45, 0], [0, 1.62, 0], 0.19],
  [3, [0, 1.62, 0], [0, 1.92, 0], 0.11],
  [4, [0.17, 1.5, 0], [0.45, 1.5, 0], 0.055],
  [5, [0.45, 1.5, 0], [0.72, 1.5, 0], 0.045],
  [6, [-0.17, 1.5, 0], [-0.45, 1.5, 0], 0.055],
  [7, [-0.45, 1.5, 0], [-0.72, 1.5, 0], 0.045],
  [8, [0.1, 1.0, 0], [0.1, 0.5, 0], 0.075],
  [9, [0.1, 0.5, 0], [0.1, 0.03, 0], 0.06],
  [10, [-0.1, 1.0, 0], [-0.1, 0.5, 0], 0.075],
  [11, [-0.1, 0.5, 0], [-0.1, 0.03, 0], 0.06],
];

/** Share of a tube, from its start, that blends with the parent bone. */
const BLEND = 0.3;

function quaternionAbout(axis: 0 | 1 | 2, angle: number): number[] {
  const q = [0, 0, 0, Math.cos(angle / 2)];
  q[axis] = Math.sin(angle / 2);
  return q;
}

/** a * b (apply b, then a), xyzw. */
function multiplyQuaternions(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/** The walk: legs and arms swing about x in opposition, knees and elbows bend, hips bob and sway. */
function walkChannels(): AnimationChannelInput[] {
  const keys = 9;
  const times = Array.from({ length: keys }, (_, k) => k / (keys - 1));
  const rotation = (node: number, axis: 0 | 1 | 2, angle: (phase: number) => number, after: number[] = [0, 0, 0, 1]): AnimationChannelInput => ({
    node,
    path: 'rotation',
    times,
    values: times.flatMap((t) => multiplyQuaternions(quaternionAbout(axis, angle(2 * Math.PI * t)), after)),
  });
  // The arms are modelled straight out to the sides: lower them first, then swing.
  const armDown = 1.3;
  return [
    { node: 0, path: 'translation', times, values: times.flatMap((t) => [0, 1.0 + 0.04 * Math.abs(Math.sin(2 * Math.PI * t)), 0]) },
    rotation(0, 1, (p) => 0.12 * Math.sin(p)),
    rotation(2, 1, (p) => -0.2 * Math.sin(p)),
    rotation(8, 0, (p) => 0.55 * Math.sin(p)),
    rotation(10, 0, (p) => -0.55 * Math.sin(p)),
    rotation(9, 0, (p) => -0.7 * Math.max(0, Math.sin(p + Math.PI / 2))),
    rotation(11, 0, (p) => -0.7 * Math.max(0, Math.sin(p - Math.PI / 2))),
    rotation(4, 0, (p) => -0.45 * Math.sin(p), quaternionAbout(2, -armDown)),
    rotation(6, 0, (p) => 0.45 * Math.sin(p), quaternionAbout(2, armDown)),
    // Elbows bend forward: the forearm turns about y, towards +z.
    rotation(5, 1, (p) => -(0.35 + 0.2 * Math.sin(p))),
    rotation(7, 1, (p) => 0.35 - 0.2 * Math.sin(p)),
  ];
}

/** Builds the figure; rings and sides set its detail (11 tubes x rings x sides + 22 cap vertices). */
export function createProceduralCharacter(options: ProceduralCharacterOptions = {}): ProceduralCharacter {
  const rings = options.rings ?? 8;
  const sides = options.sides ?? 12;
  if (!Number.isInteger(rings) || rings < 2) throw new GpuSkinningError(`rings must be an integer of at least 2, got ${rings}.`);
  if (!Number.isInteger(sides) || sides < 3) throw new GpuSkinningError(`sides must be an integer of at least 3, got ${sides}.`);

  const skeleton = createSkeleton({
    parents: BONES.map((b) => b[1]),
    translations: BONES.flatMap(([, parent, x, y, z]) => (parent < 0 ? [x, y, z] : [x - BONES[parent]![2], y - BONES[parent]![3], z - BONES[parent]![4]])),
    inverseBindMatrices: BONES.flatMap(([, , x, y, z]) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1]),
    names: BONES.map((b) => b[0]),
  });

  const perTube = rings * sides + 2;
  const vertexCount = TUBES.length * perTube;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const tangents = new Float32Array(vertexCount * 4);
  const joints = new Uint16Array(vertexCount * 4);
  const weights = new Float32Array(vertexCount * 4);
  const indices: number[] = [];
  let v = 0;
  for (const [bone, from, to, radius] of TUBES) {
    const parent = BONES[bone]![1];
    const axis = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
    const length = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
    const d = axis.map((c) => c / length);
    // Two unit vectors across the tube.
    const helper = Math.abs(d[1]!) > 0.9 ? [1, 0, 0] : [0, 1, 0];
    const u = [d[1]! * helper[2]! - d[2]! * helper[1]!, d[2]! * helper[0]! - d[0]! * helper[2]!, d[0]! * helper[1]! - d[1]! * helper[0]!];
    const ul = Math.hypot(u[0]!, u[1]!, u[2]!);
    for (let c = 0; c < 3; c++) u[c]! /= ul;
    const w = [d[1]! * u[2]! - d[2]! * u[1]!, d[2]! * u[0]! - d[0]! * u[2]!, d[0]! * u[1]! - d[1]! * u[0]!];
    const first = v;
    const influence = (t: number): void => {
      const toParent = parent >= 0 && t < BLEND ? 0.5 * (1 - t / BLEND) : 0;
      joints[v * 4] = bone;
      weights[v * 4] = 1 - toParent;
      if (toParent > 0) {
        joints[v * 4 + 1] = parent;
        weights[v * 4 + 1] = toParent;
      }
    };
    for (let r = 0; r < rings; r++) {
      const t = r / (rings - 1);
      // Rounded ends: the radius narrows over the last ring of each end.
      const rr = radius * (r === 0 || r === rings - 1 ? 0.75 : 1);
      for (let s = 0; s < sides; s++) {
        const a = (s / sides) * 2 * Math.PI;
        const cos = Math.cos(a), sin = Math.sin(a);
        for (let c = 0; c < 3; c++) {
          const n = u[c]! * cos + w[c]! * sin;
          positions[v * 3 + c] = from[c]! + axis[c]! * t + n * rr;
          normals[v * 3 + c] = n;
          tangents[v * 4 + c] = -u[c]! * sin + w[c]! * cos;
        }
        tangents[v * 4 + 3] = 1;
        influence(t);
        if (r > 0) {
          const a0 = first + (r - 1) * sides + s, a1 = first + (r - 1) * sides + ((s + 1) % sides);
          const b0 = first + r * sides + s, b1 = first + r * sides + ((s + 1) % sides);
          // Counter-clockwise seen from outside (glTF's front faces).
          indices.push(a0, a1, b0, a1, b1, b0);
        }
        v++;
      }
    }
    // End caps: a centre vertex at each end fanned to its ring.
    for (const [end, t, sign] of [[from, 0, -1], [to, 1, 1]] as const) {
      for (let c = 0; c < 3; c++) {
        positions[v * 3 + c] = end[c]! + d[c]! * sign * radius * 0.4;
        normals[v * 3 + c] = d[c]! * sign;
        tangents[v * 4 + c] = u[c]!;
      }
      tangents[v * 4 + 3] = 1;
      influence(t);
      const ring = first + (t === 0 ? 0 : (rings - 1) * sides);
      for (let s = 0; s < sides; s++) {
        const a = ring + s, b = ring + ((s + 1) % sides);
        if (sign < 0) indices.push(v, b, a);
        else indices.push(v, a, b);
      }
      v++;
    }
  }
  const walk = createAnimationClip(skeleton, walkChannels(), 'walk');
  return { skeleton, walk, vertices: { positions, normals, tangents, joints, weights, influencesPerVertex: 4 }, indices: Uint32Array.from(indices), vertexCount };
}

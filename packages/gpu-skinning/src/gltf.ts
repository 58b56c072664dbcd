// glTF 2.0 skins, animations and skinned primitives in, from plain accessor arrays: whatever
// parser the application uses (@gltf-transform/core, three's GLTFLoader, its own) hands over
// typed arrays and indices, and nothing here depends on one.
import type { BuildVerticesOptions, ChannelPath, Interpolation, SkinnedVertices, VertexBuildReport } from './api.ts';
import { createAnimationClip, type AnimationChannelInput, type AnimationClip } from './animation-clip.ts';
import { GpuSkinningError } from './errors.ts';
import { createSkeleton, type Skeleton } from './skeleton.ts';
import { buildSkinnedVertices, checkBuildOptions, checkVertexCount } from './vertex-builder.ts';

/**
 * True for an accessor's array. Callers resolve glTF accessor indices themselves, so a dangling
 * index reaches here as undefined (or null), which TypeScript's types cannot rule out.
 */
function isAccessor(value: unknown): value is ArrayLike<number> {
  return typeof value === 'object' && value !== null && 'length' in value && typeof value.length === 'number';
}

/** One glTF node: children by index, and TRS or a matrix. */
export interface GltfNodeInput {
  /** Child node indices. */
  children?: readonly number[];
  /** Translation x, y, z (default 0, 0, 0). */
  translation?: ArrayLike<number>;
  /** Rotation as a unit quaternion x, y, z, w (default 0, 0, 0, 1). */
  rotation?: ArrayLike<number>;
  /** Scale x, y, z (default 1, 1, 1). */
  scale?: ArrayLike<number>;
  /** Column-major 4x4; decomposed into TRS (glTF forbids animating such nodes). */
  matrix?: ArrayLike<number>;
  /** The node's name, kept in the skeleton's `names`. */
  name?: string;
}

/** A glTF skin: joint node indices and the inverseBindMatrices accessor's floats. */
export interface GltfSkinInput {
  /** Node indices of the skin's joints, in palette order. */
  joints: readonly number[];
  /**
   * 16 floats per joint. Leave the key out when the skin has no inverseBindMatrices (identity,
   * glTF's default); present but undefined or null (an index that resolved to nothing) is refused.
   */
  inverseBindMatrices?: ArrayLike<number>;
}

/** A skeleton built from a glTF skin, and where each glTF node went (-1: not part of it). */
export interface GltfSkeleton {
  /** The skeleton: the joints and the nodes above them. */
  skeleton: Skeleton;
  /** Per glTF node, its node index in the skeleton, or -1. */
  nodeMap: Int32Array;
}

/** Splits a column-major matrix without shear into translation, rotation (xyzw) and scale. */
function decompose(m: ArrayLike<number>, t: number[], r: number[], s: number[]): void {
  t.push(m[12]!, m[13]!, m[14]!);
  const sx = Math.hypot(m[0]!, m[1]!, m[2]!);
  const sy = Math.hypot(m[4]!, m[5]!, m[6]!);
  let sz = Math.hypot(m[8]!, m[9]!, m[10]!);
  const det = m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
  if (det < 0) sz = -sz;
  if (sx === 0 || sy === 0 || sz === 0) throw new GpuSkinningError('a node matrix has a zero scale: it cannot be split into translation, rotation and scale.');
  s.push(sx, sy, sz);
  const r00 = m[0]! / sx, r10 = m[1]! / sx, r20 = m[2]! / sx;
  const r01 = m[4]! / sy, r11 = m[5]! / sy, r21 = m[6]! / sy;
  const r02 = m[8]! / sz, r12 = m[9]! / sz, r22 = m[10]! / sz;
  const trace = r00 + r11 + r22;
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const k = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / k; x = (r21 - r12) * k; y = (r02 - r20) * k; z = (r10 - r01) * k;
  } else if (r00 > r11 && r00 > r22) {
    const k = 2 * Math.sqrt(1 + r00 - r11 - r22);
    w = (r21 - r12) / k; x = 0.25 * k; y = (r01 + r10) / k; z = (r02 + r20) / k;
  } else if (r11 > r22) {
    const k = 2 * Math.sqrt(1 + r11 - r00 - r22);
    w = (r02 - r20) / k; x = (r01 + r10) / k; y = 0.25 * k; z = (r12 + r21) / k;
  } else {
    const k = 2 * Math.sqrt(1 + r22 - r00 - r11);
    w = (r10 - r01) / k; x = (r02 + r20) / k; y = (r12 + r21) / k; z = 0.25 * k;
  }
  r.push(x, y, z, w);
}

/**
 * The skeleton of a glTF skin: its joints and every ancestor of them (an armature node above
 * the root joint keeps its transform), in the skin's joint order for the palette.
 */
export function skeletonFromGltf(nodes: readonly GltfNodeInput[], skin: GltfSkinInput): GltfSkeleton {
  if ('inverseBindMatrices' in skin && !isAccessor(skin.inverseBindMatrices)) {
    throw new GpuSkinningError(`the skin's inverseBindMatrices accessor holds nothing (${String(skin.inverseBindMatrices)}): does its index point at no accessor? Pass the accessor's 16 floats per joint, or leave inverseBindMatrices out when the skin has none (every inverse bind is then the identity, glTF's default).`);
  }
  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, index) => {
    for (const child of node.children ?? []) {
      if (!Number.isInteger(child) || child < 0 || child >= nodes.length) throw new GpuSkinningError(`node ${index} lists child ${child}, which is not a node.`);
      if (parentOf[child] !== -1) throw new GpuSkinningError(`node ${child} has two parents (${parentOf[child]} and ${index}); glTF nodes form a tree.`);
      parentOf[child] = index;
    }
  });
  if (skin.joints.length === 0) throw new GpuSkinningError('the skin has no joints.');
  const include = new Uint8Array(nodes.length);
  for (const joint of skin.joints) {
    if (!Number.isInteger(joint) || joint < 0 || joint >= nodes.length) throw new GpuSkinningError(`skin joint ${joint} is not a node.`);
    // Walk to the root; a cycle of parents would loop, so stop after nodes.length steps.
    let node = joint;
    for (let steps = 0; node >= 0 && include[node] === 0; steps++) {
      if (steps > nodes.length) throw new GpuSkinningError('the node hierarchy has a cycle.');
      include[node] = 1;
      node = parentOf[node]!;
    }
  }
  const nodeMap = new Int32Array(nodes.length).fill(-1);
  const picked: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (include[i]) {
      nodeMap[i] = picked.length;
      picked.push(i);
    }
  }
  const parents: number[] = [];
  const translations: number[] = [];
  const rotations: number[] = [];
  const scales: number[] = [];
  const names: string[] = [];
  for (const index of picked) {
    const node = nodes[index]!;
    const parent = parentOf[index]!;
    parents.push(parent < 0 ? -1 : nodeMap[parent]!);
    if (node.matrix) {
      if (node.matrix.length !== 16) throw new GpuSkinningError(`node ${index}'s matrix has ${node.matrix.length} values, 16 expected.`);
      decompose(node.matrix, translations, rotations, scales);
    } else {
      translations.push(...Array.from(node.translation ?? [0, 0, 0]));
      rotations.push(...Array.from(node.rotation ?? [0, 0, 0, 1]));
      scales.push(...Array.from(node.scale ?? [1, 1, 1]));
    }
    names.push(node.name ?? `node ${index}`);
  }
  const skeleton = createSkeleton({
    parents,
    translations,
    rotations,
    scales,
    joints: skin.joints.map((joint) => nodeMap[joint]!),
    ...(skin.inverseBindMatrices ? { inverseBindMatrices: skin.inverseBindMatrices } : {}),
    names,
  });
  return { skeleton, nodeMap };
}

/** A glTF animation: channels (target node and path) and samplers (input times, output values). */
export interface GltfAnimationInput {
  /** The animation's name. */
  name?: string;
  /** Channels: target node (glTF index), path (`'translation'`, `'rotation'`, `'scale'`; others are skipped) and sampler index. */
  channels: readonly { node: number; path: string; sampler: number }[];
  /** Samplers: the input accessor's times (seconds), the output accessor's values and the interpolation (default `'LINEAR'`). */
  samplers: readonly { input: ArrayLike<number>; output: ArrayLike<number>; interpolation?: string }[];
}

/**
 * The clip of a glTF animation for a skeleton from skeletonFromGltf. Channels that target
 * nodes outside the skeleton, or morph target weights, are left out and listed in `ignored`.
 */
export function clipFromGltf(animation: GltfAnimationInput, gltfSkeleton: GltfSkeleton): { clip: AnimationClip; ignored: string[] } {
  const { skeleton, nodeMap } = gltfSkeleton;
  animation.samplers.forEach((sampler, s) => {
    for (const accessor of ['input', 'output'] as const) {
      if (!isAccessor(sampler[accessor])) {
        throw new GpuSkinningError(`animation "${animation.name ?? ''}": sampler ${s} has no ${accessor} accessor (${String(sampler[accessor])}; a dangling index?). Every glTF animation sampler needs input (key times) and output (values).`);
      }
    }
  });
  const channels: AnimationChannelInput[] = [];
  const ignored: string[] = [];
  animation.channels.forEach((channel, i) => {
    const sampler = animation.samplers[channel.sampler];
    if (!sampler) throw new GpuSkinningError(`channel ${i} uses sampler ${channel.sampler}; the animation has ${animation.samplers.length}.`);
    if (channel.path === 'weights') { ignored.push(`channel ${i}: morph target weights of node ${channel.node} (not supported)`); return; }
    const node = channel.node >= 0 && channel.node < nodeMap.length ? nodeMap[channel.node]! : -1;
    if (node < 0) { ignored.push(`channel ${i}: node ${channel.node} is not part of the skin`); return; }
    channels.push({ node, path: channel.path as ChannelPath, interpolation: (sampler.interpolation ?? 'LINEAR') as Interpolation, times: sampler.input, values: sampler.output });
  });
  return { clip: createAnimationClip(skeleton, channels, animation.name ?? ''), ignored };
}

/** A skinned primitive's attribute accessors, named as glTF names them. */
export interface GltfPrimitiveAttributes {
  /** Positions, xyz per vertex. */
  POSITION: ArrayLike<number>;
  /** Normals, xyz per vertex. */
  NORMAL?: ArrayLike<number>;
  /** Tangents, xyzw per vertex (w = handedness). */
  TANGENT?: ArrayLike<number>;
  /** Joint indices 0 to 3, four per vertex. */
  JOINTS_0: ArrayLike<number>;
  /** Weights of `JOINTS_0`, four per vertex. */
  WEIGHTS_0: ArrayLike<number>;
  /** Joint indices 4 to 7, four per vertex (the four strongest influences are kept). */
  JOINTS_1?: ArrayLike<number>;
  /** Weights of `JOINTS_1`, four per vertex. */
  WEIGHTS_1?: ArrayLike<number>;
}

/** Scales normalized-integer weights to floats so two sets of different types can be merged. */
function weightFloats(weights: ArrayLike<number>): ArrayLike<number> {
  if (weights instanceof Uint8Array) return Float32Array.from(weights, (w) => w / 255);
  if (weights instanceof Uint16Array) return Float32Array.from(weights, (w) => w / 65535);
  return weights;
}

/**
 * Builds the GPU streams of a skinned glTF primitive (JOINTS_0/WEIGHTS_0, and the _1 sets
 * when present: eight influences, trimmed to the four largest and reported).
 */
export function skinnedVerticesFromGltf(attributes: GltfPrimitiveAttributes, options: BuildVerticesOptions): { vertices: SkinnedVertices; report: VertexBuildReport } {
  const { POSITION, NORMAL, TANGENT, JOINTS_0, WEIGHTS_0, JOINTS_1, WEIGHTS_1 } = attributes;
  // Everything is checked from lengths before a value is read or a stream allocated.
  for (const [name, accessor] of [['POSITION', POSITION], ['JOINTS_0', JOINTS_0], ['WEIGHTS_0', WEIGHTS_0]] as const) {
    if (!isAccessor(accessor)) throw new GpuSkinningError(`the primitive has no ${name} accessor (${String(accessor)}; a dangling index?): a skinned primitive needs POSITION, JOINTS_0 and WEIGHTS_0.`);
  }
  if ((JOINTS_1 === undefined) !== (WEIGHTS_1 === undefined)) throw new GpuSkinningError('JOINTS_1 and WEIGHTS_1 come together: pass both or neither.');
  checkBuildOptions(options);
  if (POSITION.length % 3 !== 0 || POSITION.length === 0) throw new GpuSkinningError(`POSITION has ${POSITION.length} values: a skinned primitive needs at least one vertex, three values (xyz) each.`);
  const count = POSITION.length / 3;
  checkVertexCount('POSITION', count, options);
  const sizes: [string, ArrayLike<number> | undefined, number][] = [['NORMAL', NORMAL, 3], ['TANGENT', TANGENT, 4], ['JOINTS_0', JOINTS_0, 4], ['WEIGHTS_0', WEIGHTS_0, 4], ['JOINTS_1', JOINTS_1, 4], ['WEIGHTS_1', WEIGHTS_1, 4]];
  for (const [name, accessor, size] of sizes) {
    if (accessor && accessor.length !== count * size) throw new GpuSkinningError(`${name} has ${accessor.length} values; ${count * size} expected (${size} per vertex for POSITION's ${count} vertices). Every attribute of a primitive has one element per vertex.`);
  }
  const base = { positions: POSITION, ...(NORMAL ? { normals: NORMAL } : {}), ...(TANGENT ? { tangents: TANGENT } : {}) };
  if (!JOINTS_1 || !WEIGHTS_1) return buildSkinnedVertices({ ...base, joints: JOINTS_0, weights: WEIGHTS_0, influencesPerVertex: 4 }, options);
  const w0 = weightFloats(WEIGHTS_0);
  const w1 = weightFloats(WEIGHTS_1);
  const joints = new Float64Array(count * 8);
  const weights = new Float64Array(count * 8);
  for (let v = 0; v < count; v++) {
    for (let i = 0; i < 4; i++) {
      joints[v * 8 + i] = JOINTS_0[v * 4 + i]!;
      joints[v * 8 + 4 + i] = JOINTS_1[v * 4 + i]!;
      weights[v * 8 + i] = w0[v * 4 + i]!;
      weights[v * 8 + 4 + i] = w1[v * 4 + i]!;
    }
  }
  return buildSkinnedVertices({ ...base, joints, weights, influencesPerVertex: 8 }, options);
}

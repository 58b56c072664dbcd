// Keyframed translation / rotation / scale channels and their sampling, with glTF's three
// interpolations: LINEAR (spherical for rotations), STEP and CUBICSPLINE. Keys live in flat
// Float32Arrays; sampling writes into a Pose without allocating.
import type { ChannelPath, Interpolation } from './api.ts';
import { GpuSkinningError } from './errors.ts';
import type { Pose, Skeleton } from './skeleton.ts';
import { slerp, writeNormalizedQuaternion } from './transform-math.ts';

/** One channel of an animation as given to `createAnimationClip`: key times and values for one node's translation, rotation or scale. */
export interface AnimationChannelInput {
  /** The skeleton node this channel moves. */
  node: number;
  /** Which local transform the channel moves. */
  path: ChannelPath;
  /** Default 'LINEAR'. */
  interpolation?: Interpolation;
  /** Key times in seconds, strictly increasing. */
  times: ArrayLike<number>;
  /**
   * Values per key: 3 (translation, scale) or 4 (rotation) floats; CUBICSPLINE stores in-tangent,
   * value, out-tangent per key. Int8/Uint8/Int16/Uint16 arrays are normalized integers (glTF's
   * quantized rotations).
   */
  values: ArrayLike<number>;
}

/** A channel of an {@link AnimationClip}, its keys copied to float32. */
export interface AnimationChannel {
  /** The skeleton node this channel moves. */
  node: number;
  /** Which local transform the channel moves. */
  path: ChannelPath;
  /** How values between keys are found. */
  interpolation: Interpolation;
  /** Key times in seconds, ascending. */
  times: Float32Array;
  /** Key values, `components` floats per key (three per key for `'CUBICSPLINE'`: in-tangent, value, out-tangent). */
  values: Float32Array;
  /** Floats per value: 3 or 4. */
  components: number;
}

/** An animation: channels that move skeleton nodes, sampled into a {@link Pose}. */
export interface AnimationClip {
  /** The clip's name (from glTF, or `''`). */
  name: string;
  /** Time of the last key of any channel. */
  duration: number;
  /** The channels, each moving one node's translation, rotation or scale. */
  channels: AnimationChannel[];
}

const PATHS: readonly ChannelPath[] = ['translation', 'rotation', 'scale'];
const INTERPOLATIONS: readonly Interpolation[] = ['LINEAR', 'STEP', 'CUBICSPLINE'];

/** glTF's normalized-integer decoding for animation outputs. */
function normalizedValue(values: ArrayLike<number>, i: number): number {
  const v = values[i]!;
  if (values instanceof Int8Array) return Math.max(v / 127, -1);
  if (values instanceof Uint8Array) return v / 255;
  if (values instanceof Int16Array) return Math.max(v / 32767, -1);
  if (values instanceof Uint16Array) return v / 65535;
  return v;
}

function checkChannel(skeleton: Skeleton, input: AnimationChannelInput, index: number): AnimationChannel {
  const where = `channel ${index}`;
  const { node, path } = input;
  const interpolation = input.interpolation ?? 'LINEAR';
  if (!Number.isInteger(node) || node < 0 || node >= skeleton.nodeCount) throw new GpuSkinningError(`${where}: node ${node} is not a node of the skeleton (it has ${skeleton.nodeCount}).`);
  if (!PATHS.includes(path)) throw new GpuSkinningError(`${where}: path ${path} is not 'translation', 'rotation' or 'scale' (morph target weights are not supported).`);
  if (!INTERPOLATIONS.includes(interpolation)) throw new GpuSkinningError(`${where}: interpolation ${interpolation} is not 'LINEAR', 'STEP' or 'CUBICSPLINE'.`);
  const keys = input.times.length;
  if (keys === 0) throw new GpuSkinningError(`${where}: no keys.`);
  const times = new Float32Array(keys);
  for (let k = 0; k < keys; k++) {
    const t = input.times[k]!;
    if (!Number.isFinite(t) || t < 0) throw new GpuSkinningError(`${where}: key time ${t} at key ${k} must be finite and not negative.`);
    if (k > 0 && !(t > times[k - 1]!)) throw new GpuSkinningError(`${where}: key times must increase; key ${k} at ${t} follows ${times[k - 1]}.`);
    times[k] = t;
  }
  const components = path === 'rotation' ? 4 : 3;
  const perKey = components * (interpolation === 'CUBICSPLINE' ? 3 : 1);
  if (input.values.length !== keys * perKey) throw new GpuSkinningError(`${where}: ${input.values.length} values for ${keys} keys; ${keys * perKey} expected (${perKey} per key for ${path}, ${interpolation}).`);
  const values = new Float32Array(input.values.length);
  for (let i = 0; i < values.length; i++) {
    const v = normalizedValue(input.values, i);
    if (!Number.isFinite(v)) throw new GpuSkinningError(`${where}: value ${i} is ${v}.`);
    values[i] = v;
  }
  if (path === 'rotation') {
    const valueAt = interpolation === 'CUBICSPLINE' ? 4 : 0;
    for (let k = 0; k < keys; k++) {
      const o = k * perKey + valueAt;
      if (Math.hypot(values[o]!, values[o + 1]!, values[o + 2]!, values[o + 3]!) < 1e-6) throw new GpuSkinningError(`${where}: rotation key ${k} is a zero quaternion.`);
      if (interpolation !== 'CUBICSPLINE') writeNormalizedQuaternion(values[o]!, values[o + 1]!, values[o + 2]!, values[o + 3]!, values, o);
    }
  }
  return { node, path, interpolation, times, values, components };
}

/** Checks channels against a skeleton and stores them flat. Throws GpuSkinningError on bad input. */
export function createAnimationClip(skeleton: Skeleton, channels: readonly AnimationChannelInput[], name = ''): AnimationClip {
  const checked = channels.map((channel, i) => checkChannel(skeleton, channel, i));
  const targets = new Set<string>();
  for (const channel of checked) {
    const key = `${channel.node}:${channel.path}`;
    if (targets.has(key)) throw new GpuSkinningError(`two channels animate the ${channel.path} of node ${channel.node}: keep one.`);
    targets.add(key);
  }
  let duration = 0;
  for (const channel of checked) duration = Math.max(duration, channel.times[channel.times.length - 1]!);
  return { name, duration, channels: checked };
}

/** Index of the last key at or before t (times[0] <= t < times[last] assumed). */
function keyBefore(times: Float32Array, t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

function sampleChannel(channel: AnimationChannel, t: number, out: Float32Array, o: number): void {
  const { times, values, components, interpolation, path } = channel;
  const last = times.length - 1;
  const cubic = interpolation === 'CUBICSPLINE';
  const stride = cubic ? components * 3 : components;
  const valueAt = cubic ? components : 0;
  // Before the first key and after the last, glTF holds the end values.
  if (t <= times[0]! || last === 0 || t >= times[last]!) {
    const k = t <= times[0]! ? 0 : last;
    for (let c = 0; c < components; c++) out[o + c] = values[k * stride + valueAt + c]!;
    if (path === 'rotation' && cubic) writeNormalizedQuaternion(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!, out, o);
    return;
  }
  const k = keyBefore(times, t);
  const t0 = times[k]!;
  const dt = times[k + 1]! - t0;
  const u = (t - t0) / dt;
  if (interpolation === 'STEP') {
    for (let c = 0; c < components; c++) out[o + c] = values[k * stride + c]!;
    return;
  }
  if (interpolation === 'LINEAR') {
    if (path === 'rotation') slerp(values, k * stride, values, (k + 1) * stride, u, out, o);
    else for (let c = 0; c < components; c++) out[o + c] = values[k * stride + c]! * (1 - u) + values[(k + 1) * stride + c]! * u;
    return;
  }
  // Cubic Hermite spline: value and out-tangent of key k, in-tangent and value of key k + 1.
  const u2 = u * u;
  const u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  const a = k * stride;
  const b = (k + 1) * stride;
  for (let c = 0; c < components; c++) {
    out[o + c] = h00 * values[a + components + c]! + h10 * dt * values[a + 2 * components + c]! + h01 * values[b + components + c]! + h11 * dt * values[b + c]!;
  }
  if (path === 'rotation') writeNormalizedQuaternion(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!, out, o);
}

/** Options of sampling a clip into a pose. */
export interface SampleOptions {
  /** Wrap time into [0, duration) (default true); false holds the first and last keys. */
  loop?: boolean;
}

/**
 * Writes the clip's transforms at `time` seconds into `pose`; nodes and paths the clip does not
 * animate keep what the pose held (call resetPose first for the rest pose).
 */
export function sampleClip(clip: AnimationClip, time: number, pose: Pose, options: SampleOptions = {}): void {
  if (!Number.isFinite(time)) throw new GpuSkinningError(`time must be finite, got ${time}.`);
  let t = time;
  if ((options.loop ?? true) && clip.duration > 0) {
    t %= clip.duration;
    if (t < 0) t += clip.duration;
  }
  for (const channel of clip.channels) {
    const target = channel.path === 'translation' ? pose.translations : channel.path === 'rotation' ? pose.rotations : pose.scales;
    sampleChannel(channel, t, target, channel.node * channel.components);
  }
}

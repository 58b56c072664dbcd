import { describe, expect, test } from 'vitest';
import { computePalette, createAnimationClip, createPose, createSkeleton, resetPose, sampleClip, GpuSkinningError } from '../src/index.ts';

const half = Math.SQRT1_2;
/** Quaternion for a rotation of `angle` about z. */
const aboutZ = (angle: number): number[] => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];

/** Applies a 3x4 bone (rows) to a point. */
function apply(palette: Float32Array, bone: number, p: readonly number[]): number[] {
  const m = palette.subarray(bone * 12, bone * 12 + 12);
  return [0, 1, 2].map((r) => m[r * 4]! * p[0]! + m[r * 4 + 1]! * p[1]! + m[r * 4 + 2]! * p[2]! + m[r * 4 + 3]!);
}

describe('skeleton', () => {
  test('orders parents before children whatever the input order', () => {
    const skeleton = createSkeleton({ parents: [2, 0, -1, 1] });
    const position = new Map(Array.from(skeleton.order, (node, i) => [node, i]));
    for (let node = 0; node < 4; node++) {
      const parent = skeleton.parents[node]!;
      if (parent >= 0) expect(position.get(parent)!).toBeLessThan(position.get(node)!);
    }
  });

  test('bad hierarchies and skins are refused', () => {
    expect(() => createSkeleton({ parents: [1, 0] })).toThrow(/cycle/);
    expect(() => createSkeleton({ parents: [0] })).toThrow(GpuSkinningError);
    expect(() => createSkeleton({ parents: [-1, 5] })).toThrow(/parents\[1\] is 5/);
    expect(() => createSkeleton({ parents: [] })).toThrow(/at least one node/);
    expect(() => createSkeleton({ parents: [-1], joints: [0, 0] })).toThrow(/repeats node 0/);
    expect(() => createSkeleton({ parents: [-1], joints: [1] })).toThrow(/joints\[0\]/);
    expect(() => createSkeleton({ parents: [-1], rotations: [0, 0, 0, 0] })).toThrow(/zero quaternion/);
    expect(() => createSkeleton({ parents: [-1], translations: [0, Number.NaN, 0] })).toThrow(/finite/);
    expect(() => createSkeleton({ parents: [-1], inverseBindMatrices: [1, 0, 0] })).toThrow(/inverseBindMatrices has 3 values/);
  });
});

describe('palette', () => {
  test('a child follows its parent: rotation at the root swings the tip', () => {
    // Root at the origin, a child one unit up the y axis; bind pose inverse = translate(0,-1,0) for the child.
    const skeleton = createSkeleton({
      parents: [-1, 0],
      translations: [0, 0, 0, 0, 1, 0],
      inverseBindMatrices: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1],
    });
    const pose = createPose(skeleton);
    const palette = new Float32Array(24);
    computePalette(skeleton, pose, palette);
    // Bind pose: every bone is the identity on the mesh.
    expect(apply(palette, 1, [0, 2, 0])).toEqual([0, 2, 0]);
    pose.rotations.set(aboutZ(Math.PI / 2), 0);
    computePalette(skeleton, pose, palette);
    // The point (0, 2, 0), bound to the child, turns 90 degrees about z around the root.
    const moved = apply(palette, 1, [0, 2, 0]);
    expect(moved[0]).toBeCloseTo(-2, 6);
    expect(moved[1]).toBeCloseTo(0, 6);
  });

  test('non-joint ancestors and the root transform reach the bones', () => {
    // Node 0 is an armature node (not a joint) scaled by 2; node 1 the only joint.
    const skeleton = createSkeleton({ parents: [-1, 0], scales: [2, 2, 2, 1, 1, 1], joints: [1] });
    const palette = new Float32Array(12);
    const translate = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1];
    computePalette(skeleton, createPose(skeleton), palette, { rootTransform: translate });
    expect(apply(palette, 0, [1, 1, 1])).toEqual([7, 2, 2]);
    expect(() => computePalette(skeleton, createPose(skeleton), new Float32Array(11))).toThrow(GpuSkinningError);
    expect(() => computePalette(skeleton, createPose(skeleton), palette, { rootTransform: [1] })).toThrow(/16 floats/);
  });
});

describe('clips', () => {
  const skeleton = createSkeleton({ parents: [-1, 0] });

  test('LINEAR translation, STEP scale and slerped rotation', () => {
    const clip = createAnimationClip(skeleton, [
      { node: 0, path: 'translation', times: [0, 1, 3], values: [0, 0, 0, 2, 0, 0, 2, 4, 0] },
      { node: 1, path: 'scale', interpolation: 'STEP', times: [0, 1], values: [1, 1, 1, 3, 3, 3] },
      { node: 1, path: 'rotation', times: [0, 2], values: [...aboutZ(0), ...aboutZ(Math.PI)] },
    ]);
    expect(clip.duration).toBe(3);
    const pose = createPose(skeleton);
    sampleClip(clip, 0.5, pose, { loop: false });
    expect(Array.from(pose.translations.subarray(0, 3))).toEqual([1, 0, 0]);
    expect(pose.scales[3]).toBe(1);
    // Slerp a quarter of the way from 0 to 180 degrees: 45 degrees, not the lerp's 36.9.
    const angle = 2 * Math.atan2(pose.rotations[6]!, pose.rotations[7]!);
    expect(angle).toBeCloseTo(Math.PI / 4, 6);
    sampleClip(clip, 2, pose, { loop: false });
    expect(Array.from(pose.translations.subarray(0, 3))).toEqual([2, 2, 0]);
    expect(pose.scales[4]).toBe(3);
    // Past the end holds the last keys; looping wraps.
    sampleClip(clip, 10, pose, { loop: false });
    expect(Array.from(pose.translations.subarray(0, 3))).toEqual([2, 4, 0]);
    sampleClip(clip, 3.5, pose);
    expect(Array.from(pose.translations.subarray(0, 3))).toEqual([1, 0, 0]);
    sampleClip(clip, -2.5, pose);
    expect(Array.from(pose.translations.subarray(0, 3))).toEqual([1, 0, 0]);
  });

  test('rotations take the shorter arc', () => {
    const q350 = aboutZ((350 / 180) * Math.PI);
    const clip = createAnimationClip(skeleton, [{ node: 0, path: 'rotation', times: [0, 1], values: [...aboutZ(0), ...q350] }]);
    const pose = createPose(skeleton);
    sampleClip(clip, 0.5, pose);
    const angle = 2 * Math.atan2(pose.rotations[2]!, pose.rotations[3]!);
    // Halfway along -10 degrees, not +175.
    expect(Math.abs(angle)).toBeCloseTo((5 / 180) * Math.PI, 6);
  });

  test('CUBICSPLINE follows the Hermite curve through its tangents', () => {
    // x(t) from 0 to 1 over [0, 2] with zero tangents: smoothstep, 0.5 at the middle, 0.15625 at a quarter.
    const clip = createAnimationClip(skeleton, [{ node: 0, path: 'translation', interpolation: 'CUBICSPLINE', times: [0, 2], values: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0] }]);
    const pose = createPose(skeleton);
    sampleClip(clip, 1, pose);
    expect(pose.translations[0]).toBeCloseTo(0.5, 6);
    sampleClip(clip, 0.5, pose);
    expect(pose.translations[0]).toBeCloseTo(0.15625, 6);
    // With slope 1 at both ends (per second), the curve is the line x = t / 2 ... scaled by dt: x = t/2.
    const line = createAnimationClip(skeleton, [{ node: 0, path: 'translation', interpolation: 'CUBICSPLINE', times: [0, 2], values: [0.5, 0, 0, 0, 0, 0, 0.5, 0, 0, 0.5, 0, 0, 1, 0, 0, 0.5, 0, 0] }]);
    sampleClip(line, 0.5, pose);
    expect(pose.translations[0]).toBeCloseTo(0.25, 6);
  });

  test('quantized rotations (normalized Int16) are decoded', () => {
    const clip = createAnimationClip(skeleton, [{ node: 0, path: 'rotation', interpolation: 'STEP', times: [0], values: new Int16Array([0, 0, Math.round(half * 32767), Math.round(half * 32767)]) }]);
    const pose = createPose(skeleton);
    sampleClip(clip, 0, pose);
    expect(pose.rotations[2]).toBeCloseTo(half, 4);
    expect(pose.rotations[3]).toBeCloseTo(half, 4);
  });

  test('nodes the clip does not animate keep the pose; resetPose restores the rest pose', () => {
    const rest = createSkeleton({ parents: [-1, 0], translations: [0, 0, 0, 0, 7, 0] });
    const clip = createAnimationClip(rest, [{ node: 0, path: 'translation', times: [0], values: [1, 1, 1] }]);
    const pose = createPose(rest);
    pose.translations[4] = 9;
    sampleClip(clip, 0, pose);
    expect(pose.translations[4]).toBe(9);
    resetPose(rest, pose);
    expect(pose.translations[4]).toBe(7);
  });

  test('bad channels are refused', () => {
    const bad = (channel: Parameters<typeof createAnimationClip>[1][number]) => () => createAnimationClip(skeleton, [channel]);
    expect(bad({ node: 2, path: 'translation', times: [0], values: [0, 0, 0] })).toThrow(/node 2/);
    expect(bad({ node: 0, path: 'weights' as 'scale', times: [0], values: [0, 0, 0] })).toThrow(/morph target/);
    expect(bad({ node: 0, path: 'scale', interpolation: 'BEZIER' as 'STEP', times: [0], values: [0, 0, 0] })).toThrow(/interpolation/);
    expect(bad({ node: 0, path: 'translation', times: [0, 0], values: [0, 0, 0, 0, 0, 0] })).toThrow(/must increase/);
    expect(bad({ node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0] })).toThrow(/6 expected/);
    expect(bad({ node: 0, path: 'rotation', times: [0], values: [0, 0, 0, 0] })).toThrow(/zero quaternion/);
    expect(bad({ node: 0, path: 'translation', times: [], values: [] })).toThrow(/no keys/);
    expect(bad({ node: 0, path: 'translation', times: [Number.NaN], values: [0, 0, 0] })).toThrow(/finite/);
    expect(() => createAnimationClip(skeleton, [
      { node: 0, path: 'scale', times: [0], values: [1, 1, 1] },
      { node: 0, path: 'scale', times: [0], values: [2, 2, 2] },
    ])).toThrow(/two channels/);
    expect(() => { sampleClip(createAnimationClip(skeleton, []), Number.NaN, createPose(skeleton)); }).toThrow(/finite/);
  });
});

// The fluid's depth write is scissored to the pixels its bounds can cover.
import { describe, expect, test } from 'vitest';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { screenRect, unionRect } from '../src/screen-rect.ts';

const clipFromWorld = (eye: [number, number, number], target: [number, number, number]): Float64Array => {
  const a = perspective({ fovY: 0.9, aspect: 2, near: 0.1, far: Infinity, reversedZ: true });
  const b = lookAt(eye, target);
  const m = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) m[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
  return m;
};

describe('screenRect', () => {
  test('a box in front of the camera covers a centred rectangle inside the target', () => {
    const [x, y, w, h] = screenRect(clipFromWorld([0, 0, 10], [0, 0, 0]), [-1, -1, -1], [1, 1, 1], 0, 200, 100);
    expect(w).toBeGreaterThan(10);
    expect(w).toBeLessThan(200);
    expect(x + w / 2).toBeCloseTo(100, -1);
    expect(y + h / 2).toBeCloseTo(50, -1);
    // The margin grows it on every side.
    const [gx, gy, gw, gh] = screenRect(clipFromWorld([0, 0, 10], [0, 0, 0]), [-1, -1, -1], [1, 1, 1], 0.5, 200, 100);
    expect(gx).toBeLessThan(x);
    expect(gy).toBeLessThan(y);
    expect(gw).toBeGreaterThan(w);
    expect(gh).toBeGreaterThan(h);
  });

  test('a box reaching behind the camera takes the whole target; one off to the side takes none', () => {
    expect(screenRect(clipFromWorld([0, 0, 10], [0, 0, 0]), [-1, -1, 5], [1, 1, 15], 0, 200, 100)).toEqual([0, 0, 200, 100]);
    const [, , w, h] = screenRect(clipFromWorld([0, 0, 10], [0, 0, 0]), [100, -1, -1], [102, 1, 1], 0, 200, 100);
    expect(w * h).toBe(0);
  });

  test('unionRect holds both and ignores empty ones', () => {
    expect(unionRect([10, 10, 5, 5], [0, 12, 4, 10])).toEqual([0, 10, 15, 12]);
    expect(unionRect([0, 0, 0, 0], [3, 4, 5, 6])).toEqual([3, 4, 5, 6]);
    expect(unionRect([3, 4, 5, 6], [9, 9, 0, 3])).toEqual([3, 4, 5, 6]);
  });
});

// Cameras are checked where they come in, so a frame never fails on one.
import { describe, expect, test } from 'vitest';
import { EngineError } from '../src/errors.ts';
import { CAMERA_EXTENT, checkCamera, upFor, viewMatrix } from '../src/runtime/camera.ts';
import { describeError } from '../src/describe-error.ts';

describe('camera checks', () => {
  test.each([
    ['position equal to target', { position: [1, 2, 3], target: [1, 2, 3] }, /at least 0.001 apart/],
    ['1e30', { position: [1e30, 0, 0], target: [0, 0, 0] }, /outside ±1000000/],
    ['1e308 in the target', { position: [0, 1, 0], target: [0, -1e308, 0] }, /camera target .* outside/],
    ['NaN', { position: [Number.NaN, 0, 0], target: [0, 0, 0] }, /not finite/],
    ['Infinity', { position: [0, 0, 0], target: [0, 0, Number.POSITIVE_INFINITY] }, /not finite/],
    ['a field of view of 0', { position: [0, 0, 5], target: [0, 0, 0], fovY: 0 }, /fovY 0 must be between/],
  ] as const)('%s is refused with a reason', (_name, camera, reason) => {
    expect(() => checkCamera({ position: [...camera.position], target: [...camera.target], ...('fovY' in camera ? { fovY: camera.fovY } : {}) })).toThrow(EngineError);
    expect(() => checkCamera({ position: [...camera.position], target: [...camera.target], ...('fovY' in camera ? { fovY: camera.fovY } : {}) })).toThrow(reason);
  });

  test('a camera looking straight down or up the world\'s up axis gets another up vector and a finite view', () => {
    for (const target of [[0, 0, 0], [0, 20, 0]] as const) {
      const camera = checkCamera({ position: [0, 10, 0], target: [...target] });
      expect(upFor(camera)).toEqual([0, 0, 1]);
      expect(viewMatrix(camera).every(Number.isFinite)).toBe(true);
    }
    expect(upFor({ position: [0, 10, 10], target: [0, 0, 0] })).toEqual([0, 1, 0]);
  });

  test('the largest allowed camera still gives a finite view matrix', () => {
    const camera = checkCamera({ position: [CAMERA_EXTENT, CAMERA_EXTENT, -CAMERA_EXTENT], target: [-CAMERA_EXTENT, 0, CAMERA_EXTENT] });
    expect(viewMatrix(camera).every(Number.isFinite)).toBe(true);
  });
});

describe('error text', () => {
  test('is never empty', () => {
    expect(describeError(new Error('lost device'))).toBe('lost device');
    expect(describeError(new Error(''))).toBe('Error with no message');
    expect(describeError(new TypeError('   '))).toBe('TypeError with no message');
    expect(describeError(new Error('', { cause: new Error('out of memory') }))).toBe('Error with no message: out of memory');
    expect(describeError('')).toBe('a thrown string with no text');
    expect(describeError(undefined)).toBe('undefined');
  });
});

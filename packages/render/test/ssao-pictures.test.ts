// A reference picture per feature (improved and naive normals, SSAO with each, SSAO in creases),
// stored as PNG under test/fixtures/ssao/: the TypeScript reference must draw it again (to the
// 8-bit step), and the GPU within a small tolerance. How to regenerate: see fixtures/ssao/pictures.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { decodePng, type Picture } from './fixtures/ssao/png.ts';
import { comparePictures, gpuPicture, PICTURE_DIR, PICTURES, referencePicture, type PictureCase } from './fixtures/ssao/pictures.ts';

/** The GPU may differ by this many 8-bit steps (f32 against f64) ... */
const GPU_STEPS = 2;
/**
 * ... except on this share of pixels: normals where a neighbour choice is within rounding; AO
 * where an occlusion test is within rounding of its threshold, which the pass's rgba16float
 * normals (the reference's are f64) make more common. Measured on lavapipe: normals 0,
 * AO up to 0.5 % (the creases picture).
 */
const GPU_OUTLIERS = { normals: 0.002, ao: 0.01 };

function stored(c: PictureCase): Picture {
  return decodePng(readFileSync(join(PICTURE_DIR, c.file)));
}

describe('SSAO reference pictures', () => {
  for (const c of PICTURES) {
    test(`${c.file}: the reference draws the stored picture`, () => {
      const diff = comparePictures(referencePicture(c), stored(c), 1);
      expect(diff.over, `share of pixels more than one step off (max ${diff.max})`).toBeLessThanOrEqual(0.0005);
    });
    gpuTest(`${c.file}: the GPU draws the stored picture within ${GPU_STEPS} steps`, async ({ device }) => {
      const picture = stored(c);
      // Not a blank picture: the feature shows in it.
      const distinct = new Set(picture.pixels).size;
      expect(distinct).toBeGreaterThan(c.kind === 'ao' ? 20 : 6);
      const diff = comparePictures(await gpuPicture(device, c), picture, GPU_STEPS);
      console.log(`${c.file}: ${(diff.over * 100).toFixed(3)} % of pixels more than ${GPU_STEPS} steps off, max ${diff.max}`);
      expect(diff.over, `share of pixels more than ${GPU_STEPS} steps off (max ${diff.max})`).toBeLessThanOrEqual(GPU_OUTLIERS[c.kind]);
    });
  }
});

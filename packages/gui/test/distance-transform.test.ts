// The distance transform is exact: equal to brute force on random masks, and within the
// pixel grid's own error of the analytic distance to a disc and a square.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { distanceFieldImage, distanceTransform, GuiError, signedDistances } from '../src/index.ts';

function bruteForce(mask: Uint8Array, width: number, height: number, px: number, py: number): number {
  let best = Infinity;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (mask[y * width + x]! >= 128) best = Math.min(best, (x - px) ** 2 + (y - py) ** 2);
  return Math.sqrt(best);
}

test('distanceTransform equals brute force on random masks', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), (width, height, density, seed) => {
      let state = seed >>> 0;
      const mask = new Uint8Array(width * height);
      for (let i = 0; i < mask.length; i++) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        mask[i] = state / 2 ** 32 < density ? 255 : 0;
      }
      const field = distanceTransform(mask, width, height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const expected = bruteForce(mask, width, height, x, y);
          if (expected === Infinity) expect(field[y * width + x]).toBe(Infinity);
          else expect(field[y * width + x]).toBeCloseTo(expected, 5);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test('downscaled sampling equals brute force at the low-resolution pixel centres', () => {
  const width = 37;
  const height = 29;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = (i * 7919) % 13 < 3 ? 255 : 0;
  for (const scale of [2, 3, 4]) {
    const inverted = mask.map((v) => 255 - v);
    const { width: w, height: h, data } = signedDistances(mask, width, height, { scale });
    expect([w, h]).toEqual([Math.floor(width / scale), Math.floor(height / scale)]);
    for (let j = 0; j < h; j++) {
      for (let i = 0; i < w; i++) {
        const px = (i + 0.5) * scale - 0.5;
        const py = (j + 0.5) * scale - 0.5;
        const dIn = bruteForce(mask, width, height, px, py);
        const dOut = bruteForce(inverted, width, height, px, py);
        const expected = (dIn < dOut ? dOut - 0.5 : 0.5 - dIn) / scale;
        expect(data[j * w + i]).toBeCloseTo(expected, 5);
      }
    }
  }
});

function analyticError(size: number, scale: number, inside: (x: number, y: number) => boolean, distance: (x: number, y: number) => number): number {
  // Rasterise at pixel centres; the analytic shape is in the same pixel units.
  const mask = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) mask[y * size + x] = inside(x, y) ? 255 : 0;
  const { width, height, data } = signedDistances(mask, size, size, { scale });
  let worst = 0;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const px = (i + 0.5) * scale - 0.5;
      const py = (j + 0.5) * scale - 0.5;
      worst = Math.max(worst, Math.abs(data[j * width + i]! - distance(px, py) / scale));
    }
  }
  return worst;
}

test('a disc: the signed distance is within the pixel grid\'s error of the analytic one', () => {
  const size = 256;
  const c = 127.3;
  const r = 70.6;
  const inside = (x: number, y: number): boolean => Math.hypot(x - c, y - c) <= r;
  const distance = (x: number, y: number): number => r - Math.hypot(x - c, y - c);
  // Rasterising at pixel centres moves a curved edge by up to about half a pixel, and between
  // pixel centres the nearest-centre distances add up to half a pixel more: within one input
  // pixel, which at scale 8 is 1/8 of an output pixel.
  expect(analyticError(size, 1, inside, distance)).toBeLessThan(1);
  expect(analyticError(size, 8, inside, distance)).toBeLessThan(1 / 8);
});

test('a square: the signed distance matches the analytic one, corners included', () => {
  const size = 200;
  const [x0, y0, x1, y1] = [40.5, 60.5, 150.5, 170.5];
  const inside = (x: number, y: number): boolean => x >= x0 && x <= x1 && y >= y0 && y <= y1;
  const distance = (x: number, y: number): number => {
    const dx = Math.max(x0 - x, x - x1);
    const dy = Math.max(y0 - y, y - y1);
    if (dx <= 0 && dy <= 0) return -Math.max(dx, dy);
    return -Math.hypot(Math.max(dx, 0), Math.max(dy, 0));
  };
  // The edges sit exactly half a pixel outside the last pixel centres: exact away from corners.
  expect(analyticError(size, 1, inside, distance)).toBeLessThan(0.25);
  expect(analyticError(size, 4, inside, distance)).toBeLessThan(0.25 / 4);
});

test('distanceFieldImage maps the edge to 128 and the spread to 0 and 255', () => {
  const size = 64;
  const mask = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 32; x < size; x++) mask[y * size + x] = 255;
  const image = distanceFieldImage(mask, size, size, { spread: 4 });
  const row = Array.from(image.data.subarray(10 * size + 26, 10 * size + 38));
  expect(row).toEqual([0, 0, 16, 48, 80, 112, 143, 175, 207, 239, 255, 255]);
});

test('bad sizes and options are refused', () => {
  expect(() => distanceTransform(new Uint8Array(3), 2, 2)).toThrow(GuiError);
  expect(() => distanceTransform(new Uint8Array(4), 0, 2)).toThrow(/positive integers/);
  expect(() => signedDistances(new Uint8Array(4), 2, 2, { scale: 0.5 })).toThrow(/scale must be/);
  expect(() => distanceFieldImage(new Uint8Array(4), 2, 2, { spread: 0 })).toThrow(/spread/);
});

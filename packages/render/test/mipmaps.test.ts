// Textures get a mip chain made on the GPU: every level matches the CPU reference filter
// (linear light for sRGB colour, renormalized for normal maps), and a fine checker seen at
// several distances reads as its average grey far away instead of aliasing.
import { describe, expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { planeMesh, RenderError, RenderScene } from '../src/index.ts';
import { referenceMipLevel, type MipLevel } from '../src/reference/mipmaps.ts';
import { mipLevelCount } from '../src/scene/mipmaps.ts';
import { camera, HEIGHT, newRenderer, renderFrame, WIDTH } from './helpers.ts';

async function readLevel(device: GPUDevice, texture: GPUTexture, level: number): Promise<MipLevel> {
  return { width: Math.max(1, texture.width >> level), height: Math.max(1, texture.height >> level), data: await readTexture(device, texture, 4, 'all', level) };
}

function noise(width: number, height: number, seed: number, normals = false): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(width * height * 4);
  let x = seed;
  const next = (): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) >>> 24);
  for (let i = 0; i < width * height; i++) {
    if (normals) {
      const nx = next() / 255 - 0.5, ny = next() / 255 - 0.5;
      const nz = Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny));
      data.set([Math.round((nx * 0.5 + 0.5) * 255), Math.round((ny * 0.5 + 0.5) * 255), Math.round((nz * 0.5 + 0.5) * 255), 255], i * 4);
    } else {
      data.set([next(), next(), next(), next()], i * 4);
    }
  }
  return data;
}

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

describe('mip chains', () => {
  gpuTest('every level matches the reference filter: sRGB colour in linear light, linear data, normal maps renormalized', async ({ device }) => {
    const scene = new RenderScene(device);
    for (const kind of ['srgb', 'linear', 'normal'] as const) {
      const [width, height] = [64, 32];
      const id = scene.addTexture({ width, height, data: noise(width, height, 7, kind === 'normal') }, { srgb: kind === 'srgb', normalMap: kind === 'normal' });
      const texture = scene.texture(id);
      expect(texture.mipLevelCount).toBe(mipLevelCount(width, height));
      expect(texture.mipLevelCount).toBe(7);
      let expected: MipLevel = { width, height, data: noise(width, height, 7, kind === 'normal') };
      for (let level = 1; level < texture.mipLevelCount; level++) {
        // Each GPU level is made from the GPU's level above: compare with the reference made from that.
        const above = await readLevel(device, texture, level - 1);
        expected = referenceMipLevel(above, kind);
        const got = await readLevel(device, texture, level);
        expect([got.width, got.height]).toEqual([expected.width, expected.height]);
        expect(maxDifference(got.data, expected.data), `${kind} level ${level}`).toBeLessThanOrEqual(kind === 'normal' ? 2 : 1);
      }
    }
    scene.destroy();
  });

  gpuTest('a fine checker on a floor reads as its average far away, and stays a checker near', async ({ device }) => {
    const size = 64;
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data.set((x + y) % 2 === 0 ? [255, 255, 255, 255] : [0, 0, 0, 255], (y * size + x) * 4);
    const spread: Record<string, number[]> = {};
    const means: Record<string, number[]> = {};
    for (const mipmaps of [true, false]) {
      const scene = new RenderScene(device);
      const texture = scene.addTexture({ width: size, height: size, data }, { srgb: true, mipmaps });
      const material = scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: texture, roughness: 1, emissive: [0, 0, 0] });
      // A 400-unit floor, the texture repeated every unit: 64 texels a unit.
      scene.addInstance(scene.addMesh(planeMesh(400, 400)), material, new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
      scene.setSun({ direction: [0, -1, 0], color: [1, 1, 1], intensity: 2 });
      const renderer = newRenderer(device);
      spread[String(mipmaps)] = [];
      means[String(mipmaps)] = [];
      // The camera 0.4, 4 and 40 units above the floor, looking straight down.
      for (const height of [0.4, 4, 40]) {
        const frame = await renderFrame(device, renderer, scene, camera([0, height, 0.001], [0, 0, 0]));
        const values: number[] = [];
        for (let y = HEIGHT / 2 - 10; y < HEIGHT / 2 + 10; y++) for (let x = WIDTH / 2 - 10; x < WIDTH / 2 + 10; x++) values.push(frame.pixels[(y * WIDTH + x) * 4]!);
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        spread[String(mipmaps)]!.push(Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length));
        means[String(mipmaps)]!.push(mean);
      }
      renderer.destroy();
      scene.destroy();
    }
    const figures = JSON.stringify({ spread, means });
    const [nearWith, middleWith, farWith] = spread.true!;
    const [, middleWithout, farWithout] = spread.false!;
    // Near, 2.5 texels a pixel at most: the checker's contrast is there.
    expect(nearWith, figures).toBeGreaterThan(20);
    // Farther, tens and hundreds of texels a pixel: with mips an even grey, without them noise.
    expect(Math.max(middleWith!, farWith!), figures).toBeLessThan(1);
    expect(Math.min(middleWithout!, farWithout!), figures).toBeGreaterThan(2);
    // And the same brightness as the checker near: averaged in linear light (an average of the
    // sRGB bytes would be far darker: 128 against 188 before lighting).
    const [nearMean, , farMean] = means.true!;
    expect(Math.abs(farMean! - nearMean!), figures).toBeLessThan(12);
  });

  gpuTest('a normal map in an sRGB format is refused before anything is made', ({ device }) => {
    const scene = new RenderScene(device);
    expect(() => scene.addTexture({ width: 2, height: 2, data: new Uint8Array(16) }, { srgb: true, normalMap: true })).toThrow(RenderError);
    scene.destroy();
    return Promise.resolve();
  });
});

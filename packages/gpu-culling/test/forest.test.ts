// The generated forest: the benchmark's scene for 2.5D culling. It must be reproducible, keep its
// lights inside the forest, refuse bad options, and be the scene it claims to be: a view where
// the depth mask removes lights that 2D tiles keep, without losing one that lights a pixel.
import { describe, expect, it } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { BOX_FLOATS, entitiesPerShadedPixel, EntityList, ForwardPlusBoxes, generateForest, GpuCullingError, lookAt, perspective, populateForest, TILE_INFO_WORDS, TileCuller } from '../src/index.ts';

const WIDTH = 320, HEIGHT = 180;

describe('generateForest', () => {
  it('makes the same forest from the same seed, ground first', () => {
    const a = generateForest({ seed: 9, trees: 16, leaves: 20 });
    const b = generateForest({ seed: 9, trees: 16, leaves: 20 });
    const c = generateForest({ seed: 10, trees: 16, leaves: 20 });
    expect(a.boxes).toEqual(b.boxes);
    expect(a.boxes).not.toEqual(c.boxes);
    expect(a.count * BOX_FLOATS).toBe(a.boxes.length);
    // Ground, then per tree a trunk and 20 leaves, and for some an undergrowth of 6.
    expect(a.count).toBeGreaterThanOrEqual(1 + 16 * 21);
    expect(a.boxes[1]).toBe(-0.5);
    expect(a.boxes[4]).toBeGreaterThan(a.size / 2);
  });

  it('refuses options that make no forest', () => {
    expect(() => generateForest({ size: 0 })).toThrow(GpuCullingError);
    expect(() => generateForest({ trees: 0 })).toThrow(/positive integer tree count/);
    expect(() => generateForest({ leaves: 1.5 })).toThrow(GpuCullingError);
  });

  it('hangs its lights inside the forest, at the heights asked for', () => {
    const forest = generateForest({ trees: 4, leaves: 4 });
    const entities = new EntityList();
    const positions = populateForest(forest, entities, { lights: 500, height: [1, 2], spotShare: 0.5 });
    expect(entities.counts.lights).toBe(500);
    for (let i = 0; i < 500; i++) {
      expect(Math.abs(positions[i * 3]!)).toBeLessThanOrEqual(forest.size / 2);
      expect(positions[i * 3 + 1]!).toBeGreaterThanOrEqual(1);
      expect(positions[i * 3 + 1]!).toBeLessThanOrEqual(2);
      expect(Math.abs(positions[i * 3 + 2]!)).toBeLessThanOrEqual(forest.size / 2);
    }
  });
});

describe('entitiesPerShadedPixel', () => {
  it('weights each tile by its surface pixels and skips empty tiles', () => {
    const tileInfoWords = new Uint32Array(3 * TILE_INFO_WORDS);
    tileInfoWords[9] = 100; // 100 surface pixels, 4 entities
    tileInfoWords[TILE_INFO_WORDS + 9] = 0; // sky: its 50 entities shade nothing
    tileInfoWords[2 * TILE_INFO_WORDS + 9] = 300; // 300 pixels, 2 entities
    expect(entitiesPerShadedPixel({ entitiesPerTile: Uint32Array.of(4, 50, 2), tileInfoWords })).toBeCloseTo((400 + 600) / 400, 12);
    expect(entitiesPerShadedPixel({ entitiesPerTile: Uint32Array.of(7), tileInfoWords: new Uint32Array(TILE_INFO_WORDS) })).toBe(0);
  });
});

describe('the forest view', () => {
  gpuTest('the depth mask drops lights from its tiles and no lit pixel changes', async ({ device }) => {
    const forest = generateForest({ seed: 3 });
    const entities = new EntityList();
    populateForest(forest, entities, { lights: 1000, seed: 4 });
    const camera = { view: lookAt([-forest.size / 2 - 2, 1.7, 3], [0, 3, 0]), projection: perspective({ fovY: 1.0, aspect: WIDTH / HEIGHT, near: 0.2, far: 500 }) };
    const culler = new TileCuller(device, { technique: 'flat-bits', maxEntities: 1024 });
    const boxes = new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm' });
    boxes.setBoxes(forest.boxes);
    boxes.setCamera(camera);
    culler.setCamera(camera);
    culler.setEntities(entities);
    const depth = device.createTexture({ size: [WIDTH, HEIGHT], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    let encoder = device.createCommandEncoder();
    boxes.drawDepth(encoder, depth.createView());
    device.queue.submit([encoder.finish()]);

    const perPixel: number[] = [];
    const images: Uint8Array[] = [];
    for (const depthMask of [false, true]) {
      culler.depthMask = depthMask;
      const color = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
      encoder = device.createCommandEncoder();
      culler.cull(encoder, depth);
      boxes.drawShaded(encoder, color.createView(), depth.createView(), 'culled');
      device.queue.submit([encoder.finish()]);
      perPixel.push(entitiesPerShadedPixel(await culler.read()));
      images.push(await readTexture(device, color, 4));
    }
    const [flat, masked] = perPixel as [number, number];
    expect(flat, 'lights per shaded pixel with 2D tiles').toBeGreaterThan(1);
    // The scene exists to show the mask at work. At this size it removes about 12% (the tiles
    // cover much of the world); at 1080p and 4K about a third (BENCHMARKS.md).
    expect(masked / flat).toBeLessThan(0.95);
    let worst = 0;
    for (let i = 0; i < images[0]!.length; i++) worst = Math.max(worst, Math.abs(images[0]![i]! - images[1]![i]!));
    expect(worst, 'largest channel difference between 2D and 2.5D tiles').toBeLessThanOrEqual(1);
    boxes.destroy();
    culler.destroy();
  });
});

// The whole path on a generated city: depth prepass, culling, then forward+ shading, tiled
// deferred shading and the heatmap. Culling is only an optimisation, so the culled image must
// equal shading every entity at every pixel: a light lost by culling would show.
import { describe, expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { gpuTileSet } from './gpu-helpers.ts';
import { CullingHeatmap, EntityList, ForwardPlusBoxes, generateCity, lookAt, perspective, populateCity, TiledDeferredShading, TileCuller, type Technique } from '../src/index.ts';

const WIDTH = 160, HEIGHT = 96;

function citySetup(device: GPUDevice, technique: Technique, reversedZ: boolean, tileLists = true) {
  const city = generateCity({ seed: 3, blocks: 4 });
  const entities = new EntityList();
  populateCity(city, entities, { lights: 300, decals: 12, probes: 6, range: [3, 10] });
  const camera = { view: lookAt([city.street(1) + 1, 3, city.street(0) - 10], [city.street(1) + 1, 2, city.street(4)]), projection: perspective({ fovY: 1.1, aspect: WIDTH / HEIGHT, near: 0.2, far: 400, reversedZ }) };
  const culler = new TileCuller(device, { technique, maxEntities: 512, tileLists });
  const boxes = new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm', reversedZ });
  boxes.setBoxes(city.boxes);
  boxes.setCamera(camera);
  culler.setCamera(camera);
  culler.setEntities(entities);
  const depth = device.createTexture({ size: [WIDTH, HEIGHT], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
  const color = () => device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  boxes.drawDepth(encoder, depth.createView());
  culler.cull(encoder, depth);
  device.queue.submit([encoder.finish()]);
  return { city, entities, camera, culler, boxes, depth, color };
}

function differences(a: Uint8Array, b: Uint8Array): { worst: number; mean: number; lit: number } {
  let worst = 0, sum = 0, lit = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a[i + c]! - b[i + c]!);
      worst = Math.max(worst, d);
      sum += d;
    }
    if (a[i]! + a[i + 1]! + a[i + 2]! > 60) lit++;
  }
  return { worst, mean: sum / ((a.length / 4) * 3), lit };
}

describe.each(['flat-bits', 'compaction'] as const)('%s', (technique) => {
  gpuTest('forward+ over culled tiles draws what shading every entity draws', async ({ device }) => {
    const { culler, boxes, depth, color } = citySetup(device, technique, false);
    const culled = color(), everything = color();
    const encoder = device.createCommandEncoder();
    boxes.drawShaded(encoder, culled.createView(), depth.createView(), 'culled');
    boxes.drawShaded(encoder, everything.createView(), depth.createView(), 'everything');
    device.queue.submit([encoder.finish()]);
    const a = await readTexture(device, culled, 4), b = await readTexture(device, everything, 4);
    const diff = differences(a, b);
    expect(diff.lit, 'pixels visibly lit').toBeGreaterThan(WIDTH * HEIGHT * 0.05);
    expect(diff.worst, 'largest channel difference').toBeLessThanOrEqual(1);
    const { entitiesPerTile } = await culler.read();
    expect(Math.max(...entitiesPerTile)).toBeGreaterThan(5);
    boxes.destroy();
    culler.destroy();
  });
});

describe('flat bits, list and bits forms', () => {
  gpuTest('tiles written as lists hold and shade exactly what bits hold and shade', async ({ device }) => {
    const runs = [];
    for (const tileLists of [true, false]) {
      const { culler, boxes, depth, color } = citySetup(device, 'flat-bits', false, tileLists);
      const image = color();
      const encoder = device.createCommandEncoder();
      boxes.drawShaded(encoder, image.createView(), depth.createView(), 'culled');
      device.queue.submit([encoder.finish()]);
      const result = await culler.read();
      const sets = Array.from(result.entitiesPerTile, (_, t) => gpuTileSet(culler, result, t).join(','));
      let lists = 0;
      for (let t = 0; t < result.entitiesPerTile.length; t++) if (result.entitiesPerTile[t]! > 0 && result.tiles[t * culler.wordsPerTile]! >>> 31) lists++;
      runs.push({ sets, pixels: await readTexture(device, image, 4), lists, most: Math.max(...result.entitiesPerTile) });
      boxes.destroy();
      culler.destroy();
    }
    const [listed, bits] = runs as [(typeof runs)[0], (typeof runs)[0]];
    // 18 words a tile: up to 16 entities make a list; the fullest tiles keep their bits.
    expect(listed.lists, 'tiles written as lists').toBeGreaterThan(20);
    expect(listed.most, 'entities in the fullest tile').toBeGreaterThan(16);
    expect(bits.lists, 'tileLists: false writes no list').toBe(0);
    expect(listed.sets).toEqual(bits.sets);
    // Both forms walk a tile's entities in ascending order, so the lights add up in the same order.
    expect(differences(listed.pixels, bits.pixels).worst).toBe(0);
    expect(differences(listed.pixels, bits.pixels).lit).toBeGreaterThan(WIDTH * HEIGHT * 0.05);
  });
});

describe('tiled deferred and heatmap', () => {
  gpuTest('tiled deferred shading matches forward+ (reversed Z)', async ({ device }) => {
    const { culler, boxes, depth, color } = citySetup(device, 'flat-bits', true);
    const normal = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba16float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    const albedo = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    const gdepth = device.createTexture({ size: [WIDTH, HEIGHT], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    const output = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba16float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
    const deferred = new TiledDeferredShading(device, culler);
    const forward = color();
    const encoder = device.createCommandEncoder();
    boxes.drawGBuffer(encoder, normal.createView(), albedo.createView(), gdepth.createView());
    deferred.shade(encoder, { depth: gdepth, normal, albedo, output }, [0.02, 0.02, 0.03]);
    boxes.drawShaded(encoder, forward.createView(), depth.createView(), 'culled');
    device.queue.submit([encoder.finish()]);
    const hdr = new Uint16Array((await readTexture(device, output, 8)).buffer);
    const ldr = await readTexture(device, forward, 4);
    // The deferred output is linear: tone-map it as the forward shader does, then compare.
    const half = (h: number): number => {
      const e = (h >> 10) & 31, m = h & 1023;
      return e === 0 ? m * 2 ** -24 : 2 ** (e - 15) * (1 + m / 1024);
    };
    const mapped = new Uint8Array(ldr.length);
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      for (let c = 0; c < 3; c++) {
        const v = half(hdr[i * 4 + c]!);
        mapped[i * 4 + c] = Math.round(255 * Math.pow(v / (1 + v), 1 / 2.2));
      }
    }
    const diff = differences(mapped, ldr);
    expect(diff.lit).toBeGreaterThan(WIDTH * HEIGHT * 0.05);
    // The G-buffer path rebuilds positions from depth and stores normals in half floats.
    expect(diff.mean).toBeLessThan(1.5);
    deferred.destroy();
    boxes.destroy();
    culler.destroy();
  });

  gpuTest('the heatmap colours tiles with entities and leaves empty ones alone', async ({ device }) => {
    const { culler, boxes, color } = citySetup(device, 'flat-bits', false);
    const target = color();
    const heatmap = new CullingHeatmap(device, 'rgba8unorm');
    const encoder = device.createCommandEncoder();
    encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 1 }, storeOp: 'store' }] }).end();
    heatmap.draw(encoder, target.createView(), culler, { maxCount: 16, opacity: 1 });
    device.queue.submit([encoder.finish()]);
    const pixels = await readTexture(device, target, 4);
    const { entitiesPerTile } = await culler.read();
    const grid = culler.grid!;
    for (let t = 0; t < entitiesPerTile.length; t++) {
      // The centre pixel of each tile: black exactly where the tile is empty.
      const x = Math.min(WIDTH - 1, (t % grid.tilesX) * 16 + 8), y = Math.min(HEIGHT - 1, Math.floor(t / grid.tilesX) * 16 + 8);
      const o = (y * WIDTH + x) * 4;
      const black = (pixels[o]! + pixels[o + 1]! + pixels[o + 2]!) === 0;
      expect(black, `tile ${t} with ${entitiesPerTile[t]} entities`).toBe(entitiesPerTile[t] === 0);
    }
    heatmap.destroy();
    boxes.destroy();
    culler.destroy();
  });
});

// The GPU culling against the TypeScript reference on synthetic scenes: every technique, method,
// projection, tile size and depth format. The reference marks decisions within f32 rounding of a
// boundary as borderline; every other (tile, entity) pair must match exactly, and borderline
// pairs must stay rare for the comparison to mean something.
import { describe, expect } from 'vitest';
import { depthTexture, gpuTest } from '@cuttle/test-utils';
import { TileCuller, type TileCullerOptions } from '../src/index.ts';
import { cullScene, expectTileInfo, gpuTileSet, expectTileSets, type CullRun } from './gpu-helpers.ts';
import { makeScene, type SceneOptions } from './scenes.ts';

const EVERY_KIND: Omit<SceneOptions, 'width' | 'height' | 'seed'> = { decals: 12, probes: 6, pointLights: 150, spotLights: 40 };

/** Checks a run against the reference and returns it; at most 2% of pairs may be borderline. */
function expectMatches(run: CullRun, minimumPairs = 300): CullRun {
  expectTileInfo(run);
  const { certain, borderline } = expectTileSets(run);
  expect(certain, 'enough (tile, entity) pairs to mean something').toBeGreaterThan(minimumPairs);
  expect(borderline, `borderline pairs (${borderline} of ${certain + borderline})`).toBeLessThanOrEqual(Math.max(2, certain * 0.02));
  return run;
}

async function gpuAndBack(device: GPUDevice, scene: SceneOptions, options: TileCullerOptions, format?: GPUTextureFormat): Promise<CullRun> {
  const run = await cullScene(device, makeScene(scene), options, format);
  run.culler.destroy();
  return run;
}

describe.each(['flat-bits', 'compaction'] as const)('%s', (technique) => {
  for (const method of ['gather', 'scatter'] as const) {
    gpuTest(`${method}, 2.5D: every entity kind, odd resolution`, async ({ device }) => {
      expectMatches(await gpuAndBack(device, { width: 203, height: 141, seed: 7, ...EVERY_KIND }, { technique, method }));
    });
    gpuTest(`${method}, 2D (no depth mask)`, async ({ device }) => {
      expectMatches(await gpuAndBack(device, { width: 160, height: 112, seed: 11, ...EVERY_KIND }, { technique, method, depthMask: false }));
    });
  }

  gpuTest('gather and scatter give the same tiles, bit for bit', async ({ device }) => {
    const scene = { width: 251, height: 170, seed: 3, decals: 20, probes: 10, pointLights: 400, spotLights: 80, lightRange: [0.3, 6] as [number, number] };
    const gather = await gpuAndBack(device, scene, { technique, method: 'gather' });
    const scatter = await gpuAndBack(device, scene, { technique, method: 'scatter' });
    expect(scatter.result.entitiesPerTile).toEqual(gather.result.entitiesPerTile);
    if (technique === 'flat-bits') expect(scatter.result.tiles).toEqual(gather.result.tiles);
  });

  for (const projection of ['reversed', 'reversed-infinite', 'orthographic'] as const) {
    gpuTest(`${projection} projection`, async ({ device }) => {
      expectMatches(await gpuAndBack(device, { width: 180, height: 120, seed: 5, projection, ...EVERY_KIND }, { technique }), 150);
    });
  }

  for (const tileSize of [8, 32] as const) {
    gpuTest(`${tileSize}x${tileSize} tiles`, async ({ device }) => {
      expectMatches(await gpuAndBack(device, { width: 150, height: 97, seed: 9, ...EVERY_KIND }, { technique, tileSize, method: 'scatter' }), 150);
    });
  }
});

describe('flat bits: list form and bits form', () => {
  // 2,641 words a tile (81,920 entities): a list fits up to 2,640 entities, but its header counts
  // at most 2,047 lights, so tiles with more lights must keep their bits.
  for (const [lights, form] of [[1500, 'list'], [2300, 'bits']] as const) {
    gpuTest(`${lights} lights in every tile: ${form} form, the same entities as the reference`, async ({ device }) => {
      const run = await gpuAndBack(device, { width: 48, height: 32, seed: 2, pointLights: lights, lightRange: [200, 300], sky: 0 }, { technique: 'flat-bits', maxEntities: 81_920, method: 'gather' });
      expectMatches(run, lights * 3);
      const { culler, result } = run;
      for (let t = 0; t < result.entitiesPerTile.length; t++) {
        expect(result.entitiesPerTile[t], `lights in tile ${t}`).toBeGreaterThan(lights * 0.9);
        expect(result.tiles[t * culler.wordsPerTile]! >>> 31, `tile ${t}'s form`).toBe(form === 'list' ? 1 : 0);
      }
    });
  }
});

describe('one culler across resolutions', () => {
  // The tile buffers grow to the largest grid and are reused for smaller ones: each cull must
  // still read back its own grid only (not the larger grid's stale tail), and a grid with no more
  // tiles but a wider aspect (512x128: as many tiles and coarse tiles as 256x256, more tile
  // corners) must get buffers big enough for it.
  gpuTest('each resolution reads back its own tiles, as a fresh culler would', async ({ device }) => {
    const culler = new TileCuller(device, { technique: 'flat-bits', method: 'scatter' });
    for (const [width, height, seed] of [[256, 256, 1], [120, 80, 2], [512, 128, 3]] as const) {
      const scene = makeScene({ width, height, seed, ...EVERY_KIND });
      culler.setCamera(scene.camera);
      culler.setEntities(scene.entities);
      const encoder = device.createCommandEncoder();
      culler.cull(encoder, depthTexture(device, scene.depth, width, height));
      device.queue.submit([encoder.finish()]);
      const reused = await culler.read();
      const fresh = await cullScene(device, scene, { technique: 'flat-bits', method: 'scatter' });
      expect(reused.entitiesPerTile.length, `${width}x${height}`).toBe(culler.grid!.tilesX * culler.grid!.tilesY);
      expect(reused.entitiesPerTile).toEqual(fresh.result.entitiesPerTile);
      expect(Math.max(...reused.entitiesPerTile), 'tiles hold entities').toBeGreaterThan(0);
      // Whole tile words can differ where a bucket's mask bit is clear (buckets are written only
      // when occupied); the entity sets they encode must not.
      for (let t = 0; t < reused.entitiesPerTile.length; t++) expect(gpuTileSet(culler, reused, t)).toEqual(gpuTileSet(fresh.culler, fresh.result, t));
      expect(reused.tileInfoWords).toEqual(fresh.result.tileInfoWords);
      fresh.culler.destroy();
    }
    culler.destroy();
  });
});

describe('culling workgroup sizes', () => {
  for (const cullThreads of [64, 256] as const) {
    for (const technique of ['flat-bits', 'compaction'] as const) {
      gpuTest(`${cullThreads} invocations per tile, ${technique}, scatter`, async ({ device }) => {
        expectMatches(await gpuAndBack(device, { width: 203, height: 141, seed: 7, ...EVERY_KIND }, { technique, method: 'scatter', cullThreads }));
      });
    }
  }
});

describe('compaction details', () => {
  gpuTest('the portable append (no subgroups) matches too', async ({ device }) => {
    const run = expectMatches(await gpuAndBack(device, { width: 203, height: 141, seed: 7, ...EVERY_KIND }, { technique: 'compaction', subgroups: false }));
    expect(run.culler.subgroups).toBe(false);
  });

  gpuTest('full tiles drop entities and say how many', async ({ device }) => {
    const cap = 6;
    const run = await gpuAndBack(device, { width: 128, height: 96, seed: 21, decals: 4, pointLights: 300, lightRange: [2, 6] }, { technique: 'compaction', maxPerTile: cap });
    expectTileInfo(run);
    expectTileSets(run);
    let fewest = 0, most = 0, tilesOver = 0;
    const { definite, possible, bucketsPerTile } = run.reference;
    const count = (bits: Uint32Array, t: number): number => {
      let n = 0;
      for (let b = 0; b < bucketsPerTile; b++) for (let v = bits[t * bucketsPerTile + b]!; v !== 0; v &= v - 1) n++;
      return n;
    };
    for (let t = 0; t < run.result.entitiesPerTile.length; t++) {
      fewest += Math.max(0, count(definite, t) - cap);
      most += Math.max(0, count(possible, t) - cap);
      if (count(definite, t) > cap) tilesOver++;
    }
    expect(tilesOver).toBeGreaterThan(10);
    expect(run.result.droppedEntities).toBeGreaterThanOrEqual(fewest);
    expect(run.result.droppedEntities).toBeLessThanOrEqual(most);
    expect(run.result.overflowedTiles).toBeGreaterThanOrEqual(tilesOver);
  });
});

describe('depth formats', () => {
  for (const format of ['depth24plus-stencil8', 'depth32float-stencil8', 'depth16unorm'] as const) {
    gpuTest(format, async ({ device }) => {
      if (format === 'depth32float-stencil8' && !device.features.has('depth32float-stencil8')) return;
      // depth16unorm stores k / 65535: give it values it holds exactly so both sides see the same depths.
      const run = await cullScene(device, quantizedScene(format), { technique: 'flat-bits' }, format);
      run.culler.destroy();
      expectMatches(run, 100);
    });
  }
});

function quantizedScene(format: GPUTextureFormat): ReturnType<typeof makeScene> {
  const scene = makeScene({ width: 130, height: 90, seed: 13, ...EVERY_KIND });
  const steps = format === 'depth16unorm' ? 65535 : format.startsWith('depth24') ? 16777215 : 0;
  if (steps > 0) for (let i = 0; i < scene.depth.length; i++) scene.depth[i] = Math.fround(Math.round(scene.depth[i]! * steps) / steps);
  return scene;
}

// GPU side of the tests: upload a depth buffer into a real depth texture (@cuttle/test-utils),
// run the culler, and hold its result against the reference.
import { expect } from 'vitest';
import { depthTexture } from '@cuttle/test-utils';
import {
  cullReference,
  GPU_TOLERANCE,
  TILE_INFO_WORDS,
  compareTiles,
  gpuTileEntities,
  TileCuller,
  type CullReadback,
  type TileLayout,
  type CullReferenceResult,
  type TileCullerOptions,
} from '../src/index.ts';
import type { TestScene } from './scenes.ts';


export interface CullRun {
  culler: TileCuller;
  result: CullReadback;
  reference: CullReferenceResult;
}

/** Culls `scene` on the GPU and with the reference (GPU_TOLERANCE), returning both. */
export async function cullScene(device: GPUDevice, scene: TestScene, options: TileCullerOptions, format: GPUTextureFormat = 'depth32float'): Promise<CullRun> {
  const culler = new TileCuller(device, options);
  const texture = depthTexture(device, scene.depth, scene.width, scene.height, format);
  culler.setCamera(scene.camera);
  culler.setEntities(scene.entities);
  const encoder = device.createCommandEncoder();
  culler.cull(encoder, texture);
  device.queue.submit([encoder.finish()]);
  const result = await culler.read();
  const reference = cullReference(
    { grid: culler.grid!, camera: culler.camera!, depth: scene.depth, entities: scene.entities.pack(), counts: scene.entities.counts, depthMask: culler.depthMask, bucketsPerTile: culler.bucketsPerTile },
    GPU_TOLERANCE,
  );
  return { culler, result, reference };
}

export interface Agreement {
  /** (tile, entity) pairs certainly in, and borderline (within f32 rounding of a decision). */
  certain: number;
  borderline: number;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

/** Holds the tile info (depth range, mask, pixels) of the GPU against the reference. */
export function expectTileInfo(run: CullRun): void {
  const { result, reference } = run;
  const tiles = reference.tiles;
  for (let t = 0; t < tiles.surfacePixels.length; t++) {
    const o = t * TILE_INFO_WORDS;
    const pixels = result.tileInfoWords[o + 9]!;
    expect(pixels, `surface pixels of tile ${t}`).toBe(tiles.surfacePixels[t]);
    if (pixels === 0) continue;
    const minDepth = result.tileInfo[o + 3]!, maxDepth = result.tileInfo[o + 7]!;
    expect(Math.abs(minDepth - tiles.minDepth[t]!), `min depth of tile ${t}`).toBeLessThanOrEqual(tiles.minDepthSlack[t]! + 1e-6 * Math.abs(minDepth));
    expect(Math.abs(maxDepth - tiles.maxDepth[t]!), `max depth of tile ${t}`).toBeLessThanOrEqual(tiles.maxDepthSlack[t]! + 1e-6 * Math.abs(maxDepth));
    const mask = result.tileInfoWords[o + 8]!;
    expect((tiles.maskDefinite[t]! & ~mask) >>> 0, `2.5D mask of tile ${t} lacks certain slices`).toBe(0);
    expect((mask & ~tiles.maskPossible[t]!) >>> 0, `2.5D mask of tile ${t} has slices no pixel can set`).toBe(0);
  }
}

/** The GPU's entity set of tile `t`: the flat bits, or the compaction list's entries. */
export function gpuTileSet(culler: TileCuller, result: CullReadback, t: number): number[] {
  return gpuTileEntities(result.tiles, layoutOf(culler), t);
}

function layoutOf(culler: TileCuller): TileLayout {
  return { technique: culler.technique, bucketsPerTile: culler.bucketsPerTile, wordsPerTile: culler.wordsPerTile, maskWords: culler.maskWords, maxPerTile: culler.maxPerTile, counts: culler.entityCounts };
}

/** Every tile's GPU set lies between the reference's certain and possible sets (see compareTiles). */
export function expectTileSets(run: CullRun): Agreement {
  const comparison = compareTiles(run.result.tiles, run.result.entitiesPerTile, layoutOf(run.culler), run.reference);
  expect(comparison.errors).toEqual([]);
  return { certain: comparison.certain, borderline: comparison.borderline };
}

/** Pairs in the reference's possible sets, summed over tiles. */
export function referencePairs(reference: CullReferenceResult): number {
  let n = 0;
  for (const word of reference.possible) n += popcount(word);
  return n;
}

// GPU side of the tests: upload a depth buffer into a real depth texture (a full-screen draw
// writing frag_depth, since depth textures cannot be copy destinations), run the culler, and
// hold its result against the reference.
import { expect } from 'vitest';
import { createBufferWithData } from '@cuttle/test-utils';
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

const WRITE_DEPTH_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> values: array<f32>;
@group(0) @binding(1) var<uniform> width: u32;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) position: vec4f) -> @builtin(frag_depth) f32 {
  let p = vec2u(position.xy);
  return values[p.y * width + p.x];
}`;

export function depthTexture(device: GPUDevice, values: Float32Array, width: number, height: number, format: GPUTextureFormat = 'depth32float'): GPUTexture {
  const texture = device.createTexture({ size: [width, height], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
  const module = device.createShaderModule({ code: WRITE_DEPTH_WGSL });
  const pipeline = device.createRenderPipeline({
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [] },
    depthStencil: { format, depthWriteEnabled: true, depthCompare: 'always' },
  });
  const valueBuffer = createBufferWithData(device, values, GPUBufferUsage.STORAGE);
  const widthBuffer = createBufferWithData(device, new Uint32Array([width, 0, 0, 0]), GPUBufferUsage.UNIFORM);
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: valueBuffer } }, { binding: 1, resource: { buffer: widthBuffer } }] });
  const encoder = device.createCommandEncoder();
  const hasStencil = format.includes('stencil');
  const pass = encoder.beginRenderPass({
    colorAttachments: [],
    depthStencilAttachment: {
      view: texture.createView(),
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
      depthClearValue: 0,
      ...(hasStencil ? { stencilLoadOp: 'clear' as const, stencilStoreOp: 'store' as const } : {}),
    },
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  return texture;
}

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

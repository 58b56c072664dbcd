// The WGSL module users walk tiles with, run in a compute shader: every pixel walks its tile's
// decals, probes and lights and reports what it saw; that must be exactly its tile's set from
// the culler, with and without subgroups, for flat-bits tiles in list and bits form, through
// both flat-bit walks (sparse and dense), and in ascending order over flat bits.
import { describe, expect, test } from 'vitest';
import { createBufferWithData, gpuTest, readBuffer, depthTexture } from '@cuttle/test-utils';
import { cullingShaderModule, GpuCullingError, SPARSE_WALK_MAX_ENTITIES, TileCuller, type CullWalk, type Technique } from '../src/index.ts';
import { gpuTileSet } from './gpu-helpers.ts';
import { makeScene } from './scenes.ts';

const PROBE_WGSL = /* wgsl */ `
@group(1) @binding(0) var<storage, read_write> seen: array<vec4u>;
@group(1) @binding(1) var<uniform> size: vec4u;

// Whether entity e is in tile t by the tile buffer itself (per lane, not scalarized).
fn in_own_tile(t: u32, e: u32) -> bool {
  if (cull_view.technique == 0u) {
    let base = t * cull_view.words_per_tile;
    let header = cull_tiles[base];
    if ((header & 0x80000000u) != 0u) {
      let count = (header & 0x3ffu) + ((header >> 10u) & 0x3ffu) + ((header >> 20u) & 0x7ffu);
      for (var i = 0u; i < count; i++) {
        if (cull_tiles[base + 1u + i] == e) { return true; }
      }
      return false;
    }
    let bucket = e / 32u;
    let listed = (cull_tiles[base + 1u + bucket / 32u] & (1u << (bucket & 31u))) != 0u;
    return listed && (cull_tiles[base + 1u + cull_view.mask_words + bucket] & (1u << (e & 31u))) != 0u;
  }
  let header = cull_tiles[t * cull_view.words_per_tile];
  let count = (header & 0x3ffu) + ((header >> 10u) & 0x3ffu) + ((header >> 20u) & 0x3ffu);
  for (var i = 0u; i < count; i++) {
    if (cull_tiles[t * cull_view.words_per_tile + 1u + i] == e) { return true; }
  }
  return false;
}

fn kind_range(kind: u32) -> vec2u {
  let first = select(select(cull_view.decals + cull_view.probes, cull_view.decals, kind == 1u), 0u, kind == 0u);
  return vec2u(first, first + select(select(cull_view.lights, cull_view.probes, kind == 1u), cull_view.decals, kind == 0u));
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  // Shifted by half a tile so that subgroups straddle tiles.
  let pixel = id.xy + vec2u(size.z, 0u);
  let inside = all(pixel < size.xy);
  let tile = cull_tile(vec2f(min(pixel, size.xy - 1u)) + 0.5);
  var own = 0u;
  var checksum = 0u;
  var walked = 0u;
  var wrong_kind = 0u;
  for (var kind = 0u; kind < 3u; kind++) {
    var it = cull_lights(tile);
    if (kind == 0u) { it = cull_decals(tile); }
    if (kind == 1u) { it = cull_probes(tile); }
    let range = kind_range(kind);
    var previous = 0u;
    var any = false;
    loop {
      let e = cull_next(&it);
      if (e == CULL_END) { break; }
      if (e == CULL_SKIP) { continue; }
      walked += 1u;
      let entity_kind = min(cull_entities[e].v3.x, 2u);
      if (e < range.x || e >= range.y || entity_kind != kind) { wrong_kind += 1u; }
      // Flat bits give a tile's entities in ascending order, lists and bits alike.
      if (cull_view.technique == 0u && any && e <= previous) { wrong_kind += 1u; }
      previous = e;
      any = true;
      if (in_own_tile(tile, e)) {
        own += 1u;
        checksum += (e + 1u) * (e + 7u);
      }
    }
  }
  if (inside) {
    seen[pixel.y * size.x + pixel.x] = vec4u(own, checksum, walked, wrong_kind);
  }
}`;

async function walkTiles(device: GPUDevice, technique: Technique, scalarize: boolean, walk: CullWalk = 'auto'): Promise<void> {
  const scene = makeScene({ width: 99, height: 61, seed: 4, decals: 8, probes: 5, pointLights: 120, spotLights: 30, lightRange: [0.5, 5] });
  const culler = new TileCuller(device, { technique, tileSize: 8, maxEntities: 256 });
  const depth = depthTexture(device, scene.depth, scene.width, scene.height);
  culler.setCamera(scene.camera);
  culler.setEntities(scene.entities);
  const encoder = device.createCommandEncoder();
  culler.cull(encoder, depth);
  device.queue.submit([encoder.finish()]);
  const result = await culler.read();
  if (technique === 'flat-bits') {
    // 10 words a tile: tiles of up to 8 entities are lists, fuller ones keep their bits.
    let lists = 0, bits = 0;
    for (let t = 0; t < result.entitiesPerTile.length; t++) {
      if (result.entitiesPerTile[t] === 0) continue;
      if (result.tiles[t * culler.wordsPerTile]! >>> 31) lists++;
      else bits++;
    }
    expect(lists, 'tiles in list form').toBeGreaterThan(20);
    expect(bits, 'tiles in bits form').toBeGreaterThan(20);
  }

  const module = device.createShaderModule({ code: culler.shaderModule({ scalarize, shading: false, walk }) + PROBE_WGSL });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const seen = device.createBuffer({ size: scene.width * scene.height * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const size = createBufferWithData(device, new Uint32Array([scene.width, scene.height, 4, 0]), GPUBufferUsage.UNIFORM);
  const encoderWalk = device.createCommandEncoder();
  const pass = encoderWalk.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: culler.bindGroupEntries(0) }));
  pass.setBindGroup(1, device.createBindGroup({ layout: pipeline.getBindGroupLayout(1), entries: [{ binding: 0, resource: { buffer: seen } }, { binding: 1, resource: { buffer: size } }] }));
  pass.dispatchWorkgroups(Math.ceil(scene.width / 8), Math.ceil(scene.height / 8));
  pass.end();
  device.queue.submit([encoderWalk.finish()]);
  const out = new Uint32Array(await readBuffer(device, seen));

  let total = 0;
  for (let y = 0; y < scene.height; y++) {
    for (let x = 4; x < scene.width; x++) {
      const tile = Math.floor(y / 8) * culler.grid!.tilesX + Math.floor(x / 8);
      const set = gpuTileSet(culler, result, tile);
      const o = (y * scene.width + x) * 4;
      const expectedChecksum = set.reduce((sum, e) => (sum + (e + 1) * (e + 7)) >>> 0, 0);
      expect([out[o], out[o + 1], out[o + 3]], `pixel ${x},${y} (tile ${tile})`).toEqual([set.length, expectedChecksum, 0]);
      expect(out[o + 2], `pixel ${x},${y} walks only its own tile`).toBe(set.length);
      total += set.length;
    }
  }
  expect(total).toBeGreaterThan(1000);
  culler.destroy();
}

describe.each(['flat-bits', 'compaction'] as const)('%s', (technique) => {
  gpuTest('each pixel walks exactly its tile, per kind', async ({ device }) => {
    await walkTiles(device, technique, false);
  });
  gpuTest('scalarized with subgroups, across subgroups that straddle tiles', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    await walkTiles(device, technique, true);
  });
});

// The culler above has 256 maxEntities, so 'auto' is the sparse walk there; the dense one is
// asked for by name.
describe('flat bits, the dense walk', () => {
  gpuTest('each pixel walks exactly its tile, per kind', async ({ device }) => {
    await walkTiles(device, 'flat-bits', false, 'dense');
  });
  gpuTest('scalarized with subgroups, across subgroups that straddle tiles', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    await walkTiles(device, 'flat-bits', true, 'dense');
  });
});

describe('choosing the walk', () => {
  gpuTest("'auto' is the sparse walk up to SPARSE_WALK_MAX_ENTITIES maxEntities, the dense one above", ({ device }) => {
    const small = new TileCuller(device, { technique: 'flat-bits', maxEntities: SPARSE_WALK_MAX_ENTITIES });
    const large = new TileCuller(device, { technique: 'flat-bits', maxEntities: SPARSE_WALK_MAX_ENTITIES + 32 });
    expect([small.resolvedWalk(), large.resolvedWalk(), large.resolvedWalk('sparse'), small.resolvedWalk('dense')]).toEqual(['sparse', 'dense', 'sparse', 'dense']);
    expect(small.shaderModule()).toBe(small.shaderModule({ walk: 'sparse' }));
    expect(large.shaderModule()).toBe(large.shaderModule({ walk: 'dense' }));
    expect(small.shaderModule({ walk: 'sparse' })).not.toBe(small.shaderModule({ walk: 'dense' }));
    small.destroy();
    large.destroy();
    return Promise.resolve();
  });
  test('compaction has one walk; a bad walk or maxEntities is refused', () => {
    expect(cullingShaderModule({ technique: 'compaction', walk: 'sparse' })).toBe(cullingShaderModule({ technique: 'compaction', walk: 'dense' }));
    expect(cullingShaderModule({ technique: 'flat-bits' }), "'auto' without maxEntities").toBe(cullingShaderModule({ technique: 'flat-bits', walk: 'dense' }));
    expect(() => cullingShaderModule({ technique: 'flat-bits', walk: 'fast' as CullWalk })).toThrow(GpuCullingError);
    expect(() => cullingShaderModule({ technique: 'flat-bits', maxEntities: 0 })).toThrow(/maxEntities must be a positive integer/);
  });
});

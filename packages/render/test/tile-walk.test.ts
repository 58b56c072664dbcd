// tileWalk: lighting walks the culled tiles with gpu-culling's sparse or dense walk. Both give
// the same lights in the same order, so the frames must be the same bytes, opaque (deferred)
// and transparent (forward) surfaces alike, over list and bits form tiles.
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { boxMesh, planeMesh, RenderError, RenderScene } from '../src/index.ts';
import { newRenderer, renderFrame, translation } from './helpers.ts';

function litYard(device: GPUDevice): RenderScene {
  const scene = new RenderScene(device);
  const grey = scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.7 });
  scene.addInstance(scene.addMesh(planeMesh(20, 4)), grey);
  scene.addInstance(scene.addMesh(boxMesh(0.6, 1.2, 0.6)), grey, translation(0.5, 0.6, 0));
  scene.addInstance(scene.addMesh(boxMesh(1.2, 1, 0.05)), scene.addMaterial({ baseColor: [0.2, 0.6, 1, 0.5], alphaMode: 'blend' }), translation(-1, 1, 1.5));
  // 60 lights in a 6 m disc: with 64 maxLights a tile has 4 words and lists at most 3
  // entities, so the crowded tiles keep their bits and the others are lists (checked below).
  for (let i = 0; i < 60; i++) {
    const angle = i * 2.4;
    const radius = 0.3 + (i % 10) * 0.55;
    scene.lights.addPointLight({ position: [Math.cos(angle) * radius, 0.3 + (i % 3) * 0.4, Math.sin(angle) * radius], range: 1.5 + (i % 4) * 0.5, color: [0.5 + 0.5 * Math.sin(i), 0.6, 0.5 + 0.5 * Math.cos(i)], intensity: 3 });
  }
  return scene;
}

gpuTest('the sparse and the dense walk light the same frame, byte for byte', async ({ device }) => {
  const scene = litYard(device);
  const frames: Uint8Array[] = [];
  for (const tileWalk of ['sparse', 'dense', 'auto', undefined] as const) {
    const renderer = newRenderer(device, { maxLights: 64, ...(tileWalk ? { tileWalk } : {}) });
    frames.push((await renderFrame(device, renderer, scene)).pixels);
    if (tileWalk === 'auto') expect(renderer.culler.resolvedWalk(), "'auto' at 64 maxLights").toBe('sparse');
    if (tileWalk === 'sparse') {
      const { tiles, entitiesPerTile } = await renderer.culler.read();
      const words = renderer.culler.wordsPerTile;
      let bits = 0, lists = 0;
      for (let t = 0; t < entitiesPerTile.length; t++) {
        if (entitiesPerTile[t] === 0) continue;
        if (tiles[t * words]! >>> 31) lists++;
        else bits++;
      }
      expect([bits > 10, lists > 10], `${bits} tiles in bits form, ${lists} lists`).toEqual([true, true]);
    }
    renderer.destroy();
  }
  const [sparse, dense, auto, byDefault] = frames as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  let lit = 0;
  for (let i = 0; i < sparse.length; i += 4) if (sparse[i]! + sparse[i + 1]! + sparse[i + 2]! > 60) lit++;
  expect(lit, 'lit pixels').toBeGreaterThan(1000);
  expect(Buffer.compare(sparse, dense), 'sparse against dense').toBe(0);
  expect(Buffer.compare(auto, sparse), 'auto against sparse').toBe(0);
  expect(Buffer.compare(byDefault, dense), 'the default (dense) against dense').toBe(0);
  scene.destroy();
});

gpuTest('a tileWalk it does not know is refused before anything is made', ({ device }) => {
  expect(() => newRenderer(device, { tileWalk: 'fast' as 'sparse' })).toThrow(RenderError);
  expect(() => newRenderer(device, { tileWalk: 'fast' as 'sparse' })).toThrow(/tileWalk must be 'auto', 'sparse' or 'dense', got fast/);
  return Promise.resolve();
});

// The README's example, run as written (with a device from Dawn and a depth buffer drawn here).
import { expect } from 'vitest';
import { gpuTest, depthTexture } from '@cuttle/test-utils';
import { boxMatrix, EntityList, lookAt, perspective, TileCuller } from '../src/index.ts';

import { makeScene } from './scenes.ts';

gpuTest('README example', async ({ device }) => {
  const scene = makeScene({ width: 320, height: 180, seed: 1 });
  const depth = depthTexture(device, scene.depth, 320, 180); // your depth prepass
  const view = lookAt([0, 4, 12], [0, 1, 0]);
  const projection = perspective({ fovY: Math.PI / 3, aspect: 320 / 180, near: 0.1, far: 60 });

  const culler = new TileCuller(device, { technique: 'flat-bits', maxEntities: 4096 });
  const entities = new EntityList();
  entities.addPointLight({ position: [0, 1, 2], range: 6, color: [1, 0.8, 0.6], intensity: 4 });
  entities.addSpotLight({ position: [3, 5, 0], direction: [0, -1, 0], range: 8, outerAngle: 0.6, color: [0.4, 0.6, 1] });
  entities.addDecal({ matrix: boxMatrix([0, 0, 0], [1, 0.5, 1]), color: [0.8, 0.1, 0.1, 1] });

  // Every frame, after the depth prepass, before shading:
  const encoder = device.createCommandEncoder();
  culler.setCamera({ view, projection });
  culler.setEntities(entities);
  culler.cull(encoder, depth);
  device.queue.submit([encoder.finish()]);

  // Your shader: culler.shaderModule() first, then call cull_shade(...) or walk cull_lights(tile).
  const wgsl = culler.shaderModule({ group: 1 });
  expect(wgsl).toContain('fn cull_shade(');
  const { entitiesPerTile } = await culler.read();
  expect(entitiesPerTile.some((n) => n === 3)).toBe(true);
  culler.destroy();
});

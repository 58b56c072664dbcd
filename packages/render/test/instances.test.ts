// Swapping what an instance draws in place: the next frame shows it with the same renderer (the
// draw lists follow), and a bad id changes nothing.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { boxMesh, RenderError } from '../src/index.ts';
import { brightness, floorAndBox, newRenderer, renderFrame } from './helpers.ts';

const BOX_INSTANCE = 1;
const BOX_FACE: [number, number, number] = [0, 1, 0.5];

describe('instances', () => {
  gpuTest('setInstanceMaterial shows the new material on the next frame', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.3, -1, -0.6], color: [1, 1, 1], intensity: 2 });
    const renderer = newRenderer(device);
    const before = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    const red = scene.addMaterial({ baseColor: [0.9, 0.05, 0.05, 1], roughness: 0.9 });
    const version = scene.structureVersion;
    scene.setInstanceMaterial(BOX_INSTANCE, red);
    expect(scene.structureVersion).toBeGreaterThan(version);
    expect(scene.instanceMaterial(BOX_INSTANCE)).toBe(red);
    const after = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    // Grey before (channels close together), clearly red after.
    expect(Math.abs(before[0] - before[1])).toBeLessThan(12);
    expect(after[0]).toBeGreaterThan(after[1] * 3);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('setInstanceMesh swaps the shape and keeps the transform', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.3, -1, -0.6], color: [1, 1, 1], intensity: 2 });
    const renderer = newRenderer(device);
    // Above the 1 x 2 x 1 box's top face, a tall thin box would reach; the box does not.
    const above: [number, number, number] = [0, 2.6, 0];
    const short = await renderFrame(device, renderer, scene);
    const tall = scene.addMesh(boxMesh(0.2, 2, 0.2));
    scene.setInstanceMesh(BOX_INSTANCE, tall);
    expect(scene.instanceMesh(BOX_INSTANCE)).toBe(tall);
    const swapped = await renderFrame(device, renderer, scene);
    // Sky behind the point before, the tall box's lit face after.
    expect(Math.abs(brightness(swapped.at(above)) - brightness(short.at(above)))).toBeGreaterThan(15);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('unknown instances, materials and meshes throw a RenderError and change nothing', async ({ device }) => {
    const { scene, grey, box } = floorAndBox(device);
    const version = scene.structureVersion;
    expect(() => { scene.setInstanceMaterial(BOX_INSTANCE, 99); }).toThrow(RenderError);
    expect(() => { scene.setInstanceMaterial(7, grey); }).toThrow(/instance 7 does not exist/);
    expect(() => { scene.setInstanceMesh(BOX_INSTANCE, 99); }).toThrow(/mesh 99 does not exist/);
    expect(() => { scene.setInstanceMesh(-1, box); }).toThrow(RenderError);
    expect(scene.instanceMaterial(BOX_INSTANCE)).toBe(grey);
    expect(scene.instanceMesh(BOX_INSTANCE)).toBe(box);
    expect(scene.structureVersion).toBe(version);
    // The untouched scene still renders.
    const renderer = newRenderer(device);
    await renderFrame(device, renderer, scene);
    renderer.destroy();
    scene.destroy();
  });
});

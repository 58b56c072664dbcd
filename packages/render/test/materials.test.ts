// Updating a material in place (what a hot reload does): the next frame shows it everywhere it
// is used, with the same renderer and no instance touched; bad updates change nothing.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { RenderError } from '../src/index.ts';
import { floorAndBox, newRenderer, renderFrame } from './helpers.ts';

const BOX_FACE: [number, number, number] = [0, 1, 0.5];

describe('updateMaterial', () => {
  gpuTest('an emissive material glows where no light reaches; turning it off takes the glow away next frame', async ({ device }) => {
    const { scene } = floorAndBox(device);
    // No sun and no lights: the box shows only the ambient light and its own glow.
    const glowing = scene.addMaterial({ baseColor: [0.2, 0.2, 0.2, 1], emissive: [0, 0.8, 0] });
    scene.setInstanceMaterial(1, glowing); // instance 1: the box
    expect(scene.hasEmissive).toBe(true);
    const renderer = newRenderer(device);
    const lit = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    expect(lit[1]).toBeGreaterThan(lit[0] + 80);
    scene.updateMaterial(glowing, { baseColor: [0.2, 0.2, 0.2, 1] });
    expect(scene.hasEmissive).toBe(false);
    const dark = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    expect(dark[1]).toBeLessThan(40);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('the box turns red on the next frame; only switching to blend changes the draw lists', async ({ device }) => {
    const { scene, grey } = floorAndBox(device);
    scene.setSun({ direction: [-0.3, -1, -0.6], color: [1, 1, 1], intensity: 2 });
    const renderer = newRenderer(device);
    const before = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    const version = scene.structureVersion;
    scene.updateMaterial(grey, { baseColor: [0.9, 0.05, 0.05, 1], roughness: 0.9 });
    expect(scene.structureVersion).toBe(version);
    expect(scene.material(grey).input.baseColor).toEqual([0.9, 0.05, 0.05, 1]);
    const after = (await renderFrame(device, renderer, scene)).at(BOX_FACE);
    expect(Math.abs(before[0] - before[1])).toBeLessThan(12);
    expect(after[0]).toBeGreaterThan(after[1] * 3);
    scene.updateMaterial(grey, { baseColor: [0.9, 0.05, 0.05, 0.5], alphaMode: 'blend' });
    expect(scene.structureVersion).toBeGreaterThan(version);
    expect(scene.material(grey).blend).toBe(true);
    await renderFrame(device, renderer, scene);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('an unknown material or a refused input throws a RenderError and changes nothing', async ({ device }) => {
    const { scene, grey } = floorAndBox(device);
    const input = scene.material(grey).input;
    const version = scene.structureVersion;
    expect(() => { scene.updateMaterial(99, { baseColor: [1, 0, 0, 1] }); }).toThrow(/material 99 does not exist/);
    expect(() => { scene.updateMaterial(grey, { roughness: 2 }); }).toThrow(RenderError);
    expect(() => { scene.updateMaterial(grey, { baseColorTexture: 5 }); }).toThrow(/not a texture of this scene/);
    expect(() => { scene.updateMaterial(grey, { caustics: true }); }).toThrow(/caustics/);
    expect(scene.material(grey).input).toEqual(input);
    expect(scene.structureVersion).toBe(version);
    const renderer = newRenderer(device);
    await renderFrame(device, renderer, scene);
    renderer.destroy();
    scene.destroy();
  });
});

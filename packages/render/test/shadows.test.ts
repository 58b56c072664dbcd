// The post's transparent shadow maps, by pixel probes: the floor under red glass is red, under
// an opaque plate dark, in open light white, and the glass is not tinted by its own shadow; with
// a transparent shadow depth map, glass under glass is tinted; water adds caustics.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { boxMesh, planeMesh, type RendererOptions } from '../src/index.ts';
import { brightness, camera, newRenderer, renderFrame, translation } from './helpers.ts';
import { RenderScene } from '../src/index.ts';

const VIEW = camera([0, 7, 6], [0, 0, 0]);

/** A floor, a red glass pane over x = -2, an opaque plate over x = +2, the sun straight down. */
function glassScene(device: GPUDevice, stacked = false): { scene: RenderScene; glassTop: [number, number, number] } {
  const scene = new RenderScene(device);
  const floor = scene.addMesh(planeMesh(20, 4));
  const plate = scene.addMesh(boxMesh(0.8, 0.02, 0.8));
  const white = scene.addMaterial({ baseColor: [0.8, 0.8, 0.8, 1], roughness: 1 });
  const red = scene.addMaterial({ baseColor: [1, 0.05, 0.05, 0.6], alphaMode: 'blend', roughness: 1 });
  const blue = scene.addMaterial({ baseColor: [0.05, 0.05, 1, 0.6], alphaMode: 'blend', roughness: 1 });
  scene.addInstance(floor, white);
  scene.addInstance(plate, red, translation(-2, 1, 0));
  scene.addInstance(plate, white, translation(2, 1, 0));
  if (stacked) scene.addInstance(plate, blue, translation(-2, 2, 0));
  scene.setSun({ direction: [0.001, -1, 0.002], color: [1, 1, 1], intensity: 2 });
  return { scene, glassTop: [-2, 1.02, 0] };
}

async function probe(device: GPUDevice, options: Partial<RendererOptions>, stacked = false, sunShadows = true) {
  const { scene, glassTop } = glassScene(device, stacked);
  if (!sunShadows) scene.setSun({ direction: [0.001, -1, 0.002], color: [1, 1, 1], intensity: 2, shadows: false });
  const renderer = newRenderer(device, options);
  const frame = await renderFrame(device, renderer, scene, VIEW);
  renderer.destroy();
  scene.destroy();
  return { underGlass: frame.at([-2, 0, 0.3]), underPlate: frame.at([2, 0, 0.3]), open: frame.at([0, 0, 1.5]), glass: frame.at([glassTop[0], glassTop[1], -0.3]) };
}

describe('transparent shadow maps (simple)', () => {
  gpuTest('the floor is red under red glass, dark under the plate, white in the open', async ({ device }) => {
    const { underGlass, underPlate, open } = await probe(device, {});
    console.log({ underGlass, underPlate, open });
    expect(brightness(open)).toBeGreaterThan(150);
    expect(Math.abs(open[0] - open[2])).toBeLessThan(12);
    expect(underGlass[0]).toBeGreaterThan(underGlass[1] * 1.6);
    expect(underGlass[0]).toBeGreaterThan(100);
    expect(brightness(underPlate)).toBeLessThan(brightness(open) * 0.35);
  });

  gpuTest('the glass is not tinted by its own shadow', async ({ device }) => {
    const shadowed = await probe(device, {});
    const unshadowed = await probe(device, {}, false, false);
    // With the sun's shadows off there is no filter at all: the glass must look the same.
    for (let c = 0; c < 3; c++) expect(Math.abs(shadowed.glass[c]! - unshadowed.glass[c]!)).toBeLessThanOrEqual(2);
  });
});

describe('transparent shadow maps (separate transparent depth)', () => {
  gpuTest('glass under glass takes the upper pane\'s colour; the upper pane stays untinted', async ({ device }) => {
    const simple = await probe(device, { transparentShadows: 'simple' }, true);
    const separate = await probe(device, { transparentShadows: 'separate-depth' }, true);
    console.log({ simple: simple.glass, separate: separate.glass });
    // The red pane sits under the blue one: only the separate depth map tints it blue-ish.
    expect(separate.glass[0]).toBeLessThan(simple.glass[0] * 0.85);
    // The floor is tinted by both panes in both modes.
    expect(brightness(separate.underGlass)).toBeLessThan(brightness(separate.open) * 0.6);
  });
});

/** A normal map of ripples: slopes everywhere but at the crests. */
export function rippleNormals(size = 64): { width: number; height: number; data: Uint8Array<ArrayBuffer> } {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = Math.cos((x / size) * Math.PI * 8) * 0.6, dy = Math.sin((y / size) * Math.PI * 6) * 0.6;
      const length = Math.hypot(dx, dy, 1);
      data.set([((dx / length) * 0.5 + 0.5) * 255, ((dy / length) * 0.5 + 0.5) * 255, ((1 / length) * 0.5 + 0.5) * 255, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

describe('caustics', () => {
  gpuTest('water adds light to the floor under it, by the caustics strength', async ({ device }) => {
    const floorUnderWater = async (caustics: number): Promise<[number, number]> => {
      const scene = new RenderScene(device);
      const floor = scene.addMesh(planeMesh(20, 4));
      const water = scene.addMesh(planeMesh(3, 1));
      const white = scene.addMaterial({ baseColor: [0.5, 0.5, 0.5, 1], roughness: 1 });
      const ripples = scene.addTexture(rippleNormals());
      const pool = scene.addMaterial({ baseColor: [0.6, 0.8, 1, 0.3], alphaMode: 'blend', roughness: 0.1, normalTexture: ripples, caustics: true });
      scene.addInstance(floor, white);
      scene.addInstance(water, pool, translation(0, 0.5, 0));
      scene.setSun({ direction: [0.001, -1, 0.002], color: [1, 1, 1], intensity: 1 });
      const renderer = newRenderer(device, { caustics });
      // The floor shows through the (blended) water from above.
      const frame = await renderFrame(device, renderer, scene, VIEW);
      renderer.destroy();
      scene.destroy();
      let sum = 0;
      for (const [x, z] of [[-0.6, 0.2], [0.4, -0.5], [0.1, 0.6], [-0.3, -0.2]] as const) sum += brightness(frame.at([x, 0, z]));
      return [sum / 4, brightness(frame.at([5, 0, 1]))];
    };
    const [without, openWithout] = await floorUnderWater(0);
    const [strong, openStrong] = await floorUnderWater(4);
    expect(strong).toBeGreaterThan(without * 1.1);
    // Away from the water the floor does not change.
    expect(Math.abs(openStrong - openWithout)).toBeLessThanOrEqual(1);
  });
});

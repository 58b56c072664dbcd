// The plain-three courtyard on the test GPU: a small one renders without WebGPU errors, and its
// picture is the courtyard's: the sun lights the floor and the west wall shades it, a small
// light brightens the floor under it, the characters stand where their paths put them.
import { gpuTest } from '@cuttle/test-utils';
import { Vector3, type PerspectiveCamera } from 'three/webgpu';
import { expect } from 'vitest';
import { buildThreeCourtyard, courtyardViewAt, nodeThree } from '../src/index.ts';

const [WIDTH, HEIGHT] = [320, 180];
const TIME = 1 / 60;

/** The pixel a world point lands on, or undefined off screen. */
function pixelOf(camera: PerspectiveCamera, x: number, y: number, z: number): [number, number] | undefined {
  const ndc = new Vector3(x, y, z).project(camera);
  const px = Math.floor(((ndc.x + 1) / 2) * WIDTH), py = Math.floor(((1 - ndc.y) / 2) * HEIGHT);
  return px >= 1 && py >= 1 && px < WIDTH - 1 && py < HEIGHT - 1 && ndc.z < 1 ? [px, py] : undefined;
}

/** Sum of r, g and b over the 3x3 pixels around `at`. */
function brightness(pixels: Uint8Array, [px, py]: [number, number]): number {
  let sum = 0;
  for (let y = py - 1; y <= py + 1; y++) for (let x = px - 1; x <= px + 1; x++) for (let c = 0; c < 3; c++) sum += pixels[(y * WIDTH + x) * 4 + c]!;
  return sum / 9;
}

gpuTest('a small plain-three courtyard renders its scene: sun and shadow, small lights, characters', async ({ device }) => {
  const three = await nodeThree(device, WIDTH, HEIGHT);
  // The default light ranges (1.5-4.5): enough of 64 lights reach the floor to see.
  const yard = buildThreeCourtyard(three.renderer, { characters: 8, lights: 64, fluid: 2000 });
  yard.animate(TIME);
  yard.setView(courtyardViewAt(TIME, WIDTH, HEIGHT));
  const frame = async (): Promise<Uint8Array> => {
    three.render(yard.scene, yard.camera);
    return three.read();
  };
  const lit = await frame();
  // ClusteredLighting took every small light; the sun (shadowed) stays on the default path.
  expect(yard.clusteredLightCount()).toBe(64);
  expect(yard.fluid?.count).toBe(2000);

  for (const light of yard.pointLights) light.intensity = 0;
  const dark = await frame();
  // The west wall (x = -20, 6 high) shades the floor 2.1 units east of it; further on the sun
  // reaches it (both points in view between the columns, away from the walkers).
  const inShadow = pixelOf(yard.camera, -18.75, 0, -16)!, inSun = pixelOf(yard.camera, -16, 0, -16)!;
  expect(inShadow).toBeDefined();
  expect(inSun).toBeDefined();
  expect(brightness(dark, inSun)).toBeGreaterThan(300);
  expect(brightness(dark, inSun)).toBeGreaterThan(brightness(dark, inShadow) * 2);

  // The fireflies near the floor brighten it under them (most are on screen and not hidden).
  let under = 0, brighter = 0;
  for (const light of yard.pointLights) {
    const { x, y, z } = light.position;
    if (y > light.distance * 0.8) continue;
    const at = pixelOf(yard.camera, x, 0, z);
    if (!at) continue;
    under++;
    if (brightness(lit, at) > brightness(dark, at) + 15) brighter++;
  }
  expect(under).toBeGreaterThanOrEqual(3);
  expect(brighter).toBeGreaterThanOrEqual(under / 2);

  // Each character stands on its path: hiding the crowd changes the pixels at its waist.
  for (const light of yard.pointLights) light.intensity = 3;
  for (const character of yard.characters) character.visible = false;
  const empty = await frame();
  let seen = 0;
  for (const character of yard.characters) {
    const at = pixelOf(yard.camera, character.position.x, 0.9, character.position.z);
    if (at && Math.abs(brightness(lit, at) - brightness(empty, at)) > 20) seen++;
  }
  expect(seen).toBeGreaterThanOrEqual(yard.characters.length / 2);

  yard.destroy();
  await three.dispose();
});

gpuTest('bad counts are refused before anything is made', async ({ device }) => {
  const three = await nodeThree(device, 16, 16);
  expect(() => buildThreeCourtyard(three.renderer, { characters: -1 })).toThrow(/characters must be a non-negative integer/);
  expect(() => buildThreeCourtyard(three.renderer, { lights: 1.5 })).toThrow(/lights must be a non-negative integer/);
  expect(() => buildThreeCourtyard(three.renderer, { lightRange: [2, 1] })).toThrow(/lightRange/);
  await three.dispose();
});

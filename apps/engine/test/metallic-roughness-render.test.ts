// A metallic-roughness texture drawn on Dawn: a quad filling the frame, lit symmetrically, whose
// material's texture makes its left half a rough dielectric and its right half smooth metal. The
// halves differ; with the texture key removed (a material reload, in place) the same factors
// draw both halves alike. Frames are read back from the engine.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import type { Engine } from '../src/runtime/engine.ts';
import { halfMeans, QUAD_HEIGHT as HEIGHT, QUAD_WIDTH as WIDTH, splitPng, startQuadProject, type QuadProject } from './textured-quad.ts';

const MATERIAL = 'base_color = [0.8 0.8 0.8 1]\nmetallic = 1\nroughness = 1\nmetallic_roughness_texture = "textures/orm"\n';

let project: QuadProject;
let engine: Engine;

beforeAll(async () => {
  // Left half: roughness 1, metallic 0; right half: roughness 0.2, metallic 1 (glTF: green, blue).
  project = await startQuadProject({ material: { name: 'split', text: MATERIAL }, textures: { 'textures/orm.png': await splitPng([255, 255, 0, 255], [255, 51, 255, 255]) }, sunIntensity: 3 });
  engine = project.engine;
}, 60_000);
afterAll(() => {
  project.dispose();
});

/** Mean R + G + B of the left and right halves, the seam left out. */
function halves(pixels: Uint8Array): { left: number; right: number } {
  const { left, right } = halfMeans(pixels);
  const sum = (rgb: number[]): number => rgb[0]! + rgb[1]! + rgb[2]!;
  return { left: sum(left), right: sum(right) };
}

describe('a metallic-roughness texture drawn on Dawn', () => {
  test('its two halves draw differently; without the texture the same factors draw them alike', async () => {
    const textured = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    // The quad fills the frame and is lit.
    expect(Math.min(textured.left, textured.right)).toBeGreaterThan(0);
    // 649 against 203 (of 765) measured on llvmpipe: the rough dielectric scatters the sun, the smooth metal reflects it away.
    expect(Math.abs(textured.left - textured.right), JSON.stringify(textured)).toBeGreaterThan(100);

    project.write('materials/split.material', MATERIAL.replace('metallic_roughness_texture = "textures/orm"\n', ''));
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    expect(engine.reload(['materials/split.material'])).toMatchObject({ ok: true, mode: 'in-place' });
    const plain = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.max(plain.left, plain.right)).toBeGreaterThan(30);
    expect(Math.abs(plain.left - plain.right), JSON.stringify(plain)).toBeLessThan(2);
  }, 60_000);
});

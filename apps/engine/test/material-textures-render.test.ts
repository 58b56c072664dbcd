// Emissive and occlusion textures drawn on Dawn through the engine: a quad filling the frame
// whose material's emissive texture is black on the left and orange on the right glows on the
// right only; its ORM png is one texture in the render material's occlusion and
// metallic-roughness slots; with the emissive texture removed (a material reload, in place)
// both halves glow alike. Frames are read back from the engine.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MaterialInput } from '@cuttle/render';
import { compileProject } from '../src/compiler/compile-project.ts';
import type { Engine } from '../src/runtime/engine.ts';
import { halfMeans, QUAD_HEIGHT as HEIGHT, QUAD_WIDTH as WIDTH, splitPng, startQuadProject, type QuadProject } from './textured-quad.ts';

const MATERIAL = 'base_color = [0 0 0 1]\nroughness = 1\nemissive = [1 1 1]\nemissive_texture = "textures/glow"\nmetallic_roughness_texture = "textures/orm"\nocclusion_texture = "textures/orm"\nocclusion_strength = 0.5\n';

let project: QuadProject;
let engine: Engine;

beforeAll(async () => {
  project = await startQuadProject({
    material: { name: 'lamp', text: MATERIAL },
    textures: { 'textures/glow.png': await splitPng([0, 0, 0, 255], [255, 140, 30, 255]), 'textures/orm.png': await splitPng([60, 255, 0, 255], [255, 255, 0, 255]) },
    sunIntensity: 1,
  });
  engine = project.engine;
}, 60_000);
afterAll(() => {
  project.dispose();
});

/** The render material the world made with an emissive factor (the quad's). */
function lampInput(): Readonly<MaterialInput> {
  for (let id = 0; ; id++) {
    const input = engine.world.render.material(id).input;
    if (input.emissive?.[0] === 1) return input;
  }
}

describe('emissive and occlusion textures drawn on Dawn', () => {
  test('the glow follows the emissive texture; the ORM png is one texture in both slots; without the texture both halves glow', async () => {
    const input = lampInput();
    expect(input.emissiveTexture).toBeDefined();
    expect(input.occlusionTexture).toBeDefined();
    expect(input.occlusionTexture).toBe(input.metallicRoughnessTexture);
    expect(input.occlusionStrength).toBe(0.5);
    const textured = halfMeans((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.max(...textured.left), JSON.stringify(textured)).toBeLessThan(30);
    expect(textured.right[0], JSON.stringify(textured)).toBeGreaterThan(150);
    expect(textured.right[0]!).toBeGreaterThan(textured.right[2]! + 60);

    project.write('materials/lamp.material', MATERIAL.replace('emissive_texture = "textures/glow"\n', ''));
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    expect(engine.reload(['materials/lamp.material'])).toMatchObject({ ok: true, mode: 'in-place' });
    expect(lampInput().emissiveTexture).toBeUndefined();
    const plain = halfMeans((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.min(...plain.left), JSON.stringify(plain)).toBeGreaterThan(150);
    for (let c = 0; c < 3; c++) expect(Math.abs(plain.left[c]! - plain.right[c]!), JSON.stringify(plain)).toBeLessThan(3);
  }, 60_000);
});

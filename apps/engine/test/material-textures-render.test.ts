// Emissive and occlusion textures drawn on Dawn through the engine: a quad filling the frame
// whose material's emissive texture is black on the left and orange on the right glows on the
// right only; its ORM png is one texture in the render material's occlusion and
// metallic-roughness slots; with the emissive texture removed (a material reload, in place)
// both halves glow alike. Frames are read back from the engine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { encodePng } from '@cuttle/gui';
import type { MaterialInput } from '@cuttle/render';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import { texturedQuadGlb } from './textured-quad.ts';

const WIDTH = 128, HEIGHT = 64;
/** Columns either side of the middle left out: the texture's edge, filtered, falls there. */
const SEAM = 8;

const MATERIAL = 'base_color = [0 0 0 1]\nroughness = 1\nemissive = [1 1 1]\nemissive_texture = "textures/glow"\nmetallic_roughness_texture = "textures/orm"\nocclusion_texture = "textures/orm"\nocclusion_strength = 0.5\n';

let dir: string;
let source: string;
let engine: Engine;

function write(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(source, path)), { recursive: true });
  writeFileSync(join(source, path), data);
}

function split(left: number[], right: number[]): Promise<Uint8Array> {
  const side = 64;
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) data.set(x < side / 2 ? left : right, (y * side + x) * 4);
  return encodePng({ width: side, height: side, channels: 4, data });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-material-textures-'));
  source = join(dir, 'source');
  write('meshes/quad.glb', await texturedQuadGlb());
  write('textures/glow.png', await split([0, 0, 0, 255], [255, 140, 30, 255]));
  write('textures/orm.png', await split([60, 255, 0, 255], [255, 255, 0, 255]));
  write('materials/lamp.material', MATERIAL);
  write('units/quad.unit', 'mesh = "meshes/quad"\nmaterial = "materials/lamp"\n');
  write('levels/quad.level', 'camera = {\n    position = [0 0 4]\n    target = [0 0 0]\n}\nsun = {\n    direction = [0 -0.5 -1]\n    intensity = 1\n}\nunits = [\n    {\n        id = "quad"\n        unit = "units/quad"\n    }\n]\n');
  write('boot.package', 'level = ["levels/quad"]\n');
  expect((await compileProject(source, join(dir, 'out'))).failed).toEqual([]);
  engine = await Engine.start({ data: join(dir, 'out'), log: () => undefined });
}, 60_000);
afterAll(() => {
  engine.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Mean R, G and B of the left and right halves, the seam left out. */
function halves(pixels: Uint8Array): { left: number[]; right: number[] } {
  const left = [0, 0, 0], right = [0, 0, 0];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      if (Math.abs(x + 0.5 - WIDTH / 2) < SEAM) continue;
      const i = (y * WIDTH + x) * 4;
      const half = x < WIDTH / 2 ? left : right;
      for (let c = 0; c < 3; c++) half[c]! += pixels[i + c]!;
    }
  }
  const count = HEIGHT * (WIDTH / 2 - SEAM);
  return { left: left.map((v) => v / count), right: right.map((v) => v / count) };
}

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
    const textured = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.max(...textured.left), JSON.stringify(textured)).toBeLessThan(30);
    expect(textured.right[0], JSON.stringify(textured)).toBeGreaterThan(150);
    expect(textured.right[0]!).toBeGreaterThan(textured.right[2]! + 60);

    write('materials/lamp.material', MATERIAL.replace('emissive_texture = "textures/glow"\n', ''));
    expect((await compileProject(source, join(dir, 'out'))).failed).toEqual([]);
    expect(engine.reload(['materials/lamp.material'])).toMatchObject({ ok: true, mode: 'in-place' });
    expect(lampInput().emissiveTexture).toBeUndefined();
    const plain = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.min(...plain.left), JSON.stringify(plain)).toBeGreaterThan(150);
    for (let c = 0; c < 3; c++) expect(Math.abs(plain.left[c]! - plain.right[c]!), JSON.stringify(plain)).toBeLessThan(3);
  }, 60_000);
});

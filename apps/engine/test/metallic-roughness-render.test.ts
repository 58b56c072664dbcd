// A metallic-roughness texture drawn on Dawn: a quad filling the frame, lit symmetrically, whose
// material's texture makes its left half a rough dielectric and its right half smooth metal. The
// halves differ; with the texture key removed (a material reload, in place) the same factors
// draw both halves alike. Frames are read back from the engine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { encodePng } from '@cuttle/gui';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import { texturedQuadGlb } from './textured-quad.ts';

const WIDTH = 128, HEIGHT = 64;
/** Columns either side of the middle left out: the texture's edge, filtered, falls there. */
const SEAM = 8;

const MATERIAL = 'base_color = [0.8 0.8 0.8 1]\nmetallic = 1\nroughness = 1\nmetallic_roughness_texture = "textures/orm"\n';

let dir: string;
let source: string;
let engine: Engine;

function write(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(source, path)), { recursive: true });
  writeFileSync(join(source, path), data);
}

/** Left half: roughness 1, metallic 0; right half: roughness 0.2, metallic 1 (glTF: green, blue). */
function splitTexture(): Promise<Uint8Array> {
  const side = 64;
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) data.set(x < side / 2 ? [255, 255, 0, 255] : [255, 51, 255, 255], (y * side + x) * 4);
  return encodePng({ width: side, height: side, channels: 4, data });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-mr-'));
  source = join(dir, 'source');
  write('meshes/quad.glb', await texturedQuadGlb());
  write('textures/orm.png', await splitTexture());
  write('materials/split.material', MATERIAL);
  write('units/quad.unit', 'mesh = "meshes/quad"\nmaterial = "materials/split"\n');
  // The sun comes from above the camera: the lighting is mirror-symmetric about the middle column.
  write('levels/quad.level', 'camera = {\n    position = [0 0 4]\n    target = [0 0 0]\n}\nsun = {\n    direction = [0 -0.5 -1]\n    intensity = 3\n}\nunits = [\n    {\n        id = "quad"\n        unit = "units/quad"\n    }\n]\n');
  write('boot.package', 'level = ["levels/quad"]\n');
  expect((await compileProject(source, join(dir, 'out'))).failed).toEqual([]);
  engine = await Engine.start({ data: join(dir, 'out'), log: () => undefined });
}, 60_000);
afterAll(() => {
  engine.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Mean R + G + B of the left and right halves, the seam left out. */
function halves(pixels: Uint8Array): { left: number; right: number } {
  let left = 0, right = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      // Pixel centres, so the two halves mirror each other column for column.
      if (Math.abs(x + 0.5 - WIDTH / 2) < SEAM) continue;
      const i = (y * WIDTH + x) * 4;
      const sum = pixels[i]! + pixels[i + 1]! + pixels[i + 2]!;
      if (x < WIDTH / 2) left += sum;
      else right += sum;
    }
  }
  const count = HEIGHT * (WIDTH / 2 - SEAM);
  return { left: left / count, right: right / count };
}

describe('a metallic-roughness texture drawn on Dawn', () => {
  test('its two halves draw differently; without the texture the same factors draw them alike', async () => {
    const textured = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    // The quad fills the frame and is lit.
    expect(Math.min(textured.left, textured.right)).toBeGreaterThan(0);
    // 649 against 203 (of 765) measured on llvmpipe: the rough dielectric scatters the sun, the smooth metal reflects it away.
    expect(Math.abs(textured.left - textured.right), JSON.stringify(textured)).toBeGreaterThan(100);

    write('materials/split.material', MATERIAL.replace('metallic_roughness_texture = "textures/orm"\n', ''));
    expect((await compileProject(source, join(dir, 'out'))).failed).toEqual([]);
    expect(engine.reload(['materials/split.material'])).toMatchObject({ ok: true, mode: 'in-place' });
    const plain = halves((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(Math.max(plain.left, plain.right)).toBeGreaterThan(30);
    expect(Math.abs(plain.left - plain.right), JSON.stringify(plain)).toBeLessThan(2);
  }, 60_000);
});

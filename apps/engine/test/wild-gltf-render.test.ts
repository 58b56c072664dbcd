// A real-world GLB placed in a level and drawn on Dawn with its own materials: the Cesium milk
// truck's side shows its texture's logo (sky blue and grass green) where the texture puts it,
// which a flat material cannot; drawn with a white material resource instead (the unit's
// override, a world rebuild), those colours are gone. Frames are read back from the engine.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import { wildProject, type WildProject } from './wild-project.ts';

const WIDTH = 256, HEIGHT = 128;

let project: WildProject;
let engine: Engine;
beforeAll(async () => {
  project = wildProject();
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
  engine = await Engine.start({ data: project.out, log: () => undefined });
}, 60_000);
afterAll(() => {
  engine.destroy();
  project.dispose();
});

/** Pixels of the logo's sky (blue) and hills (green), and of anything not the clear colour. */
function census(pixels: Uint8Array): { blue: number; green: number; lit: number } {
  let blue = 0, green = 0, lit = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    if (b > 120 && b > r + 50 && b > g + 10) blue++;
    if (g > 80 && g > r + 30 && g > b + 30) green++;
    if (r + g + b > 60) lit++;
  }
  return { blue, green, lit };
}

describe('a wild GLB rendered with its own materials', () => {
  test('the truck shows its texture\'s logo colours; with a white material override it does not', async () => {
    const own = census((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    // The truck fills a good part of the frame, and the logo on its side is a few hundred pixels.
    expect(own.lit).toBeGreaterThan(WIDTH * HEIGHT * 0.15);
    expect(own.blue).toBeGreaterThan(40);
    expect(own.green).toBeGreaterThan(40);

    project.edit('levels/wild.level', 'unit = "units/truck"', 'unit = "units/truck"\n        material = "materials/white"');
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const reload = engine.reload(['levels/wild.level']);
    expect(reload).toMatchObject({ ok: true, mode: 'rebuilt' });
    const white = census((await engine.renderFrame(WIDTH, HEIGHT)).pixels);
    expect(white.lit).toBeGreaterThan(WIDTH * HEIGHT * 0.15);
    expect(white.blue + white.green).toBeLessThan(10);
  }, 60_000);
});

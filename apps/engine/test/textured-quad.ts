// A 20 x 20 quad in the z = 0 plane facing +z, u running with x: the surface the material
// render tests (metallic-roughness, emissive and occlusion textures) look at head on, with the
// project around it (one unit, one level, the camera 4 in front, the sun from above it), a
// texture split down the middle, and the frame's two halves measured apart.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodePng } from '@cuttle/gui';
import { staticGlb } from '../sample-tools/gltf-writers.ts';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';

export const QUAD_WIDTH = 128, QUAD_HEIGHT = 64;
/** Columns either side of the middle left out: the texture's edge, filtered, falls there. */
const SEAM = 8;

export function texturedQuadGlb(): Promise<Uint8Array> {
  const positions = new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]);
  const normals = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  const uvs = new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]);
  return staticGlb({ mesh: { positions, normals, uvs, indices: new Uint32Array([0, 1, 2, 0, 2, 3]) } });
}

/** A 64 px RGBA PNG: `left` on its left half, `right` on its right. */
export function splitPng(left: readonly number[], right: readonly number[]): Promise<Uint8Array> {
  const side = 64;
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) data.set(x < side / 2 ? left : right, (y * side + x) * 4);
  return encodePng({ width: side, height: side, channels: 4, data });
}

/** Mean R, G and B of a QUAD_WIDTH x QUAD_HEIGHT frame's left and right halves, the seam left out (pixel centres: the halves mirror each other column for column). */
export function halfMeans(pixels: Uint8Array): { left: number[]; right: number[] } {
  const left = [0, 0, 0], right = [0, 0, 0];
  for (let y = 0; y < QUAD_HEIGHT; y++) {
    for (let x = 0; x < QUAD_WIDTH; x++) {
      if (Math.abs(x + 0.5 - QUAD_WIDTH / 2) < SEAM) continue;
      const i = (y * QUAD_WIDTH + x) * 4;
      const half = x < QUAD_WIDTH / 2 ? left : right;
      for (let c = 0; c < 3; c++) half[c]! += pixels[i + c]!;
    }
  }
  const count = QUAD_HEIGHT * (QUAD_WIDTH / 2 - SEAM);
  return { left: left.map((v) => v / count), right: right.map((v) => v / count) };
}

export interface QuadProject {
  source: string;
  out: string;
  engine: Engine;
  /** Writes a project file (creating its folder). */
  write(path: string, data: string | Uint8Array): void;
  dispose(): void;
}

/**
 * The quad with `material` (materials/<name>.material) and `textures` (path → PNG bytes) in a
 * new project, compiled and running in an engine. The sun comes from above the camera, so the
 * lighting is mirror-symmetric about the middle column.
 */
export async function startQuadProject(options: { material: { name: string; text: string }; textures: Record<string, Uint8Array>; sunIntensity: number }): Promise<QuadProject> {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-quad-'));
  const source = join(dir, 'source');
  const out = join(dir, 'out');
  const write = (path: string, data: string | Uint8Array): void => {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), data);
  };
  write('meshes/quad.glb', await texturedQuadGlb());
  for (const [path, bytes] of Object.entries(options.textures)) write(path, bytes);
  write(`materials/${options.material.name}.material`, options.material.text);
  write('units/quad.unit', `mesh = "meshes/quad"\nmaterial = "materials/${options.material.name}"\n`);
  write('levels/quad.level', `camera = {\n    position = [0 0 4]\n    target = [0 0 0]\n}\nsun = {\n    direction = [0 -0.5 -1]\n    intensity = ${options.sunIntensity}\n}\nunits = [\n    {\n        id = "quad"\n        unit = "units/quad"\n    }\n]\n`);
  write('boot.package', 'level = ["levels/quad"]\n');
  const report = await compileProject(source, out);
  if (report.failed.length > 0) throw new Error(`the quad project did not compile: ${report.failed.map((f) => f.error.message).join('; ')}`);
  const engine = await Engine.start({ data: out, log: () => undefined });
  return {
    source,
    out,
    engine,
    write,
    dispose() {
      engine.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

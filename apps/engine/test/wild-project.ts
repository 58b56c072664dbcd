// A small project around the real-world GLBs of test/fixtures/wild (see its README): the two
// models placed in a level, each drawn with its own materials, and a flat white material to
// override them with. Shared by the wild-gltf tests.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';

export const WILD = join(import.meta.dirname, 'fixtures', 'wild');

export interface WildProject {
  source: string;
  out: string;
  write(path: string, text: string): void;
  /** Replaces the first `from` in source file `path` (which must contain it) with `to`. */
  edit(path: string, from: string, to: string): void;
  dispose(): void;
}

const LEVEL = `camera = {
    position = [0 1.3 6.5]
    target = [0 1.3 0]
}
sun = {
    direction = [0.2 -0.6 -1]
    intensity = 3
}
units = [
    {
        id = "truck"
        unit = "units/truck"
    }
]
`;

export function wildProject(): WildProject {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-wild-'));
  const source = join(dir, 'source');
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), text);
  };
  mkdirSync(join(source, 'meshes'), { recursive: true });
  copyFileSync(join(WILD, 'CesiumMilkTruck.glb'), join(source, 'meshes/truck.glb'));
  copyFileSync(join(WILD, 'NormalTangentTest.glb'), join(source, 'meshes/tangents.glb'));
  // No material: the GLBs' own materials draw them.
  write('units/truck.unit', 'mesh = "meshes/truck"\n');
  write('units/tangents.unit', 'mesh = "meshes/tangents"\n');
  write('materials/white.material', 'base_color = [1 1 1 1]\nroughness = 1\n');
  write('levels/wild.level', LEVEL);
  write('boot.package', 'level = ["levels/wild"]\n');
  const edit = (path: string, from: string, to: string): void => {
    const text = readFileSync(join(source, path), 'utf8');
    expect(text).toContain(from);
    writeFileSync(join(source, path), text.replace(from, to));
  };
  return { source, out: join(dir, 'out'), write, edit, dispose: () => { rmSync(dir, { recursive: true, force: true }); } };
}

/** A GLB's JSON chunk and BIN chunk, read here independently of the compiler's reader. */
export function glbChunks(bytes: Uint8Array): { json: { materials: Record<string, unknown>[]; images: { bufferView: number; mimeType: string }[]; bufferViews: { byteOffset?: number; byteLength: number }[] } & Record<string, unknown>; binAt: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(12, true);
  return { json: JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as ReturnType<typeof glbChunks>['json'], binAt: 20 + length + 8 };
}

/** Embedded image `index` of fixture `file`, decoded to RGBA8 by sharp (independently of the compiler's reader). */
export async function fixtureImage(file: string, index: number): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  const bytes = readFileSync(join(WILD, file));
  const { json, binAt } = glbChunks(bytes);
  const view = json.bufferViews[json.images[index]!.bufferView]!;
  const at = binAt + (view.byteOffset ?? 0);
  const { data, info } = await sharp(bytes.subarray(at, at + view.byteLength)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgba: new Uint8Array(data), width: info.width, height: info.height };
}

/** `bytes` with its JSON chunk replaced by `json` (padded with spaces; the BIN chunk is kept). */
export function withGlbJson(bytes: Uint8Array, json: unknown): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const oldLength = view.getUint32(12, true);
  const bin = bytes.subarray(20 + oldLength);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = new Uint8Array((text.length + 3) & ~3).fill(0x20);
  padded.set(text);
  const out = new Uint8Array(20 + padded.length + bin.length);
  const w = new DataView(out.buffer);
  out.set(bytes.subarray(0, 12));
  w.setUint32(8, out.length, true);
  w.setUint32(12, padded.length, true);
  w.setUint32(16, 0x4e4f534a, true);
  out.set(padded, 20);
  out.set(bin, 20 + padded.length);
  return out;
}

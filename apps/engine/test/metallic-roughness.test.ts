// Metallic-roughness textures, the third usage ('data'): a material's metallic_roughness_texture
// compiles the texture as UASTC in linear, its green (roughness) and blue (metallic) close to
// the source and its mips plain averages; the usage is in the manifest, so a switch rebuilds only
// the texture; colour and data for two materials compile as data (as a normal map does), a normal
// map and data are refused naming both materials; a missing texture fails at the key; at load a
// data texture is never sRGB.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { read as readKtx2 } from 'ktx-parse';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodePng } from '@cuttle/gui';
import { RenderScene } from '@cuttle/render';
import { gpuTest } from '@cuttle/test-utils';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { readContainer, section, type Container } from '../src/runtime/container.ts';
import type { MaterialMeta, TextureMeta } from '../src/runtime/formats.ts';
import { TextureLoader } from '../src/runtime/texture-loader.ts';
import { basisModule, TranscodeTarget } from '../src/textures/basis-module.ts';
import { encodeKtx2 } from '../src/textures/encode-ktx2.ts';
import { psnrChannel } from '../src/textures/quality.ts';
import { transcodeKtx2 } from '../src/textures/transcode-ktx2.ts';
import { scratchProject, type Scratch } from './helpers.ts';
import { fixtureImage } from './wild-project.ts';

/** KTX2 data format descriptor: UASTC colour model, linear transfer (Khronos DFD). */
const UASTC = 166;
const LINEAR = 1;

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

function output<T>(path: string, type: string): Container<T> {
  return readContainer<T>(readFileSync(join(project.out, `${path}.cr`)), type, path);
}

function write(path: string, text: string): void {
  writeFileSync(join(project.source, path), text);
}

/** Level `level` of a KTX2 decoded to RGBA8. */
async function decodedLevel(ktx2: Uint8Array, width: number, height: number, level: number): Promise<Uint8Array> {
  const levels = Math.floor(Math.log2(Math.max(width, height))) + 1;
  return transcodeKtx2(await basisModule(), ktx2, { target: TranscodeTarget.rgba32, format: 'rgba8unorm' }, { width, height, levels }).levels[level]!;
}

const rebuilt = (report: Awaited<ReturnType<typeof compileProject>>): string[] => report.compiled.map((c) => `${c.path} (${c.reason})`).sort();

describe('metallic-roughness textures', () => {
  test('a material\'s metallic_roughness_texture compiles as UASTC in linear, green and blue close to the source', async () => {
    // NormalTangentTest's metallic-roughness image (glTF image 1), as a png resource.
    const image = await fixtureImage('NormalTangentTest.glb', 1);
    writeFileSync(join(project.source, 'textures/orm.png'), await encodePng({ width: image.width, height: image.height, channels: 4, data: image.rgba }));
    write('materials/rough.material', 'base_color = [1 1 1 1]\nmetallic = 1\nroughness = 1\nmetallic_roughness_texture = "textures/orm"\n');
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    expect(output<MaterialMeta>('materials/rough.material', 'material').meta.metallicRoughnessTexture).toBe('textures/orm');
    const t = output<TextureMeta>('textures/orm.png', 'texture');
    expect(t.meta).toMatchObject({ width: 256, height: 256, levels: 9, usage: 'data', codec: 'basis' });
    expect(readManifest(project.out)!.resources['textures/orm.png']!.settings).toEqual({ usage: 'data' });
    const ktx2 = section(t, 'ktx2', Uint8Array);
    const dfd = readKtx2(ktx2).dataFormatDescriptor[0]!;
    expect([dfd.colorModel, dfd.transferFunction]).toEqual([UASTC, LINEAR]);
    // 55.4 / 53.9 dB measured; ETC1S (one colour line per block) gives 28.5 / 27.4.
    const decoded = await decodedLevel(ktx2, 256, 256, 0);
    expect(psnrChannel(decoded, image.rgba, 1), 'green (roughness)').toBeGreaterThan(45);
    expect(psnrChannel(decoded, image.rgba, 2), 'blue (metallic)').toBeGreaterThan(45);
  });

  test('data mips average the values as they are: not in linear light, not renormalized', async () => {
    const side = 32;
    // Green a 0 / 255 checker, blue 64 everywhere, red 128. Plain averages: green 128 and blue 64.
    // Averaged in linear light green would be 188; renormalized as a normal map, blue would fall to 0.
    const rgba = new Uint8Array(side * side * 4);
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) rgba.set([128, (x + y) % 2 === 1 ? 255 : 0, 64, 255], (y * side + x) * 4);
    const ktx2 = await encodeKtx2(rgba, side, side, 'data');
    for (const level of [1, 2, 3]) {
      const mip = await decodedLevel(ktx2, side, side, level);
      for (let i = 0; i < mip.length; i += 4) {
        expect(Math.abs(mip[i + 1]! - 128), `level ${level} green ${mip[i + 1]}`).toBeLessThanOrEqual(6);
        expect(Math.abs(mip[i + 2]! - 64), `level ${level} blue ${mip[i + 2]}`).toBeLessThanOrEqual(6);
      }
    }
  });

  test('a texture a material starts using as metallic-roughness is rebuilt as data, and nothing else', async () => {
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const checker = (): TextureMeta => output<TextureMeta>('textures/checker.png', 'texture').meta;
    expect(checker().usage).toBe('color');
    project.edit('materials/wood.material', 'base_color_texture = "textures/checker"', 'metallic_roughness_texture = "textures/checker"');
    expect(rebuilt(await compileProject(project.source, project.out))).toEqual(['materials/wood.material (changed)', 'textures/checker.png (input)']);
    expect(checker().usage).toBe('data');
    expect(readManifest(project.out)!.resources['textures/checker.png']!.settings).toEqual({ usage: 'data' });
    expect((await compileProject(project.source, project.out)).compiled).toEqual([]);
    project.edit('materials/wood.material', 'metallic_roughness_texture = "textures/checker"', 'base_color_texture = "textures/checker"');
    expect(rebuilt(await compileProject(project.source, project.out))).toEqual(['materials/wood.material (changed)', 'textures/checker.png (input)']);
    expect(checker().usage).toBe('color');
  });

  test('colour and data for two materials compile as data; a normal map and data are refused naming both, the previous output stays', async () => {
    // wood names the checker as its base colour.
    write('materials/metal.material', 'base_color = [1 1 1 1]\nmetallic_roughness_texture = "textures/checker"\n');
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    expect(output<TextureMeta>('textures/checker.png', 'texture').meta.usage).toBe('data');
    const before = readFileSync(join(project.out, 'textures/checker.png.cr'));
    const entry = readManifest(project.out)!.resources['textures/checker.png'];

    write('materials/waves.material', 'base_color = [1 1 1 1]\nnormal_texture = "textures/checker"\n');
    const report = await compileProject(project.source, project.out);
    expect(report.failed.map((f) => f.path)).toEqual(['textures/checker.png']);
    const message = report.failed[0]!.error.message;
    expect(message).toContain('a normal map for materials/waves.material (normal_texture)');
    expect(message).toContain('metallic-roughness data for materials/metal.material (metallic_roughness_texture)');
    expect(message).toContain('one compiled texture cannot be both. Give one of the two materials its own copy of the texture');
    expect(readFileSync(join(project.out, 'textures/checker.png.cr'))).toEqual(before);
    expect(readManifest(project.out)!.resources['textures/checker.png']).toEqual(entry);

    project.edit('materials/waves.material', 'normal_texture = "textures/checker"', 'normal_texture = "textures/ripple"');
    const fixed = await compileProject(project.source, project.out);
    expect(fixed.failed).toEqual([]);
    expect(rebuilt(fixed)).toEqual(['materials/waves.material (changed)', 'textures/checker.png (retry)']);
    expect(output<TextureMeta>('textures/checker.png', 'texture').meta.usage).toBe('data');
  });

  test('a metallic_roughness_texture naming a missing texture fails at the key, and the previous output stays', async () => {
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const before = readFileSync(join(project.out, 'materials/wood.material.cr'));
    project.edit('materials/wood.material', 'roughness = 0.7', 'roughness = 0.7\nmetallic_roughness_texture = "textures/chequer"');
    const report = await compileProject(project.source, project.out);
    expect(report.failed.map((f) => f.path)).toEqual(['materials/wood.material']);
    expect(report.failed[0]!.error.message).toBe('materials/wood.material:4:30: refers to textures/chequer.png, which does not exist. Create textures/chequer.png, or use one of: textures/checker, textures/ripple');
    expect(readFileSync(join(project.out, 'materials/wood.material.cr'))).toEqual(before);
  });

  gpuTest('at load a data texture is linear: BC7 or RGBA8, never sRGB', async ({ device }) => {
    const ktx2 = await encodeKtx2(new Uint8Array(16 * 16 * 4).fill(200), 16, 16, 'data');
    const meta: TextureMeta = { width: 16, height: 16, levels: 5, usage: 'data', alpha: false, codec: 'basis' };
    const scene = new RenderScene(device);
    const formats: string[] = [];
    for (const bc of [device.features.has('texture-compression-bc'), false]) {
      const loader = new TextureLoader(await basisModule(), { bc, etc2: false, astc: false });
      formats.push(scene.texture(loader.loadData(scene, 'textures/orm', meta, ktx2)).format);
      // A watch-loop draft: RGBA8, its mips made on the GPU.
      formats.push(scene.texture(loader.loadData(scene, 'textures/orm', { ...meta, codec: 'rgba8' }, new Uint8Array(16 * 16 * 4).fill(200))).format);
    }
    expect(formats).toEqual(device.features.has('texture-compression-bc') ? ['bc7-rgba-unorm', 'rgba8unorm', 'rgba8unorm', 'rgba8unorm'] : ['rgba8unorm', 'rgba8unorm', 'rgba8unorm', 'rgba8unorm']);
    scene.destroy();
  });
});

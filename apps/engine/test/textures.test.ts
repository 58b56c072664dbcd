// Textures compiled to KTX2 with Basis Universal and mips made offline: what each usage becomes
// (colour: ETC1S, sRGB; normal map: UASTC, linear), that the mips are filtered in linear light
// and renormalized, that a texture switching usage is rebuilt, that bad PNGs and damaged KTX2
// files are refused with the reason while the previous output stays, and what the runtime
// transcodes to on each kind of device.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { read as readKtx2 } from 'ktx-parse';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodePng, decodePng } from '@cuttle/gui';
import { RenderScene } from '@cuttle/render';
import { gpuTest } from '@cuttle/test-utils';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { readContainer, section, writeContainer, type Container } from '../src/runtime/container.ts';
import { EngineError } from '../src/errors.ts';
import type { TextureMeta } from '../src/runtime/formats.ts';
import { TextureLoader } from '../src/runtime/texture-loader.ts';
import { basisModule, TranscodeTarget } from '../src/textures/basis-module.ts';
import { encodeKtx2 } from '../src/textures/encode-ktx2.ts';
import { psnrRgb } from '../src/textures/quality.ts';
import { readKtx2Header } from '../src/textures/ktx2-header.ts';
import { chooseTranscode, transcodeKtx2 } from '../src/textures/transcode-ktx2.ts';
import { scratchProject, type Scratch } from './helpers.ts';

/** KTX2 data format descriptor colour models and transfer functions (Khronos DFD). */
const ETC1S = 163;
const UASTC = 166;
const SRGB = 2;
const LINEAR = 1;

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

function texture(path: string): Container<TextureMeta> {
  return readContainer<TextureMeta>(readFileSync(join(project.out, `${path}.cr`)), 'texture', path);
}

/** Level `level` of a compiled KTX2, decoded to RGBA8. */
async function decodedLevel(ktx2: Uint8Array, width: number, height: number, levels: number, level: number): Promise<Uint8Array> {
  const input = transcodeKtx2(await basisModule(), ktx2, { target: TranscodeTarget.rgba32, format: 'rgba8unorm' }, { width, height, levels });
  return input.levels[level]!;
}

describe('compiled textures', () => {
  test('colour becomes ETC1S in sRGB and a normal map UASTC in linear, each with a full mip chain, close to the source', async () => {
    const report = await compileProject(project.source, project.out);
    expect(report.failed).toEqual([]);
    for (const [path, side, usage, model, transfer] of [['textures/checker.png', 64, 'color', ETC1S, SRGB], ['textures/ripple.png', 128, 'normal', UASTC, LINEAR]] as const) {
      const t = texture(path);
      const levels = Math.log2(side) + 1;
      expect(t.meta).toEqual({ width: side, height: side, levels, usage, alpha: false, codec: 'basis' });
      const ktx2 = section(t, 'ktx2', Uint8Array);
      const file = readKtx2(ktx2);
      expect([file.pixelWidth, file.pixelHeight, file.levels.length]).toEqual([side, side, levels]);
      expect([file.dataFormatDescriptor[0]!.colorModel, file.dataFormatDescriptor[0]!.transferFunction]).toEqual([model, transfer]);
      expect(readManifest(project.out)!.resources[path]!.settings).toEqual({ usage });
      const source = await decodePng(readFileSync(join(project.source, path)));
      const decoded = await decodedLevel(ktx2, side, side, levels, 0);
      expect(psnrRgb(decoded, source.data), path).toBeGreaterThan(usage === 'normal' ? 40 : 30);
      // Against the RGBA8 level 0 the compiler wrote before: ETC1S under an eighth, UASTC under a third, mips included.
      expect(ktx2.length, path).toBeLessThan((side * side * 4) / (usage === 'color' ? 8 : 3));
    }
  });

  test('colour mips average in linear light; normal map mips are renormalized', async () => {
    const side = 32;
    // Black and white texels in a checker: their average in linear light is 0.5, 188 in sRGB (128 would be an average of the bytes).
    const checker = new Uint8Array(side * side * 4);
    // Normals leaning 45 degrees left and right in turn: their mean (0, 0, 0.71) renormalized is (0, 0, 1).
    const leaning = new Uint8Array(side * side * 4);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const odd = (x + y) % 2 === 1;
        checker.set(odd ? [255, 255, 255, 255] : [0, 0, 0, 255], (y * side + x) * 4);
        leaning.set(odd ? [218, 128, 218, 255] : [38, 128, 218, 255], (y * side + x) * 4);
      }
    }
    const levels = Math.log2(side) + 1;
    for (const level of [1, 2, 3]) {
      const grey = await decodedLevel(await encodeKtx2(checker, side, side, 'color'), side, side, levels, level);
      const normals = await decodedLevel(await encodeKtx2(leaning, side, side, 'normal'), side, side, levels, level);
      for (let i = 0; i < grey.length; i += 4) {
        expect(Math.abs(grey[i]! - 188), `level ${level} grey ${grey[i]}`).toBeLessThanOrEqual(6);
        const [nx, ny, nz] = [normals[i]! / 127.5 - 1, normals[i + 1]! / 127.5 - 1, normals[i + 2]! / 127.5 - 1];
        expect(Math.hypot(nx, ny, nz), `level ${level} normal ${[nx, ny, nz].join(' ')}`).toBeGreaterThan(0.96);
        expect(nz, `level ${level}`).toBeGreaterThan(0.96);
      }
    }
  });

  test('a texture that a material starts using as a normal map is rebuilt as one', async () => {
    await compileProject(project.source, project.out);
    expect(texture('textures/checker.png').meta.usage).toBe('color');
    const wood = join(project.source, 'materials/wood.material');
    writeFileSync(wood, readFileSync(wood, 'utf8').replace('base_color_texture = "textures/checker"', 'normal_texture = "textures/checker"'));
    const report = await compileProject(project.source, project.out);
    expect(report.compiled.map((c) => `${c.path} (${c.reason})`).sort()).toEqual(['materials/wood.material (changed)', 'textures/checker.png (input)']);
    expect(texture('textures/checker.png').meta.usage).toBe('normal');
    // Nothing changes: nothing is rebuilt.
    expect((await compileProject(project.source, project.out)).compiled).toEqual([]);
  });

  test('the watch loop writes drafts (RGBA8, not encoded); a compile without it compresses them, and a draft compile keeps final outputs', async () => {
    await compileProject(project.source, project.out);
    const ripple = join(project.source, 'textures/ripple.png');
    // A byte after IEND: the file changes, the image does not.
    writeFileSync(ripple, Buffer.concat([readFileSync(ripple), Buffer.alloc(1)]));
    const draft = await compileProject(project.source, project.out, { textureDrafts: true });
    // Only the changed texture: the checker keeps its compressed output.
    expect(draft.compiled.map((c) => `${c.path} (${c.reason})`)).toEqual(['textures/ripple.png (changed)']);
    expect(texture('textures/ripple.png').meta).toMatchObject({ codec: 'rgba8', usage: 'normal', levels: 8 });
    expect(section(texture('textures/ripple.png'), 'rgba', Uint8Array).length).toBe(128 * 128 * 4);
    expect(texture('textures/checker.png').meta.codec).toBe('basis');
    expect(readManifest(project.out)!.resources['textures/ripple.png']!.settings).toEqual({ usage: 'normal', quality: 'draft' });
    // Drafts again: nothing to do.
    expect((await compileProject(project.source, project.out, { textureDrafts: true })).compiled).toEqual([]);
    // A compile without drafts compresses the draft, and only it.
    const final = await compileProject(project.source, project.out);
    expect(final.compiled.map((c) => `${c.path} (${c.reason})`)).toEqual(['textures/ripple.png (input)']);
    expect(texture('textures/ripple.png').meta.codec).toBe('basis');
  });

  test('a PNG that claims a huge size, or holds less than its size, is refused and the previous output stays', async () => {
    await compileProject(project.source, project.out);
    const path = 'textures/checker.png';
    const before = readFileSync(join(project.out, `${path}.cr`));
    const good = readFileSync(join(project.source, path));
    // IHDR says 60,000 x 60,000 (a decompression bomb would): refused before anything is inflated.
    const huge = Uint8Array.from(good);
    new DataView(huge.buffer).setUint32(16, 60000);
    new DataView(huge.buffer).setUint32(20, 60000);
    // IHDR says 64 x 128: the image data holds half that.
    const taller = await encodePng({ width: 64, height: 64, channels: 4, data: new Uint8Array(64 * 64 * 4) });
    const lying = Uint8Array.from(taller);
    new DataView(lying.buffer).setUint32(20, 128);
    fixCrc(lying, 12, 16 + 13);
    fixCrc(huge, 12, 16 + 13);
    for (const [bytes, reason] of [[huge, /says it is 60000x60000, larger than 8192/], [lying, /image data holds .* a 64x128 image needs/]] as const) {
      writeFileSync(join(project.source, path), bytes);
      const report = await compileProject(project.source, project.out);
      expect(report.failed.map((f) => f.path)).toEqual([path]);
      expect(report.failed[0]!.error.message).toMatch(reason);
      expect(readFileSync(join(project.out, `${path}.cr`))).toEqual(before);
    }
  });
});

/** Rewrites the CRC of the chunk whose type starts at `typeAt` and whose data ends at `end` (exclusive). */
function fixCrc(bytes: Uint8Array, typeAt: number, end: number): void {
  let crc = 0xffffffff;
  for (let i = typeAt; i < end; i++) {
    crc ^= bytes[i]!;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(end, (crc ^ 0xffffffff) >>> 0);
}

describe('KTX2 files at load', () => {
  const none = { bc: false, etc2: false, astc: false };
  test.each([
    [{ ...none, bc: true }, 'color', false, 'bc1-rgba-unorm-srgb'],
    [{ ...none, bc: true }, 'color', true, 'bc3-rgba-unorm-srgb'],
    [{ ...none, bc: true }, 'normal', false, 'bc7-rgba-unorm'],
    [{ bc: true, etc2: true, astc: true }, 'color', false, 'etc2-rgb8unorm-srgb'],
    [{ bc: true, etc2: true, astc: true }, 'normal', false, 'astc-4x4-unorm'],
    [{ ...none, etc2: true }, 'normal', true, 'etc2-rgba8unorm'],
    [{ ...none, astc: true }, 'color', true, 'astc-4x4-unorm-srgb'],
    [none, 'color', false, 'rgba8unorm-srgb'],
    [none, 'normal', false, 'rgba8unorm'],
    [{ ...none, bc: true }, 'data', false, 'bc7-rgba-unorm'],
    [{ bc: true, etc2: true, astc: true }, 'data', false, 'astc-4x4-unorm'],
    [{ ...none, etc2: true }, 'data', false, 'etc2-rgba8unorm'],
    [none, 'data', false, 'rgba8unorm'],
  ] as const)('%o, %s, alpha %s: %s', (support, usage, alpha, format) => {
    expect(chooseTranscode(support, usage, alpha, 64, 64).format).toBe(format);
  });

  test('a size that is not a multiple of 4 texels is transcoded to RGBA8 on any device', () => {
    expect(chooseTranscode({ bc: true, etc2: true, astc: true }, 'color', false, 6, 64).format).toBe('rgba8unorm-srgb');
  });

  test('damaged files are refused with the reason before the transcoder sees them', async () => {
    const good = await encodeKtx2(new Uint8Array(16 * 16 * 4).fill(200), 16, 16, 'color');
    expect(readKtx2Header(good).levelCount).toBe(5);
    const damaged = (change: (bytes: Uint8Array, view: DataView) => void): Uint8Array => {
      const bytes = Uint8Array.from(good);
      change(bytes, new DataView(bytes.buffer));
      return bytes;
    };
    expect(() => readKtx2Header(good.subarray(0, 100))).toThrow(/inside its level index .* truncated/);
    expect(() => readKtx2Header(good.subarray(0, good.length - 10))).toThrow(/level \d's data .* lies outside the file/);
    // Level 2's offset moved past the end of the file.
    expect(() => readKtx2Header(damaged((_, view) => { view.setUint32(80 + 2 * 24, good.length + 100, true); }))).toThrow(/level 2's data .* lies outside the file's \d+ bytes: the level index is wrong/);
    expect(() => readKtx2Header(damaged((_, view) => { view.setUint32(40, 9, true); }))).toThrow(/9 mip levels; a 16x16 texture has at most 5/);
    expect(() => readKtx2Header(damaged((bytes) => (bytes[1] = 0)))).toThrow(/not a KTX2 file/);
  });

  gpuTest('the loader transcodes to BC on a device that has it, to RGBA8 when told to, and a damaged texture adds nothing', async ({ device }) => {
    const report = await compileProject(project.source, project.out);
    expect(report.failed).toEqual([]);
    const basis = await basisModule();
    const scene = new RenderScene(device);
    const checker = texture('textures/checker.png');
    const ripple = texture('textures/ripple.png');
    const formats: string[] = [];
    for (const support of [{ bc: device.features.has('texture-compression-bc'), etc2: false, astc: false }, { bc: false, etc2: false, astc: false }]) {
      const loader = new TextureLoader(basis, support);
      for (const [name, t] of [['textures/checker', checker], ['textures/ripple', ripple]] as const) formats.push(scene.texture(loader.load(scene, name, t)).format);
      expect(loader.stats.textures).toBe(2);
      // 64x64 and 128x128 chains in 0.5 (BC1), 1 (BC7) or 4 (RGBA8) bytes a texel; levels under 4x4 take a whole block.
      expect(loader.stats.gpuBytes).toBe(support.bc ? 2744 + 21872 : 4 * 5461 + 4 * 21845);
    }
    expect(formats).toEqual(device.features.has('texture-compression-bc') ? ['bc1-rgba-unorm-srgb', 'bc7-rgba-unorm', 'rgba8unorm-srgb', 'rgba8unorm'] : ['rgba8unorm-srgb', 'rgba8unorm', 'rgba8unorm-srgb', 'rgba8unorm']);
    // Level 3's offset pointed past the end: refused with the texture's name, no texture added.
    const ktx2 = Uint8Array.from(section(checker, 'ktx2', Uint8Array));
    new DataView(ktx2.buffer).setUint32(80 + 3 * 24, ktx2.length, true);
    const damaged = readContainer<TextureMeta>(writeContainer({ type: 'texture', meta: checker.meta, sections: { ktx2 } }), 'texture');
    const loader = new TextureLoader(basis, { bc: false, etc2: false, astc: false });
    const next = scene.addTexture({ width: 1, height: 1, data: new Uint8Array(4) }) + 1;
    expect(() => loader.load(scene, 'textures/checker', damaged)).toThrow(EngineError);
    expect(() => loader.load(scene, 'textures/checker', damaged)).toThrow(/compiled texture textures\/checker level 3's data .* lies outside the file/);
    expect(loader.stats.textures).toBe(0);
    expect(scene.addTexture({ width: 1, height: 1, data: new Uint8Array(4) })).toBe(next);
    // A watch-loop draft: RGBA8 uploaded, its mips made on the GPU.
    const rgba = new Uint8Array(64 * 64 * 4).fill(200);
    const draft = readContainer<TextureMeta>(writeContainer({ type: 'texture', meta: { ...checker.meta, codec: 'rgba8' }, sections: { rgba } }), 'texture');
    const id = loader.load(scene, 'textures/checker', draft);
    expect([scene.texture(id).format, scene.texture(id).mipLevelCount]).toEqual(['rgba8unorm-srgb', 7]);
    expect(loader.stats.gpuBytes).toBe(4 * 5461);
    scene.destroy();
  });
});

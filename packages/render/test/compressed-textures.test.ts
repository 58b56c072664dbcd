// Textures whose levels come made (transcoded from KTX2, say): a BC1 chain is sampled at the
// level the distance asks for, pixel for pixel as the same chain in RGBA8; bad inputs are
// refused with the reason and leave the scene as it was.
import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { planeMesh, RenderError, RenderScene, textureFormatInfo, textureLevelByteLength, type CompressedTextureInput } from '../src/index.ts';
import { camera, HEIGHT, newRenderer, renderFrame, WIDTH } from './helpers.ts';

const SIZE = 64;
const LEVELS = 7;
/** Level L's red, as 5 bits: every level a different red, darker with distance. */
const red5 = (level: number): number => 31 - 5 * level;
/** What a BC1 decoder makes of 5 bits: the bits repeated into 8. */
const expand5 = (v: number): number => (v << 3) | (v >> 2);

function bc1Level(level: number): Uint8Array<ArrayBuffer> {
  const side = Math.max(1, SIZE >> level);
  const blocks = Math.ceil(side / 4) ** 2;
  const data = new Uint8Array(blocks * 8);
  const view = new DataView(data.buffer);
  const colour = red5(level) << 11;
  // Both endpoints the same colour and every index 0: the block is that colour.
  for (let b = 0; b < blocks; b++) {
    view.setUint16(b * 8, colour, true);
    view.setUint16(b * 8 + 2, colour, true);
  }
  return data;
}

function rgbaLevel(level: number): Uint8Array<ArrayBuffer> {
  const side = Math.max(1, SIZE >> level);
  const data = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) data.set([expand5(red5(level)), 0, 0, 255], i * 4);
  return data;
}

const chain = (make: (level: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>[] => Array.from({ length: LEVELS }, (_, level) => make(level));

describe('compressed textures', () => {
  gpuTest('a BC1 chain is sampled at the level each distance asks for, as the same chain in RGBA8', async ({ device }) => {
    if (!device.features.has('texture-compression-bc')) throw new Error('this test needs an adapter with texture-compression-bc (lavapipe and every desktop GPU have it)');
    const centre: Record<string, number[]> = {};
    const frames: Record<string, Uint8Array[]> = {};
    for (const input of [{ format: 'bc1-rgba-unorm', width: SIZE, height: SIZE, levels: chain(bc1Level) }, { format: 'rgba8unorm', width: SIZE, height: SIZE, levels: chain(rgbaLevel) }] satisfies CompressedTextureInput[]) {
      const scene = new RenderScene(device);
      const texture = scene.addCompressedTexture(input);
      expect(scene.texture(texture).mipLevelCount).toBe(LEVELS);
      expect(scene.texture(texture).format).toBe(input.format);
      const material = scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: texture, roughness: 1, emissive: [0, 0, 0] });
      scene.addInstance(scene.addMesh(planeMesh(400, 400)), material, new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
      scene.setSun({ direction: [0, -1, 0], color: [1, 1, 1], intensity: 0.6 });
      const renderer = newRenderer(device);
      centre[input.format] = [];
      frames[input.format] = [];
      for (const height of [0.4, 4, 40]) {
        const frame = await renderFrame(device, renderer, scene, camera([0, height, 0.001], [0, 0, 0]));
        centre[input.format]!.push(frame.pixels[((HEIGHT / 2) * WIDTH + WIDTH / 2) * 4]!);
        frames[input.format]!.push(frame.pixels);
      }
      renderer.destroy();
      scene.destroy();
    }
    const figures = JSON.stringify(centre);
    // Farther, a smaller level, so a darker red: the levels given are the ones sampled.
    const [near, middle, far] = centre['bc1-rgba-unorm']!;
    expect(near! - middle!, figures).toBeGreaterThan(8);
    expect(middle! - far!, figures).toBeGreaterThan(30);
    // The block-compressed chain draws what the same texels in RGBA8 draw.
    for (let i = 0; i < 3; i++) {
      let worst = 0;
      const [a, b] = [frames['bc1-rgba-unorm']![i]!, frames.rgba8unorm![i]!];
      for (let p = 0; p < a.length; p++) worst = Math.max(worst, Math.abs(a[p]! - b[p]!));
      expect(worst, `height ${[0.4, 4, 40][i]}: ${figures}`).toBeLessThanOrEqual(1);
    }
  });

  gpuTest('a chain shorter than the full one is sampled down to its last level', ({ device }) => {
    const scene = new RenderScene(device);
    const id = scene.addCompressedTexture({ format: 'rgba8unorm-srgb', width: 8, height: 4, levels: [new Uint8Array(8 * 4 * 4), new Uint8Array(4 * 2 * 4)] });
    expect(scene.texture(id).mipLevelCount).toBe(2);
    expect(scene.texture(id).format).toBe('rgba8unorm-srgb');
    scene.destroy();
    return Promise.resolve();
  });

  gpuTest('bad inputs are refused with the reason, and nothing is created', ({ device }) => {
    const scene = new RenderScene(device);
    const before = scene.addTexture({ width: 1, height: 1, data: new Uint8Array(4) });
    const refused = (input: CompressedTextureInput, reason: RegExp): void => {
      expect(() => scene.addCompressedTexture(input)).toThrow(RenderError);
      expect(() => scene.addCompressedTexture(input)).toThrow(reason);
    };
    const bc1 = (levels: Uint8Array<ArrayBuffer>[], width = SIZE, height = SIZE): CompressedTextureInput => ({ format: 'bc1-rgba-unorm', width, height, levels });
    refused({ format: 'r8unorm' as CompressedTextureInput['format'], width: 4, height: 4, levels: [new Uint8Array(16)] }, /not a texture format/);
    refused(bc1([new Uint8Array(8)], 6, 4), /multiple of 4x4/);
    refused(bc1([]), /1 to 7 mip levels/);
    refused(bc1(chain(bc1Level).concat([new Uint8Array(8)])), /1 to 7 mip levels/);
    refused(bc1([bc1Level(0), new Uint8Array(100)]), /mip level 1 .* must hold 512 bytes, got 100/);
    refused({ format: 'rgba8unorm', width: 0, height: 4, levels: [new Uint8Array(0)] }, /positive integer size/);
    if (!device.features.has('texture-compression-astc')) refused({ format: 'astc-4x4-unorm', width: 4, height: 4, levels: [new Uint8Array(16)] }, /texture-compression-astc/);
    // Only the texture added first exists: the next id follows it.
    expect(scene.addTexture({ width: 1, height: 1, data: new Uint8Array(4) })).toBe(before + 1);
    scene.destroy();
    return Promise.resolve();
  });

  test.each([
    ['bc1-rgba-unorm', 64, 64, 0, 2048],
    ['bc1-rgba-unorm', 64, 64, 6, 8],
    ['bc7-rgba-unorm-srgb', 128, 64, 1, 64 * 32],
    ['astc-4x4-unorm', 8, 8, 3, 16],
    ['rgba8unorm', 5, 3, 1, 2 * 1 * 4],
  ] as const)('%s %ix%i level %i holds %i bytes', (format, width, height, level, bytes) => {
    expect(textureLevelByteLength(textureFormatInfo(format)!, width, height, level)).toBe(bytes);
  });
});

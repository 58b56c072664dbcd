// PNG and TGA codecs against files written by an independent encoder (Python's zlib, see
// fixtures/make-image-fixtures.py): bit depths 1-16, palettes with transparency, every PNG
// row filter, TGA RLE and bottom-up rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeImage, decodePng, decodeTga, encodePng, encodeTga, GuiError, type GuiImage } from '../src/index.ts';

const dir = join(import.meta.dirname, 'fixtures');
const expected = JSON.parse(readFileSync(join(dir, 'images.json'), 'utf8')) as Record<string, { width: number; height: number; channels: 1 | 4; data: string }>;

describe('decoding', () => {
  for (const [file, want] of Object.entries(expected)) {
    test(file, async () => {
      const image = await decodeImage(new Uint8Array(readFileSync(join(dir, file))));
      expect({ width: image.width, height: image.height, channels: image.channels }).toEqual({ width: want.width, height: want.height, channels: want.channels });
      expect(Buffer.from(image.data).toString('base64')).toBe(want.data);
    });
  }
});

describe('encoding', () => {
  const image = (channels: 1 | 4): GuiImage => {
    const data = new Uint8Array(31 * 17 * channels);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 5)) & 255;
    return { width: 31, height: 17, channels, data };
  };
  test('PNG round-trips grey and RGBA', async () => {
    for (const channels of [1, 4] as const) {
      const original = image(channels);
      expect(await decodePng(await encodePng(original))).toEqual(original);
    }
  });
  test('TGA round-trips grey and RGBA', () => {
    for (const channels of [1, 4] as const) {
      const original = image(channels);
      expect(decodeTga(encodeTga(original))).toEqual(original);
    }
  });
});

describe('bad files name the byte offset', () => {
  test('a PNG with a broken CRC, a truncated chunk, interlacing', async () => {
    const png = new Uint8Array(readFileSync(join(dir, 'rgba8.png')));
    const broken = png.slice();
    broken[20] = 0xff - png[20]!;
    await expect(decodePng(broken)).rejects.toThrow(/byte offset 8: chunk IHDR fails its CRC check/);
    await expect(decodePng(png.subarray(0, 60))).rejects.toThrow(/chunk IDAT says \d+ bytes but the file ends first/);
    await expect(decodePng(new Uint8Array(8))).rejects.toThrow(GuiError);
  });
  test('a TGA of an unsupported type or cut short', () => {
    const tga = new Uint8Array(readFileSync(join(dir, 'bgra-bottom-up.tga')));
    const odd = tga.slice();
    odd[2] = 32;
    expect(() => decodeTga(odd)).toThrow(/byte offset 2: image type 32 is not supported/);
    expect(() => decodeTga(tga.subarray(0, 100))).toThrow(/byte offset 18: pixel data needs 364 bytes/);
    const rle = new Uint8Array(readFileSync(join(dir, 'grey-rle.tga')));
    expect(() => decodeTga(rle.subarray(0, 30))).toThrow(/RLE/);
  });
});

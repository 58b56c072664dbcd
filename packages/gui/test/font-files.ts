// Helpers for the font tool tests: the Debian font the TTF tests read, and a high-resolution
// AngelCode font drawn by hand (a disc and a square) in the layout BMFont writes.
import { existsSync, readFileSync } from 'node:fs';
import type { BMFont, GuiImage } from '../src/index.ts';

export const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** DejaVu Sans from Debian's fonts-dejavu-core; fails with the install line when it is missing. */
export function dejaVuSans(path = DEJAVU_SANS): Uint8Array {
  if (!existsSync(path)) {
    throw new Error(`${path} is missing. The TTF tests read a real font from Debian's fonts-dejavu-core package: run \`apt-get install fonts-dejavu-core\` as root, or \`bash tooling/scripts/setup.sh test\`.`);
  }
  return new Uint8Array(readFileSync(path));
}

export const SCALE = 8;
export const SPREAD = 3;

/**
 * A 512x512 high-resolution font drawn by hand: a disc ('o', radius 60) and a square ('x', 100
 * wide) on page 0 and the same disc as 'O' on page 1. Each rectangle holds its ink plus
 * SCALE x SPREAD pixels of padding, as the post asks. Pages are grey (channels 1) or white
 * RGBA with the glyph in alpha.
 */
export function handDrawnFont(channels: 1 | 4, pageExtension: 'png' | 'tga'): { font: BMFont; pages: GuiImage[] } {
  const size = 512;
  const pad = SCALE * SPREAD;
  const draw = (inside: (x: number, y: number) => boolean): GuiImage => {
    const data = new Uint8Array(size * size * channels);
    if (channels === 4) data.fill(255);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const covered = inside(x + 0.5, y + 0.5);
        if (channels === 1) data[y * size + x] = covered ? 255 : 0;
        else data[(y * size + x) * 4 + 3] = covered ? 255 : 0;
      }
    }
    return { width: size, height: size, channels, data };
  };
  const disc = (x: number, y: number): boolean => Math.hypot(x - 84, y - 84) <= 60;
  const square = (x: number, y: number): boolean => x >= 200 && x < 300 && y >= 24 && y < 124;
  const font: BMFont = {
    info: { face: 'Shapes', size: 160, bold: 0, italic: 0, charset: '', unicode: 1, stretchH: 100, smooth: 1, aa: 1, padding: [pad, pad, pad, pad], spacing: [1, 1], outline: 0 },
    common: { lineHeight: 192, base: 160, scaleW: size, scaleH: size, pages: 2, packed: 0, alphaChnl: 0, redChnl: 4, greenChnl: 4, blueChnl: 4 },
    pages: [`shapes_0.${pageExtension}`, `shapes_1.${pageExtension}`],
    chars: [
      { id: 111, x: 0, y: 0, width: 168, height: 168, xoffset: -24, yoffset: 16, xadvance: 136, page: 0, chnl: 15 },
      { id: 120, x: 176, y: 0, width: 148, height: 148, xoffset: -16, yoffset: 40, xadvance: 120, page: 0, chnl: 15 },
      { id: 79, x: 0, y: 0, width: 168, height: 168, xoffset: -24, yoffset: 16, xadvance: 136, page: 1, chnl: 15 },
    ],
    kernings: [{ first: 111, second: 120, amount: -16 }],
  };
  return { font, pages: [draw((x, y) => disc(x, y) || square(x, y)), draw(disc)] };
}

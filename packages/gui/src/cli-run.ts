// The `cuttle-font` command line. runCli takes argv and output sinks and returns the exit
// code, so tests drive it in-process; src/cli.ts is the thin bin.
import type { BMFontFormat, ImageFormat } from './api.ts';
import { GuiError } from './errors.ts';
import { convertFontFile, readFontFiles, ttfToFontFile } from './node.ts';
import type { GlyphFieldMethod } from './ttf-layout.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const USAGE = `cuttle-font: distance-field fonts from AngelCode BMFont files or TTF/OTF

  cuttle-font sdf <high-res.fnt> -o <out.fnt> [--scale 8] [--spread 4] [--threshold 128]
                  [--format text|xml|binary] [--image png|tga]
      The post's tool: scale a high-resolution .fnt and its pages (PNG or TGA, grey or RGBA)
      down by --scale, turn the pages into distance fields reaching --spread output pixels
      past the outlines, and write the rescaled .fnt with its pages beside it.
  cuttle-font ttf <font.ttf|otf> -o <out.fnt> --size <px> [--scale 8] [--spread 4]
                  [--method outline|raster] [--chars <text>] [--page-size 256]
                  [--format text|xml|binary] [--image png|tga]
      Distance fields measured straight from each glyph's outline (--method raster: rasterise
      the font at size x scale and run the same distance-field step as sdf).
  cuttle-font info <file.fnt>
      Print the font's face, size, pages, character and kerning counts.
`;

const VALUE_FLAGS = new Set(['-o', '--scale', '--spread', '--threshold', '--format', '--image', '--size', '--chars', '--page-size', '--method']);

interface Args {
  positional: string[];
  flags: Map<string, string>;
}

function parseArgs(argv: readonly string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (!VALUE_FLAGS.has(a)) throw new GuiError(`unknown option ${a}`);
      const v = argv[++i];
      if (v === undefined) throw new GuiError(`${a} needs a value`);
      flags.set(a, v);
    } else positional.push(a);
  }
  return { positional, flags };
}

function numberFlag(args: Args, flag: string, fallback?: number): number {
  const raw = args.flags.get(flag);
  if (raw === undefined) {
    if (fallback === undefined) throw new GuiError(`${flag} is required`);
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new GuiError(`${flag} must be a number, got "${raw}"`);
  return value;
}

function choice<T extends string>(args: Args, flag: string, allowed: readonly T[]): T | undefined {
  const raw = args.flags.get(flag);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new GuiError(`${flag} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function output(args: Args): string {
  const out = args.flags.get('-o');
  if (!out) throw new GuiError('-o <out.fnt> is required');
  return out;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return command ? 0 : 2;
    }
    const args = parseArgs(rest);
    const input = args.positional[0];
    if (!input) throw new GuiError(`${command} needs an input file`);
    const format = choice<BMFontFormat>(args, '--format', ['text', 'xml', 'binary']);
    const imageFormat = choice<ImageFormat>(args, '--image', ['png', 'tga']);
    let written: string[];
    if (command === 'sdf') {
      written = await convertFontFile(input, output(args), { scale: numberFlag(args, '--scale', 8), spread: numberFlag(args, '--spread', 4), threshold: numberFlag(args, '--threshold', 128), ...(format ? { format } : {}), ...(imageFormat ? { imageFormat } : {}) });
    } else if (command === 'ttf') {
      const chars = args.flags.get('--chars');
      const method = choice<GlyphFieldMethod>(args, '--method', ['outline', 'raster']);
      written = await ttfToFontFile(input, output(args), {
        size: numberFlag(args, '--size'),
        scale: numberFlag(args, '--scale', 8),
        spread: numberFlag(args, '--spread', 4),
        pageSize: numberFlag(args, '--page-size', 256),
        ...(method ? { method } : {}),
        ...(chars ? { chars } : {}),
        ...(format ? { format } : {}),
        ...(imageFormat ? { imageFormat } : {}),
      });
    } else if (command === 'info') {
      const { font, pages, format: inFormat } = await readFontFiles(input);
      io.stdout(`${font.info.face} ${font.info.size}px (${inFormat}), line height ${font.common.lineHeight}, base ${font.common.base}\n`);
      io.stdout(`${pages.length} page(s) of ${font.common.scaleW}x${font.common.scaleH}: ${font.pages.join(', ')}\n`);
      io.stdout(`${font.chars.length} characters, ${font.kernings.length} kerning pairs${font.distanceField ? `, ${font.distanceField.fieldType} distance range ${font.distanceField.distanceRange}` : ''}\n`);
      return 0;
    } else {
      throw new GuiError(`unknown command "${command}"\n\n${USAGE}`);
    }
    io.stdout(`wrote ${written.join(', ')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof GuiError) {
      io.stderr(`cuttle-font: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

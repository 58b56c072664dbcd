import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { runInThisContext } from 'node:vm';
import { isDeepStrictEqual } from 'node:util';
import { defineSuite, opsPerSecond, timeMs } from '@cuttle/bench';
import { build } from 'esbuild';
import parseAscii from 'parse-bmfont-ascii';
import parseBinary from 'parse-bmfont-binary';
import parseXml from 'parse-bmfont-xml';
import { chromium, type Browser, type Page } from 'playwright-core';
import { distanceFieldFont, distanceFieldFontFromTtf, encodePng, parseBMFontBinary, parseBMFontText, parseBMFontXml, writeBMFontBinary, writeBMFontText, writeBMFontXml, type BMFont } from '../src/index.ts';

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const ttf = new Uint8Array(readFileSync(DEJAVU));
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

// A font the size real ones are: Latin-1 and Latin Extended-A (352 characters) with DejaVu's
// kerning pairs, on one page (parse-bmfont-xml reads only the first page).
const latin = Array.from({ length: 0x180 - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const realFont = distanceFieldFontFromTtf(ttf, { size: 32, chars: latin, pageSize: 1024 }).font;
const asText = writeBMFontText(realFont);
const asXml = writeBMFontXml(realFont);
const asBinary = writeBMFontBinary(realFont);
const asBuffer = Buffer.from(asBinary);

// Same results before timing: every char and kerning pair as the peers read them.
function sameAs(theirs: { chars: object[]; kernings: object[]; pages: string[] }, ours: BMFont, name: string): void {
  if (!isDeepStrictEqual(theirs.chars.map((c) => ({ ...c })), ours.chars) || !isDeepStrictEqual(theirs.kernings.map((k) => ({ ...k })), ours.kernings) || theirs.pages[0] !== ours.pages[0]) {
    throw new Error(`${name} reads the font differently`);
  }
}
sameAs(parseAscii(asText), parseBMFontText(asText), 'parse-bmfont-ascii');
sameAs(parseXml(asXml), parseBMFontXml(asXml), 'parse-bmfont-xml');
sameAs(parseBinary(asBuffer), parseBMFontBinary(asBinary), 'parse-bmfont-binary');

// Real .fnt files from public repositories (bench/fnt/README.md lists them, with their tools of
// origin), plus binary and XML copies of two real text fonts made with our writers. Each timed
// call decodes or copies the file's bytes afresh, as a user reading a file would, so nothing
// parsed before is reused.
interface RealFont { name: string; format: 'text' | 'xml' | 'binary'; tool: string; bytes: Buffer; chars: number; kernings: number; pages: number }
const FNT_DIR = new URL('./fnt/', import.meta.url);
// The tool each file's header suggests (bench/fnt/README.md says why).
const TOOLS: Record<string, string> = {
  'bmfontrs-anton-latin': 'BMFont', 'bmfontrs-medium': 'BMFont', 'bmfontrs-multi-page': 'BMFont', 'bmfontrs-small': 'BMFont layout',
  'loadbmfont-arial': 'BMFont', 'loadbmfont-nexalight32': 'BMFont', 'parsebmfontbinary-font2': 'BMFont', 'parsebmfontxml-markerfelt': 'Glyph Designer',
  'piazzapanic-yugothic': 'Hiero', 'threebmfont-dejavu-sdf': 'Hiero (SDF)', 'threebmfont-lato-16': 'BMFont', 'threebmfont-lato-64': 'BMFont', 'threebmfont-norwester-multi-64': 'BMFont',
};
const realFonts: RealFont[] = [];
function addRealFont(name: string, format: RealFont['format'], bytes: Buffer, tool: string): void {
  const ours = format === 'binary' ? parseBMFontBinary(Buffer.from(bytes)) : format === 'xml' ? parseBMFontXml(bytes.toString('utf8')) : parseBMFontText(bytes.toString('utf8'));
  const theirs = format === 'binary' ? parseBinary(Buffer.from(bytes)) : format === 'xml' ? parseXml(bytes.toString('utf8')) : parseAscii(bytes.toString('utf8'));
  sameAsReal(theirs, ours, `${format} ${name}`);
  realFonts.push({ name, format, tool, bytes, chars: ours.chars.length, kernings: ours.kernings.length, pages: ours.pages.length });
}
const CHAR_FIELDS = ['id', 'x', 'y', 'width', 'height', 'xoffset', 'yoffset', 'xadvance', 'page', 'chnl'] as const;
// Every char (its ten BMFont fields: Littera's letter= is not one), every kerning pair, every
// page the peer keeps (parse-bmfont-xml keeps only the first of a multi-page font), and the
// common block's line height and base.
function sameAsReal(theirs: { chars: Record<string, unknown>[]; kernings: object[]; pages: string[]; common: Record<string, unknown> }, ours: BMFont, name: string): void {
  const fields = (c: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(CHAR_FIELDS.map((k) => [k, c[k]]));
  const pagesAgree = theirs.pages.length > 0 && theirs.pages.every((p, i) => p === ours.pages[i]);
  const commonAgrees = theirs.common.lineHeight === ours.common.lineHeight && theirs.common.base === ours.common.base;
  if (!isDeepStrictEqual(theirs.chars.map(fields), ours.chars.map((c) => fields({ ...c }))) || !isDeepStrictEqual(theirs.kernings.map((k) => ({ ...k })), ours.kernings) || !pagesAgree || !commonAgrees) {
    throw new Error(`the peer reads ${name} differently`);
  }
}
for (const file of readdirSync(FNT_DIR).filter((f) => f.endsWith('.fnt')).sort()) {
  const bytes = readFileSync(new URL(file, FNT_DIR));
  const format = bytes[0] === 0x42 && bytes[1] === 0x4d && bytes[2] === 0x46 ? 'binary' : bytes.toString('utf8', 0, 64).trimStart().startsWith('<') ? 'xml' : 'text';
  const name = file.replace(/(\.(txt|xml|bin))?\.fnt$/, '');
  addRealFont(name, format, bytes, TOOLS[name] ?? 'unknown');
}
// Few real binary files are public: binary (and one XML) copies of real text fonts, written by us.
for (const [file, formats] of [['threebmfont-lato-64.fnt', ['binary', 'xml']], ['threebmfont-norwester-multi-64.fnt', ['binary']]] as const) {
  const font = parseBMFontText(readFileSync(new URL(file, FNT_DIR), 'utf8'));
  const stem = file.replace(/\.fnt$/, '');
  for (const format of formats) addRealFont(`${stem} (written by us)`, format, Buffer.from(format === 'binary' ? writeBMFontBinary(font) : writeBMFontXml(font)), TOOLS[stem]!);
}

const READERS = {
  text: { peer: 'parse-bmfont-ascii', ours: (b: Buffer) => parseBMFontText(b.toString('utf8')), theirs: (b: Buffer) => parseAscii(b.toString('utf8')) },
  xml: { peer: 'parse-bmfont-xml', ours: (b: Buffer) => parseBMFontXml(b.toString('utf8')), theirs: (b: Buffer) => parseXml(b.toString('utf8')) },
  binary: { peer: 'parse-bmfont-binary', ours: (b: Buffer) => parseBMFontBinary(Buffer.from(b)), theirs: (b: Buffer) => parseBinary(Buffer.from(b)) },
} as const;

const realFontCases = realFonts.map((f) => {
  const reader = READERS[f.format];
  return {
    name: `real ${f.format} .fnt: ${f.name} (${f.tool}, ${f.bytes.length} B, ${f.pages} page${f.pages > 1 ? 's' : ''}, ${f.chars} chars, ${f.kernings} kernings)`,
    unit: 'parses/s',
    higherIsBetter: true,
    ours: () => opsPerSecond(() => reader.ours(f.bytes), { minMs: 150 }),
    peers: { [reader.peer]: () => opsPerSecond(() => reader.theirs(f.bytes), { minMs: 150 }) },
  };
});

// msdf-bmfont-xml 2.7.0 (2.8.0's bundled msdfgen needs glibc 2.38; Debian bookworm has 2.36).
// Its dependency maxrects-packer 2.7.4 is a UMD file in a "type": "module" package, which
// require() now loads as ESM with no exports; run it as CommonJS for it.
// Loaded only when its case runs: its dependency jimp, once loaded, makes every String.split /
// replace / match with a regular expression in the process about 4.5x slower (parse-bmfont-ascii
// read the same file in 2.6 ms instead of 0.58 ms), which inflated the reader ratios measured
// before it was loaded lazily.
const require = createRequire(import.meta.url);
type MsdfCallback = (error: Error | null, textures: { texture: Buffer }[], font: { data: string }) => void;
type GenerateBMFont = (path: string, options: object, callback: MsdfCallback) => void;
let generateBMFontOnce: GenerateBMFont | undefined;
function generateBMFont(path: string, options: object, callback: MsdfCallback): void {
  if (!generateBMFontOnce) {
    const msdfRequire = createRequire(require.resolve('msdf-bmfont-xml'));
    const packerPath = msdfRequire.resolve('maxrects-packer');
    const packer = { exports: {} as object };
    (runInThisContext(`(function (exports, module) {${readFileSync(packerPath, 'utf8')}\n})`) as (e: object, m: object) => void)(packer.exports, packer);
    msdfRequire.cache[packerPath] = { id: packerPath, filename: packerPath, loaded: true, exports: packer.exports } as NodeJS.Module;
    generateBMFontOnce = require('msdf-bmfont-xml') as GenerateBMFont;
  }
  generateBMFontOnce(path, options, callback);
}

/** msdf-bmfont-xml prints progress on stdout; keep stdout for the --json document. */
async function msdfFont(): Promise<{ bytes: number }> {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  try {
    return await msdfFontQuiet();
  } finally {
    process.stdout.write = write;
  }
}

function msdfFontQuiet(): Promise<{ bytes: number }> {
  return new Promise((resolve, reject) => {
    generateBMFont(DEJAVU, { fieldType: 'sdf', fontSize: 32, distanceRange: 8, textureSize: [256, 256], outputType: 'txt', charset: ASCII }, (error, textures, font) => {
      if (error) reject(error);
      else resolve({ bytes: textures.reduce((sum, t) => sum + t.texture.length, 0) + font.data.length });
    });
  });
}

async function ourFont(): Promise<{ bytes: number }> {
  const { font, pages } = distanceFieldFontFromTtf(ttf, { size: 32, scale: 8, spread: 4, chars: ASCII });
  let bytes = writeBMFontText(font).length;
  for (const page of pages) bytes += (await encodePng(page)).length;
  return { bytes };
}

// A 4096x4096 high-resolution page of glyph-like discs, as the post's 8x workflow makes.
const PAGE = 4096;
const page = new Uint8Array(PAGE * PAGE);
for (let y = 0; y < PAGE; y++) for (let x = 0; x < PAGE; x++) if (Math.hypot((x & 255) - 128, (y & 255) - 128) < 90 && Math.hypot((x & 255) - 128, (y & 255) - 128) > 40) page[y * PAGE + x] = 255;
const pageFont = parseBMFontText(`info face="Rings" size=256 padding=32,32,32,32\ncommon lineHeight=256 base=200 scaleW=${PAGE} scaleH=${PAGE} pages=1\npage id=0 file="rings_0.png"\nchars count=1\nchar id=79 x=0 y=0 width=256 height=256 xoffset=0 yoffset=0 xadvance=256 page=0 chnl=15\n`);

let browser: Browser | undefined;
let tab: Page | undefined;

async function browserPage(): Promise<Page> {
  if (tab) return tab;
  const bundle = await build({ entryPoints: [new URL('./browser-sdf-page.ts', import.meta.url).pathname], bundle: true, format: 'iife', write: false, platform: 'browser', conditions: ['@cuttle/source'], logLevel: 'silent', loader: { '.wgsl': 'text' }, plugins: [{ name: 'raw', setup(b) { b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: new URL(a.path.slice(0, -4), `file://${a.resolveDir}/`).pathname, namespace: 'raw' })); b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({ contents: readFileSync(a.path, 'utf8'), loader: 'text' })); } }] });
  browser = await chromium.launch({ executablePath: process.env.CUTTLE_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  tab = await browser.newPage();
  await tab.setContent('<!doctype html><body></body>');
  await tab.addScriptTag({ content: bundle.outputFiles[0]!.text });
  return tab;
}

type Accuracy = ReturnType<Window['sdfBench']['accuracy']>;
let accuracy: Promise<Accuracy> | undefined;

/** Both fields against the exact outline reference, once; also the check before any timing. */
function fieldAccuracy(): Promise<Accuracy> {
  accuracy ??= browserPage().then((page) => page.evaluate((bytes) => window.sdfBench.accuracy(new Uint8Array(bytes), 'outline', 8), Array.from(ttf)));
  return accuracy;
}

async function checkedPage(): Promise<Page> {
  await fieldAccuracy();
  return browserPage();
}

function accuracyCases(): { name: string; unit: string; higherIsBetter: boolean; rounds: number; ours: () => Promise<number>; peers: Record<string, () => Promise<number>> }[] {
  const rows = [
    ['glyph\'s distance field accuracy: texels on the wrong side farther than 0.25 px from the outline (94 glyphs)', 'texels', 'signErrors'],
    ['glyph\'s distance field accuracy: mean distance error within 4 px of the outline', 'px', 'mean'],
    ['glyph\'s distance field accuracy: max distance error within 4 px of the outline', 'px', 'max'],
  ] as const;
  return rows.map(([name, unit, key]) => ({
    name,
    unit,
    higherIsBetter: false,
    rounds: 1,
    ours: async () => (await fieldAccuracy()).ours[key],
    peers: { '@mapbox/tiny-sdf': async () => (await fieldAccuracy()).tinySdf[key] },
  }));
}

export const suite = defineSuite({
  package: '@cuttle/gui',
  teardown: async () => { await browser?.close(); },
  cases: [
    {
      name: 'read a text .fnt (352 chars, DejaVu kerning pairs)',
      unit: 'parses/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => parseBMFontText(asText), { minMs: 200 }),
      peers: { 'parse-bmfont-ascii': () => opsPerSecond(() => parseAscii(asText), { minMs: 200 }) },
    },
    {
      name: 'read an XML .fnt (same font)',
      unit: 'parses/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => parseBMFontXml(asXml), { minMs: 200 }),
      peers: { 'parse-bmfont-xml': () => opsPerSecond(() => parseXml(asXml), { minMs: 200 }) },
    },
    {
      name: 'read a binary .fnt (same font)',
      unit: 'parses/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => parseBMFontBinary(asBinary), { minMs: 200 }),
      peers: { 'parse-bmfont-binary': () => opsPerSecond(() => parseBinary(asBuffer), { minMs: 200 }) },
    },
    ...realFontCases,
    {
      name: '4096x4096 page to a 512x512 distance field (scale 8, spread 4)',
      unit: 'ms',
      higherIsBetter: false,
      rounds: 5,
      ours: () => timeMs(() => distanceFieldFont(pageFont, [{ width: PAGE, height: PAGE, channels: 1, data: page }], { scale: 8, spread: 4 })),
      peers: {},
    },
    {
      name: 'TTF to a 32 px distance-field font, 95 ASCII chars (generation time)',
      unit: 'ms',
      higherIsBetter: false,
      rounds: 5,
      ours: () => timeMs(ourFont),
      peers: { 'msdf-bmfont-xml (sdf)': () => timeMs(msdfFont) },
    },
    {
      name: 'TTF to a 32 px distance-field font, 95 ASCII chars (output size: pages + .fnt)',
      unit: 'bytes',
      higherIsBetter: false,
      rounds: 1,
      ours: async () => (await ourFont()).bytes,
      peers: { 'msdf-bmfont-xml (sdf)': async () => (await msdfFont()).bytes },
    },
    {
      name: 'one glyph\'s distance field at 32 px in Chromium (DejaVu Sans, spread 4)',
      unit: 'glyphs/s',
      higherIsBetter: true,
      rounds: 5,
      ours: async () => (await checkedPage()).evaluate((bytes) => window.sdfBench.ours(new Uint8Array(bytes), 300, 'outline', 8), Array.from(ttf)),
      peers: { '@mapbox/tiny-sdf': async () => (await checkedPage()).evaluate(() => window.sdfBench.tinySdf(300)) },
    },
    {
      name: 'one glyph\'s distance field, ours by the raster method at 8x (the default before 2026-11-28)',
      unit: 'glyphs/s',
      higherIsBetter: true,
      rounds: 5,
      ours: async () => (await checkedPage()).evaluate((bytes) => window.sdfBench.ours(new Uint8Array(bytes), 300, 'raster', 8), Array.from(ttf)),
      peers: { '@mapbox/tiny-sdf': async () => (await checkedPage()).evaluate(() => window.sdfBench.tinySdf(300)) },
    },
    ...accuracyCases(),
  ],
  notes: [
    'Readers: the same 352-character font (with DejaVu Sans\'s kerning pairs) in each format; every char and kerning pair was checked equal to the peer\'s before timing. parse-bmfont-xml keeps only the first <page> of a multi-page font (our tests show it), so the benchmark font has one page.',
    'Real files ("real ... .fnt" rows): the .fnt files in bench/fnt/ (sources, commits and licences in bench/fnt/README.md; only MIT, Apache-2.0 or OFL repositories): 8 text (BMFont, Hiero, one Hiero SDF font; 0.6-35 KB, 2-191 chars, 0-641 kerning pairs, 1-4 pages), 3 XML (BMFont, Glyph Designer; up to 211 KB and 3,680 kerning pairs) and 4 binary (BMFont) files; "(written by us)" rows are two of the real text fonts written out with writeBMFontBinary / writeBMFontXml, because few real binary files are public. Each timed call reads the file\'s bytes afresh (UTF-8 decoding for text and XML, a copied Buffer for binary) for ours and the peer alike; chars (their ten BMFont fields), kerning pairs, the pages the peer keeps, and common lineHeight and base were checked equal before timing. msdf-bmfont-xml is loaded only when its case runs: its dependency jimp makes regular-expression string methods about 4.5x slower in the whole process, which had inflated earlier text-reader ratios (8.7-10.3x) by slowing parse-bmfont-ascii.',
    'Font generation: ours lays glyphs out as the post\'s 8x workflow would and measures each texel\'s distance straight from the flattened outline (method \'outline\', the default), then encodes grey PNG pages; msdf-bmfont-xml 2.7.0 in its "sdf" mode spawns msdfgen per glyph and writes RGBA PNGs. 2.8.0 does not run here: its bundled msdfgen binary needs glibc 2.38 and Debian bookworm has 2.36; both versions also need a shim for their maxrects-packer dependency (see fonts.bench.ts).',
    'Per-glyph fields in Chromium (Debian\'s /usr/bin/chromium through playwright-core, one page): ours (GlyphDistanceFields, method \'outline\') flattens the glyph\'s outline to 0.02 px and measures every texel within the spread from its segments, sign by the nonzero rule; tiny-sdf 2.3.0 draws the glyph with canvas fillText and transforms its antialiased coverage. Both at 32 px with the same encoding (ours spread 4; tiny-sdf buffer 4, radius 8, cutoff 0.5: 127.5 on the outline, 255/8 levels per px). Each timed pass draws the 94 printable ASCII glyphs once each, a new field per draw; the font object and tiny-sdf\'s canvas are made once, as a user would. Before any timing both draw every glyph and are compared texel by texel with the same exact reference (src/reference/outline-distance.ts: the unhinted outline, every curve in 96 steps, brute-force distances and winding); tiny-sdf\'s advances must equal ours, so the page draws the same DejaVu Sans. Accuracy rows: texels on the wrong side farther than 0.25 px from the outline, and mean and max distance error in px over the texels whose true distance is under 4 px (the coded range), all 94 glyphs. Chromium hints canvas text (its \'H\' is 23 px tall, the outline 23.33 px), which is part of tiny-sdf\'s error against the outline.',
  ].join('\n\n'),
});

// What compiling textures to KTX2 / Basis Universal changes, texture by texture, in one process:
// bytes on disk (the PNG, the RGBA8 rows the compiler wrote before, the KTX2 it writes now),
// bytes in GPU memory (RGBA8 with a mip chain, before; the BC formats a desktop GPU gets now, and
// ETC2 / ASTC as a phone would), compile time (decode only, before; decode and encode now), load
// time (transcoding to BC), and quality against the source (PSNR of level 0; for normal maps the
// mean angle too). With --gpu, load time on the GPU too: RGBA8 uploaded with its mips made on the
// GPU (before) against transcode and upload (now). --picture writes the worst texture as source |
// compressed | difference x8.
//   tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/textures.ts [project] [--limit N] [--gpu] [--picture out.png] [--json out.json]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodePng, encodePng } from '@cuttle/gui';
import { RenderScene } from '@cuttle/render';
import { DependencyGraph } from '@cuttle/tools-merge';
import { DEFAULT_DEPENDENCY_OPTIONS } from '../src/compiler/compile-project.ts';
import { scanProject } from '../src/compiler/project-scan.ts';
import { requestEngineDevice } from '../src/runtime/gpu.ts';
import { basisModule, TranscodeTarget } from '../src/textures/basis-module.ts';
import { encodeKtx2 } from '../src/textures/encode-ktx2.ts';
import { chainBytes, mipLevelCount } from '../src/textures/mip-chain.ts';
import { meanNormalAngle, psnrRgb } from '../src/textures/quality.ts';
import { textureUsages, usageOf, type TextureUsage } from '../src/textures/texture-usage.ts';
import { chooseTranscode, transcodeKtx2, type CompressionSupport } from '../src/textures/transcode-ktx2.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { limit: { type: 'string' }, gpu: { type: 'boolean' }, picture: { type: 'string' }, json: { type: 'string' } } });
const project = positionals[0] ?? join(import.meta.dirname, '..', 'sample');

const files = scanProject(project, (path) => !/\.(png|glb|ttf)$/.test(path));
const texts = new Map<string, string>();
for (const [path, file] of files) if (file.text !== '') texts.set(path, file.text);
const usages = textureUsages(DependencyGraph.build(texts, DEFAULT_DEPENDENCY_OPTIONS));
const pngs = [...files.keys()].filter((path) => path.endsWith('.png')).sort().slice(0, values.limit === undefined ? undefined : Number(values.limit));

const BC: CompressionSupport = { bc: true, etc2: false, astc: false };
const PHONE: CompressionSupport = { bc: false, etc2: true, astc: true };

interface Row {
  path: string;
  usage: TextureUsage;
  width: number;
  height: number;
  png: number;
  rgba: number;
  ktx2: number;
  gpuBefore: number;
  gpuBc: number;
  gpuPhone: number;
  decodeMs: number;
  encodeMs: number;
  transcodeMs: number;
  psnr: number;
  angle?: number;
}

const basis = await basisModule();
// Warm: the encoder's and the transcoder's first calls build their tables.
const warm = await encodeKtx2(new Uint8Array(8 * 8 * 4).fill(128), 8, 8, 'color');
transcodeKtx2(basis, warm, chooseTranscode(BC, 'color', false, 8, 8), { width: 8, height: 8, levels: 4 });
transcodeKtx2(basis, await encodeKtx2(new Uint8Array(8 * 8 * 4).fill(128), 8, 8, 'normal'), chooseTranscode(BC, 'normal', false, 8, 8), { width: 8, height: 8, levels: 4 });
const rows: Row[] = [];
let worst: { row: Row; source: Uint8Array; decoded: Uint8Array } | undefined;
/** Every RGBA texture decoded and encoded, for the GPU load below. */
const loaded: { usage: TextureUsage; width: number; height: number; rgba: Uint8Array<ArrayBuffer>; ktx2: Uint8Array }[] = [];
for (const path of pngs) {
  const bytes = files.get(path)!.bytes;
  let started = performance.now();
  const image = await decodePng(bytes);
  const decodeMs = performance.now() - started;
  if (image.channels !== 4) continue;
  const { width, height } = image;
  const usage: TextureUsage = usageOf(usages, path);
  started = performance.now();
  const ktx2 = await encodeKtx2(image.data, width, height, usage);
  const encodeMs = performance.now() - started;
  const levels = mipLevelCount(width, height);
  const expected = { width, height, levels };
  const bc = chooseTranscode(BC, usage, false, width, height);
  started = performance.now();
  transcodeKtx2(basis, ktx2, bc, expected);
  const transcodeMs = performance.now() - started;
  const decoded = transcodeKtx2(basis, ktx2, { target: TranscodeTarget.rgba32, format: 'rgba8unorm' }, expected).levels[0]!;
  const row: Row = {
    path, usage, width, height, png: bytes.length, rgba: width * height * 4, ktx2: ktx2.length,
    gpuBefore: chainBytes('rgba8unorm', width, height), gpuBc: chainBytes(bc.format, width, height), gpuPhone: chainBytes(chooseTranscode(PHONE, usage, false, width, height).format, width, height),
    decodeMs, encodeMs, transcodeMs, psnr: psnrRgb(decoded, image.data),
    ...(usage === 'normal' ? { angle: meanNormalAngle(decoded, image.data) } : {}),
  };
  rows.push(row);
  loaded.push({ usage, width, height, rgba: image.data as Uint8Array<ArrayBuffer>, ktx2 });
  if (!worst || row.psnr < worst.row.psnr) worst = { row, source: image.data, decoded };
}

const sum = (key: keyof Row, of = rows): number => of.reduce((total, row) => total + (row[key] as number), 0);
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;
const lines: string[] = [];
lines.push(`${rows.length} textures of ${project} (${rows.filter((r) => r.usage === 'normal').length} normal maps); ${new Date().toISOString().slice(0, 10)}`);
lines.push('');
lines.push('| | before | after | after / before |');
lines.push('| --- | --- | --- | --- |');
lines.push(`| on disk (PNG sources ${mb(sum('png'))}) | ${mb(sum('rgba'))} RGBA8 | ${mb(sum('ktx2'))} KTX2 | ${(sum('ktx2') / sum('rgba')).toFixed(3)} |`);
lines.push(`| GPU memory, BC (desktop) | ${mb(sum('gpuBefore'))} RGBA8 + mips | ${mb(sum('gpuBc'))} | ${(sum('gpuBc') / sum('gpuBefore')).toFixed(3)} |`);
lines.push(`| GPU memory, ETC2 / ASTC (phone) | ${mb(sum('gpuBefore'))} | ${mb(sum('gpuPhone'))} | ${(sum('gpuPhone') / sum('gpuBefore')).toFixed(3)} |`);
lines.push(`| compile, this thread | ${(sum('decodeMs') / 1000).toFixed(2)} s decode | ${((sum('decodeMs') + sum('encodeMs')) / 1000).toFixed(2)} s decode + encode | ${((sum('decodeMs') + sum('encodeMs')) / sum('decodeMs')).toFixed(1)}x |`);
lines.push(`| load: transcode to BC, this thread | | ${(sum('transcodeMs')).toFixed(0)} ms | |`);
for (const usage of ['color', 'normal', 'data'] as const) {
  const of = rows.filter((r) => r.usage === usage);
  if (of.length === 0) continue;
  const psnrs = of.map((r) => r.psnr).sort((a, b) => a - b);
  const angles = of.map((r) => r.angle ?? 0).sort((a, b) => a - b);
  lines.push(`| quality, ${usage} (${of.length}): PSNR level 0 min / median | | ${psnrs[0]!.toFixed(1)} / ${psnrs[psnrs.length >> 1]!.toFixed(1)} dB${usage === 'normal' ? `; mean angle median / max ${angles[angles.length >> 1]!.toFixed(2)} / ${angles[angles.length - 1]!.toFixed(2)} deg` : ''} | |`);
}

if (values.gpu) {
  const gpu = await requestEngineDevice();
  const support: CompressionSupport = { bc: gpu.device.features.has('texture-compression-bc'), etc2: gpu.device.features.has('texture-compression-etc2'), astc: gpu.device.features.has('texture-compression-astc') };
  const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
  for (let run = 0; run < 3; run++) {
    for (const kind of ['before', 'after'] as const) {
      const scene = new RenderScene(gpu.device);
      const started = performance.now();
      for (const { usage, width, height, rgba, ktx2 } of loaded) {
        if (kind === 'before') scene.addTexture({ width, height, data: rgba }, { srgb: usage === 'color', normalMap: usage === 'normal' });
        else scene.addCompressedTexture(transcodeKtx2(basis, ktx2, chooseTranscode(support, usage, false, width, height), { width, height, levels: mipLevelCount(width, height) }));
      }
      await gpu.device.queue.onSubmittedWorkDone();
      times[kind].push(performance.now() - started);
      scene.destroy();
    }
  }
  const fmt = (list: number[]): string => list.map((ms) => ms.toFixed(0)).join(' / ') + ' ms';
  lines.push(`| load on ${gpu.adapter}: upload + GPU mips (before) vs transcode + upload (after), 3 runs | ${fmt(times.before)} | ${fmt(times.after)} | |`);
}
console.log(lines.join('\n'));

if (values.picture && worst) {
  const { row, source, decoded } = worst;
  const { width, height } = row;
  const out = new Uint8Array(width * 3 * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      for (const [panel, pixel] of [[0, source], [1, decoded]] as const) out.set([pixel[from]!, pixel[from + 1]!, pixel[from + 2]!, 255], (y * width * 3 + panel * width + x) * 4);
      out.set([0, 1, 2].map((c) => Math.min(255, Math.abs(source[from + c]! - decoded[from + c]!) * 8)).concat(255), (y * width * 3 + 2 * width + x) * 4);
    }
  }
  writeFileSync(values.picture, await encodePng({ width: width * 3, height, channels: 4, data: out }));
  console.log(`worst: ${row.path} (${row.usage}, ${width}x${height}, PSNR ${row.psnr.toFixed(1)} dB) -> ${values.picture}`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1));

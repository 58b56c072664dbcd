// A small PNG codec: every colour type at bit depths 1-16 (16-bit keeps the high byte),
// non-interlaced, CRC-checked; writes 8-bit grey or RGBA. Decoded images are grey (1 channel)
// when the file is grey without alpha, else RGBA.
import type { GuiImage } from './api.ts';
import { nativeCrc32, zlibCompress, zlibDecompress } from './deflate.ts';
import { GuiError } from './errors.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (nativeCrc32) return nativeCrc32(bytes.subarray(start, end));
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function fail(offset: number, message: string): never {
  throw new GuiError(`PNG at byte offset ${offset}: ${message}`, { offset });
}

/** True when `bytes` starts with the 8-byte PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return SIGNATURE.every((b, i) => bytes[i] === b);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Each filter's loop is split where the left neighbour starts to exist, and the first row reads
// a row of zeros above it, so the per-byte loops carry no bounds branches.
function unfilter(raw: Uint8Array, height: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(height * stride);
  const zeros = new Uint8Array(stride);
  const lead = Math.min(bpp, stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const line = raw.subarray(src, src + stride);
    const cur = out.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? out.subarray((y - 1) * stride, y * stride) : zeros;
    switch (filter) {
      case 0: cur.set(line); break;
      case 1:
        for (let i = 0; i < lead; i++) cur[i] = line[i]!;
        for (let i = lead; i < stride; i++) cur[i] = line[i]! + cur[i - bpp]!;
        break;
      case 2: for (let i = 0; i < stride; i++) cur[i] = line[i]! + up[i]!; break;
      case 3:
        for (let i = 0; i < lead; i++) cur[i] = line[i]! + (up[i]! >> 1);
        for (let i = lead; i < stride; i++) cur[i] = line[i]! + ((cur[i - bpp]! + up[i]!) >> 1);
        break;
      case 4:
        // With no left neighbour Paeth picks the byte above.
        for (let i = 0; i < lead; i++) cur[i] = line[i]! + up[i]!;
        for (let i = lead; i < stride; i++) cur[i] = line[i]! + paeth(cur[i - bpp]!, up[i]!, up[i - bpp]!);
        break;
      default: throw new GuiError(`PNG: row ${y} has filter type ${filter}; only 0-4 exist (corrupt file).`);
    }
  }
  return out;
}

/** Decodes a PNG file. */
export async function decodePng(bytes: Uint8Array): Promise<GuiImage> {
  if (!isPng(bytes)) fail(0, 'no PNG signature.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = -1;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (at < bytes.length && !ended) {
    if (at + 12 > bytes.length) fail(at, 'truncated chunk header.');
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    const data = at + 8;
    if (data + length + 4 > bytes.length) fail(at, `chunk ${type} says ${length} bytes but the file ends first (truncated?).`);
    if (crc32(bytes, at + 4, data + length) !== view.getUint32(data + length)) fail(at, `chunk ${type} fails its CRC check (corrupt file).`);
    switch (type) {
      case 'IHDR':
        width = view.getUint32(data);
        height = view.getUint32(data + 4);
        depth = bytes[data + 8]!;
        colorType = bytes[data + 9]!;
        if (CHANNELS[colorType] === undefined) fail(data + 9, `colour type ${colorType} does not exist.`);
        if (![1, 2, 4, 8, 16].includes(depth)) fail(data + 8, `bit depth ${depth} does not exist.`);
        if (bytes[data + 12] !== 0) fail(data + 12, 'interlaced PNGs are not supported; save it without interlacing.');
        if (width === 0 || height === 0) fail(data, `image is ${width}x${height}.`);
        break;
      case 'PLTE': palette = bytes.subarray(data, data + length); break;
      case 'tRNS': transparency = bytes.subarray(data, data + length); break;
      case 'IDAT': idat.push(bytes.subarray(data, data + length)); break;
      case 'IEND': ended = true; break;
      default: break;
    }
    at = data + length + 4;
  }
  if (colorType < 0) fail(8, 'no IHDR chunk.');
  if (idat.length === 0) fail(at, 'no IDAT chunk (no image data).');
  if (colorType === 3 && !palette) fail(at, 'palette image without a PLTE chunk.');
  const compressed = new Uint8Array(idat.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of idat) {
    compressed.set(c, o);
    o += c.length;
  }
  const channels = CHANNELS[colorType]!;
  const bitsPerPixel = channels * depth;
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const raw = await zlibDecompress(compressed, 'PNG');
  if (raw.length < height * (stride + 1)) throw new GuiError(`PNG: image data holds ${raw.length} bytes, a ${width}x${height} image needs ${height * (stride + 1)} (truncated?).`);
  const pixels = unfilter(raw, height, stride, Math.max(1, bitsPerPixel >> 3));
  // 8-bit RGBA and grey are already laid out as decoded images are; RGB only needs its alpha.
  if (depth === 8 && colorType === 6) return { width, height, channels: 4, data: pixels };
  if (depth === 8 && colorType === 0 && !transparency) return { width, height, channels: 1, data: pixels };
  if (depth === 8 && colorType === 2 && !transparency) {
    const rgba = new Uint8Array(width * height * 4);
    for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) {
      rgba[p] = pixels[q]!;
      rgba[p + 1] = pixels[q + 1]!;
      rgba[p + 2] = pixels[q + 2]!;
      rgba[p + 3] = 255;
    }
    return { width, height, channels: 4, data: rgba };
  }
  const sample = (row: number, index: number): number => {
    if (depth === 8) return pixels[row + index]!;
    if (depth === 16) return pixels[row + index * 2]!;
    const bit = index * depth;
    return (pixels[row + (bit >> 3)]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  };
  const greyOnly = colorType === 0 && !transparency;
  const out = new Uint8Array(width * height * (greyOnly ? 1 : 4));
  const scale = depth < 8 && colorType !== 3 ? 255 / ((1 << depth) - 1) : 1;
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (greyOnly) {
        out[p] = sample(row, x) * scale;
        continue;
      }
      let r: number;
      let g: number;
      let b: number;
      let a = 255;
      if (colorType === 3) {
        const index = sample(row, x);
        r = palette![index * 3] ?? 0;
        g = palette![index * 3 + 1] ?? 0;
        b = palette![index * 3 + 2] ?? 0;
        a = transparency?.[index] ?? 255;
      } else if (colorType === 0 || colorType === 4) {
        const v = sample(row, x * (colorType === 4 ? 2 : 1));
        r = g = b = v * scale;
        if (colorType === 4) a = sample(row, x * 2 + 1);
        else if (transparency && v === (((transparency[0]! << 8) | transparency[1]!) >> (depth === 16 ? 8 : 0))) a = 0;
      } else {
        r = sample(row, x * channels);
        g = sample(row, x * channels + 1);
        b = sample(row, x * channels + 2);
        if (colorType === 6) a = sample(row, x * 4 + 3);
      }
      out[p * 4] = r;
      out[p * 4 + 1] = g;
      out[p * 4 + 2] = b;
      out[p * 4 + 3] = a;
    }
  }
  return { width, height, channels: greyOnly ? 1 : 4, data: out };
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** Encodes an 8-bit grey (1 channel) or RGBA (4 channels) PNG; rows use the Up filter. */
export async function encodePng(image: GuiImage): Promise<Uint8Array> {
  const { width, height, channels, data } = image;
  if (data.length !== width * height * channels) throw new GuiError(`encodePng: data holds ${data.length} bytes, a ${width}x${height}x${channels} image needs ${width * height * channels}.`);
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const dst = y * (stride + 1);
    raw[dst] = y === 0 ? 0 : 2;
    const row = y * stride;
    if (y === 0) raw.set(data.subarray(0, stride), dst + 1);
    else for (let i = 0; i < stride; i++) raw[dst + 1 + i] = data[row + i]! - data[row - stride + i]!;
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header[8] = 8;
  header[9] = channels === 1 ? 0 : 6;
  const parts = [new Uint8Array(SIGNATURE), chunk('IHDR', header), chunk('IDAT', await zlibCompress(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

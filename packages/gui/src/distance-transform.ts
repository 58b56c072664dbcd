// Exact Euclidean distance transform after Felzenszwalb and Huttenlocher ("Distance
// Transforms of Sampled Functions"), separable: a column pass finds, for every column, the
// vertical distance to the nearest feature pixel; a row pass takes the lower envelope of the
// parabolas (x - q)^2 + column(q)^2. The envelope can be evaluated at any real x, and the
// column pass at any real y, so a downscaled distance field is computed exactly at the
// low-resolution sample points without a full-resolution distance image in between.
//
// Distances run between pixel centres (pixel i has its centre at i). Both sets, the pixels at
// or above the threshold ("inside") and those below ("outside"), are done in the same sweeps.
import type { GuiImage } from './api.ts';
import { GuiError } from './errors.ts';

const FAR = 1e30;

/** Options of the distance transform: sampling scale and inside threshold. */
export interface DistanceFieldOptions {
  /** Downscale factor: output pixel (i, j) samples the input at ((i + 0.5) * scale - 0.5, ...). Default 1. */
  scale?: number;
  /** Coverage value at or above which an input pixel is inside (default 128). */
  threshold?: number;
}

function checkMask(mask: Uint8Array, width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new GuiError(`distance transform: size must be positive integers, got ${width}x${height}.`);
  if (mask.length < width * height) throw new GuiError(`distance transform: the mask holds ${mask.length} bytes, a ${width}x${height} image needs ${width * height}.`);
}

function samplePositions(count: number, scale: number): Float64Array {
  const positions = new Float64Array(count);
  for (let i = 0; i < count; i++) positions[i] = (i + 0.5) * scale - 0.5;
  return positions;
}

/**
 * Column pass: for each sample row and column, the vertical distance (not squared) from the
 * sample point to the nearest inside and outside pixel of that column (FAR if none).
 */
function columnPass(mask: Uint8Array, width: number, height: number, threshold: number, rows: Float64Array, columnIn: Float32Array, columnOut: Float32Array): void {
  const lastIn = new Int32Array(width).fill(-1);
  const lastOut = new Int32Array(width).fill(-1);
  let s = 0;
  const sampleCount = rows.length;
  for (let r = 0; r < height && s < sampleCount; r++) {
    const row = r * width;
    for (let x = 0; x < width; x++) {
      if (mask[row + x]! >= threshold) lastIn[x] = r;
      else lastOut[x] = r;
    }
    while (s < sampleCount && Math.floor(rows[s]!) === r) {
      const y = rows[s]!;
      const out = s * width;
      for (let x = 0; x < width; x++) {
        const i = lastIn[x]!;
        const o = lastOut[x]!;
        columnIn[out + x] = i < 0 ? FAR : y - i;
        columnOut[out + x] = o < 0 ? FAR : y - o;
      }
      s++;
    }
  }
  const nextIn = lastIn.fill(-1);
  const nextOut = lastOut.fill(-1);
  s = sampleCount - 1;
  for (let r = height - 1; r >= 0 && s >= 0; r--) {
    const row = r * width;
    for (let x = 0; x < width; x++) {
      if (mask[row + x]! >= threshold) nextIn[x] = r;
      else nextOut[x] = r;
    }
    while (s >= 0 && Math.ceil(rows[s]!) === r) {
      const y = rows[s]!;
      const out = s * width;
      for (let x = 0; x < width; x++) {
        const i = nextIn[x]!;
        const o = nextOut[x]!;
        if (i >= 0 && i - y < columnIn[out + x]!) columnIn[out + x] = i - y;
        if (o >= 0 && o - y < columnOut[out + x]!) columnOut[out + x] = o - y;
      }
      s--;
    }
  }
}

/** Scratch for the row pass, sized once per image. */
interface Envelope {
  f: Float64Array;
  v: Int32Array;
  z: Float64Array;
}

/** Row pass: squared distances at the sample columns, from one row of column distances. */
function rowPass(column: Float32Array, offset: number, width: number, columns: Float64Array, out: Float64Array, outOffset: number, e: Envelope): void {
  const { f, v, z } = e;
  let k = -1;
  for (let q = 0; q < width; q++) {
    const c = column[offset + q]!;
    if (c >= FAR) continue;
    const fq = c * c;
    f[q] = fq;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    let p = v[k]!;
    let s = (fq + q * q - (f[p]! + p * p)) / (2 * (q - p));
    while (s <= z[k]!) {
      k--;
      p = v[k]!;
      s = (fq + q * q - (f[p]! + p * p)) / (2 * (q - p));
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  const n = columns.length;
  if (k < 0) {
    out.fill(Infinity, outOffset, outOffset + n);
    return;
  }
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = columns[i]!;
    while (z[j + 1]! < x) j++;
    const p = v[j]!;
    out[outOffset + i] = (x - p) * (x - p) + f[p]!;
  }
}

/**
 * Squared distances from each sample point to the nearest inside pixel and to the nearest
 * outside pixel (Infinity where the set is empty).
 */
function sampledSquaredDistances(mask: Uint8Array, width: number, height: number, options: DistanceFieldOptions): { width: number; height: number; inside: Float64Array; outside: Float64Array } {
  checkMask(mask, width, height);
  const scale = options.scale ?? 1;
  const threshold = options.threshold ?? 128;
  if (!(scale >= 1) || !Number.isFinite(scale)) throw new GuiError(`distance transform: scale must be a number >= 1, got ${scale}.`);
  const outWidth = Math.max(1, Math.floor(width / scale));
  const outHeight = Math.max(1, Math.floor(height / scale));
  const rows = samplePositions(outHeight, scale);
  const columns = samplePositions(outWidth, scale);
  const columnIn = new Float32Array(outHeight * width);
  const columnOut = new Float32Array(outHeight * width);
  columnPass(mask, width, height, threshold, rows, columnIn, columnOut);
  const envelope: Envelope = { f: new Float64Array(width), v: new Int32Array(width), z: new Float64Array(width + 1) };
  const inside = new Float64Array(outWidth * outHeight);
  const outside = new Float64Array(outWidth * outHeight);
  for (let s = 0; s < outHeight; s++) {
    rowPass(columnIn, s * width, width, columns, inside, s * outWidth, envelope);
    rowPass(columnOut, s * width, width, columns, outside, s * outWidth, envelope);
  }
  return { width: outWidth, height: outHeight, inside, outside };
}

/**
 * Exact Euclidean distance from every pixel centre to the nearest pixel whose value is at
 * least `threshold` (0 on those pixels, Infinity if there is none).
 */
export function distanceTransform(mask: Uint8Array, width: number, height: number, threshold = 128): Float32Array {
  const { inside } = sampledSquaredDistances(mask, width, height, { threshold });
  const out = new Float32Array(inside.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.sqrt(inside[i]!);
  return out;
}

/**
 * Signed distance to the glyph edge in output pixels (positive inside), sampled at the
 * downscaled pixel centres. The edge lies half a pixel beyond the last inside pixel centre.
 */
export function signedDistances(mask: Uint8Array, width: number, height: number, options: DistanceFieldOptions = {}): { width: number; height: number; data: Float32Array } {
  const { width: w, height: h, inside, outside } = sampledSquaredDistances(mask, width, height, options);
  const scale = options.scale ?? 1;
  const data = new Float32Array(w * h);
  const limit = (width + height) / scale;
  for (let i = 0; i < data.length; i++) {
    const dIn = Math.sqrt(inside[i]!);
    const dOut = Math.sqrt(outside[i]!);
    const d = dIn < dOut ? dOut - 0.5 : 0.5 - dIn;
    data[i] = Math.max(-limit, Math.min(limit, d / scale));
  }
  return { width: w, height: h, data };
}

/**
 * Valve's distance-field image: 8 bits per pixel, 128 on the edge, 255 at `spread` output
 * pixels inside and 0 at `spread` pixels outside.
 */
export function distanceFieldImage(mask: Uint8Array, width: number, height: number, options: DistanceFieldOptions & { spread: number }): GuiImage {
  if (!(options.spread > 0)) throw new GuiError(`distance field: spread must be a positive number of output pixels, got ${options.spread}.`);
  const { width: w, height: h, inside, outside } = sampledSquaredDistances(mask, width, height, options);
  const toOutput = 1 / (options.scale ?? 1);
  const gain = 127.5 / options.spread;
  const data = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) {
    const dIn = Math.sqrt(inside[i]!);
    const dOut = Math.sqrt(outside[i]!);
    const d = (dIn < dOut ? dOut - 0.5 : 0.5 - dIn) * toOutput;
    const value = 127.5 + d * gain;
    data[i] = value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value);
  }
  return { width: w, height: h, channels: 1, data };
}

// Small column-major 4x4 matrix helpers in float64 for the host side (camera setup, tile grid,
// entity boxes). Column-major: element (row r, column c) is m[c * 4 + r].
import type { Mat4 } from './api.ts';

export function multiply(a: Mat4, b: Mat4, out = new Float64Array(16)): Float64Array {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
    }
  }
  return out;
}

/** The inverse of `m`, or undefined when it is singular (or not finite). */
export function invert(m: Mat4): Float64Array | undefined {
  const out = new Float64Array(16);
  // aCR: column C, row R.
  const a00 = m[0]!, a01 = m[1]!, a02 = m[2]!, a03 = m[3]!;
  const a10 = m[4]!, a11 = m[5]!, a12 = m[6]!, a13 = m[7]!;
  const a20 = m[8]!, a21 = m[9]!, a22 = m[10]!, a23 = m[11]!;
  const a30 = m[12]!, a31 = m[13]!, a32 = m[14]!, a33 = m[15]!;
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (!Number.isFinite(det) || det === 0) return undefined;
  const s = 1 / det;
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * s;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * s;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * s;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * s;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * s;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * s;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * s;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * s;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * s;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * s;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * s;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * s;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * s;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * s;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * s;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * s;
  return out;
}

/** m * (x, y, z, w) as [x, y, z, w]. */
export function transform4(m: Mat4, x: number, y: number, z: number, w: number): [number, number, number, number] {
  return [
    m[0]! * x + m[4]! * y + m[8]! * z + m[12]! * w,
    m[1]! * x + m[5]! * y + m[9]! * z + m[13]! * w,
    m[2]! * x + m[6]! * y + m[10]! * z + m[14]! * w,
    m[3]! * x + m[7]! * y + m[11]! * z + m[15]! * w,
  ];
}

/** m * (x, y, z, 1) divided by w. */
export function transformPoint(m: Mat4, x: number, y: number, z: number): [number, number, number] {
  const [px, py, pz, pw] = transform4(m, x, y, z, 1);
  return [px / pw, py / pw, pz / pw];
}

export function allFinite(values: ArrayLike<number>, count = values.length): boolean {
  for (let i = 0; i < count; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

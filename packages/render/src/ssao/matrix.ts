// The few float64 4x4 operations the passes need on the host. Column-major: m[column * 4 + row].
import type { Mat4 } from '../api.ts';

/** The 4x4 identity. */
export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function allFinite(values: Mat4): boolean {
  if (values.length < 16) return false;
  for (let i = 0; i < 16; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

/** The inverse by Gauss-Jordan elimination with partial pivoting, or undefined when singular. */
export function invert4(m: Mat4): Float64Array | undefined {
  // Rows of [m | I], row-major in a scratch array: a[r * 8 + c].
  const a = new Float64Array(32);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) a[r * 8 + c] = m[c * 4 + r]!;
    a[r * 8 + 4 + r] = 1;
  }
  let scale = 0;
  for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(m[i]!));
  if (!(scale > 0) || !Number.isFinite(scale)) return undefined;
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(a[r * 8 + col]!) > Math.abs(a[pivot * 8 + col]!)) pivot = r;
    const p = a[pivot * 8 + col]!;
    if (Math.abs(p) <= scale * 1e-12) return undefined;
    if (pivot !== col) {
      for (let c = 0; c < 8; c++) {
        const t = a[col * 8 + c]!;
        a[col * 8 + c] = a[pivot * 8 + c]!;
        a[pivot * 8 + c] = t;
      }
    }
    for (let c = 0; c < 8; c++) a[col * 8 + c]! /= p;
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = a[r * 8 + col]!;
      if (f === 0) continue;
      for (let c = 0; c < 8; c++) a[r * 8 + c]! -= f * a[col * 8 + c]!;
    }
  }
  const out = new Float64Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) out[c * 4 + r] = a[r * 8 + 4 + c]!;
  return out;
}

/** m * (x, y, z, w), written into `out` (x, y, z, w). */
export function transform4(m: Mat4, x: number, y: number, z: number, w: number, out: Float64Array): Float64Array {
  out[0] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]! * w;
  out[1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]! * w;
  out[2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]! * w;
  out[3] = m[3]! * x + m[7]! * y + m[11]! * z + m[15]! * w;
  return out;
}

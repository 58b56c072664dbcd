// The little matrix and quaternion math the sampler needs, over flat arrays with offsets
// (column-major 4x4 matrices as glTF stores them; quaternions x, y, z, w).

type Floats = Float32Array | Float64Array;

/** Writes the column-major matrix T * R * S at `out[o..o + 16]`. */
export function composeMatrix(t: Floats, ti: number, r: Floats, ri: number, s: Floats, si: number, out: Floats, o: number): void {
  const x = r[ri]!, y = r[ri + 1]!, z = r[ri + 2]!, w = r[ri + 3]!;
  const sx = s[si]!, sy = s[si + 1]!, sz = s[si + 2]!;
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[o] = (1 - 2 * (yy + zz)) * sx;
  out[o + 1] = 2 * (xy + wz) * sx;
  out[o + 2] = 2 * (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = 2 * (xy - wz) * sy;
  out[o + 5] = (1 - 2 * (xx + zz)) * sy;
  out[o + 6] = 2 * (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = 2 * (xz + wy) * sz;
  out[o + 9] = 2 * (yz - wx) * sz;
  out[o + 10] = (1 - 2 * (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = t[ti]!;
  out[o + 13] = t[ti + 1]!;
  out[o + 14] = t[ti + 2]!;
  out[o + 15] = 1;
}

/** out[oo..] = a[ao..] * b[bo..] (column-major 4x4); out must not overlap a or b. */
export function multiplyMatrices(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Floats, oo: number): void {
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + c * 4]!, b1 = b[bo + c * 4 + 1]!, b2 = b[bo + c * 4 + 2]!, b3 = b[bo + c * 4 + 3]!;
    for (let r = 0; r < 4; r++) {
      out[oo + c * 4 + r] = a[ao + r]! * b0 + a[ao + 4 + r]! * b1 + a[ao + 8 + r]! * b2 + a[ao + 12 + r]! * b3;
    }
  }
}

/** Spherical interpolation from quaternion a to b along the shorter arc, written normalized to out. */
export function slerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, t: number, out: Floats, o: number): void {
  const ax = a[ai]!, ay = a[ai + 1]!, az = a[ai + 2]!, aw = a[ai + 3]!;
  let bx = b[bi]!, by = b[bi + 1]!, bz = b[bi + 2]!, bw = b[bi + 3]!;
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) { cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw; }
  let wa: number, wb: number;
  if (cos > 0.9995) {
    // Nearly parallel: sin(theta) is too small to divide by; a normalized lerp is as exact.
    wa = 1 - t;
    wb = t;
  } else {
    const theta = Math.acos(cos);
    const sin = Math.sin(theta);
    wa = Math.sin((1 - t) * theta) / sin;
    wb = Math.sin(t * theta) / sin;
  }
  writeNormalizedQuaternion(wa * ax + wb * bx, wa * ay + wb * by, wa * az + wb * bz, wa * aw + wb * bw, out, o);
}

export function writeNormalizedQuaternion(x: number, y: number, z: number, w: number, out: Floats, o: number): void {
  const length = Math.hypot(x, y, z, w);
  out[o] = x / length;
  out[o + 1] = y / length;
  out[o + 2] = z / length;
  out[o + 3] = w / length;
}

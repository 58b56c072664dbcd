// Column-major 4x4 matrices stored at an offset in a flat array (the WebGPU convention):
// element (row r, column c) sits at o + 4c + r, and points transform as column vectors.

type Floats = Float32Array | Float64Array;

/** Writes the matrix that scales, then rotates (unit quaternion), then translates. */
export function composeMatrix(out: Floats, o: number, p: Floats, po: number, q: Floats, qo: number, s: Floats, so: number): void {
  const x = q[qo]!;
  const y = q[qo + 1]!;
  const z = q[qo + 2]!;
  const w = q[qo + 3]!;
  const sx = s[so]!;
  const sy = s[so + 1]!;
  const sz = s[so + 2]!;
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = p[po]!;
  out[o + 13] = p[po + 1]!;
  out[o + 14] = p[po + 2]!;
  out[o + 15] = 1;
}

/** out = a * b. `out` may alias `a` or `b`: all of `a` and `b` is read first. */
export function multiplyMatrices(out: Floats, o: number, a: Floats, ao: number, b: Floats, bo: number): void {
  const a00 = a[ao]!, a10 = a[ao + 1]!, a20 = a[ao + 2]!, a30 = a[ao + 3]!;
  const a01 = a[ao + 4]!, a11 = a[ao + 5]!, a21 = a[ao + 6]!, a31 = a[ao + 7]!;
  const a02 = a[ao + 8]!, a12 = a[ao + 9]!, a22 = a[ao + 10]!, a32 = a[ao + 11]!;
  const a03 = a[ao + 12]!, a13 = a[ao + 13]!, a23 = a[ao + 14]!, a33 = a[ao + 15]!;
  const b00 = b[bo]!, b10 = b[bo + 1]!, b20 = b[bo + 2]!, b30 = b[bo + 3]!;
  const b01 = b[bo + 4]!, b11 = b[bo + 5]!, b21 = b[bo + 6]!, b31 = b[bo + 7]!;
  const b02 = b[bo + 8]!, b12 = b[bo + 9]!, b22 = b[bo + 10]!, b32 = b[bo + 11]!;
  const b03 = b[bo + 12]!, b13 = b[bo + 13]!, b23 = b[bo + 14]!, b33 = b[bo + 15]!;
  out[o] = a00 * b00 + a01 * b10 + a02 * b20 + a03 * b30;
  out[o + 1] = a10 * b00 + a11 * b10 + a12 * b20 + a13 * b30;
  out[o + 2] = a20 * b00 + a21 * b10 + a22 * b20 + a23 * b30;
  out[o + 3] = a30 * b00 + a31 * b10 + a32 * b20 + a33 * b30;
  out[o + 4] = a00 * b01 + a01 * b11 + a02 * b21 + a03 * b31;
  out[o + 5] = a10 * b01 + a11 * b11 + a12 * b21 + a13 * b31;
  out[o + 6] = a20 * b01 + a21 * b11 + a22 * b21 + a23 * b31;
  out[o + 7] = a30 * b01 + a31 * b11 + a32 * b21 + a33 * b31;
  out[o + 8] = a00 * b02 + a01 * b12 + a02 * b22 + a03 * b32;
  out[o + 9] = a10 * b02 + a11 * b12 + a12 * b22 + a13 * b32;
  out[o + 10] = a20 * b02 + a21 * b12 + a22 * b22 + a23 * b32;
  out[o + 11] = a30 * b02 + a31 * b12 + a32 * b22 + a33 * b32;
  out[o + 12] = a00 * b03 + a01 * b13 + a02 * b23 + a03 * b33;
  out[o + 13] = a10 * b03 + a11 * b13 + a12 * b23 + a13 * b33;
  out[o + 14] = a20 * b03 + a21 * b13 + a22 * b23 + a23 * b33;
  out[o + 15] = a30 * b03 + a31 * b13 + a32 * b23 + a33 * b33;
}

/** out = inverse(a); writes the identity and returns false when `a` is singular. */
export function invertMatrix(out: Floats, o: number, a: Floats, ao: number): boolean {
  const m00 = a[ao]!, m01 = a[ao + 1]!, m02 = a[ao + 2]!, m03 = a[ao + 3]!;
  const m10 = a[ao + 4]!, m11 = a[ao + 5]!, m12 = a[ao + 6]!, m13 = a[ao + 7]!;
  const m20 = a[ao + 8]!, m21 = a[ao + 9]!, m22 = a[ao + 10]!, m23 = a[ao + 11]!;
  const m30 = a[ao + 12]!, m31 = a[ao + 13]!, m32 = a[ao + 14]!, m33 = a[ao + 15]!;
  // 2x2 sub-determinants of the top two and bottom two rows (Laplace expansion).
  const s0 = m00 * m11 - m01 * m10;
  const s1 = m00 * m12 - m02 * m10;
  const s2 = m00 * m13 - m03 * m10;
  const s3 = m01 * m12 - m02 * m11;
  const s4 = m01 * m13 - m03 * m11;
  const s5 = m02 * m13 - m03 * m12;
  const c5 = m22 * m33 - m23 * m32;
  const c4 = m21 * m33 - m23 * m31;
  const c3 = m21 * m32 - m22 * m31;
  const c2 = m20 * m33 - m23 * m30;
  const c1 = m20 * m32 - m22 * m30;
  const c0 = m20 * m31 - m21 * m30;
  const det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
  if (det === 0 || !Number.isFinite(det)) {
    identity(out, o);
    return false;
  }
  const inv = 1 / det;
  out[o] = (m11 * c5 - m12 * c4 + m13 * c3) * inv;
  out[o + 1] = (-m01 * c5 + m02 * c4 - m03 * c3) * inv;
  out[o + 2] = (m31 * s5 - m32 * s4 + m33 * s3) * inv;
  out[o + 3] = (-m21 * s5 + m22 * s4 - m23 * s3) * inv;
  out[o + 4] = (-m10 * c5 + m12 * c2 - m13 * c1) * inv;
  out[o + 5] = (m00 * c5 - m02 * c2 + m03 * c1) * inv;
  out[o + 6] = (-m30 * s5 + m32 * s2 - m33 * s1) * inv;
  out[o + 7] = (m20 * s5 - m22 * s2 + m23 * s1) * inv;
  out[o + 8] = (m10 * c4 - m11 * c2 + m13 * c0) * inv;
  out[o + 9] = (-m00 * c4 + m01 * c2 - m03 * c0) * inv;
  out[o + 10] = (m30 * s4 - m31 * s2 + m33 * s0) * inv;
  out[o + 11] = (-m20 * s4 + m21 * s2 - m23 * s0) * inv;
  out[o + 12] = (-m10 * c3 + m11 * c1 - m12 * c0) * inv;
  out[o + 13] = (m00 * c3 - m01 * c1 + m02 * c0) * inv;
  out[o + 14] = (-m30 * s3 + m31 * s1 - m32 * s0) * inv;
  out[o + 15] = (m20 * s3 - m21 * s1 + m22 * s0) * inv;
  return true;
}

export function identity(out: Floats, o: number): void {
  for (let k = 0; k < 16; k++) out[o + k] = k % 5 === 0 ? 1 : 0;
}

/**
 * Splits an affine matrix into translation, unit quaternion and scale (the post's
 * ApplyTransform). A mirrored matrix gets a negative x scale.
 */
export function decomposeMatrix(m: Floats, mo: number, p: Floats, po: number, q: Floats, qo: number, s: Floats, so: number): void {
  p[po] = m[mo + 12]!;
  p[po + 1] = m[mo + 13]!;
  p[po + 2] = m[mo + 14]!;
  let sx = Math.hypot(m[mo]!, m[mo + 1]!, m[mo + 2]!);
  const sy = Math.hypot(m[mo + 4]!, m[mo + 5]!, m[mo + 6]!);
  const sz = Math.hypot(m[mo + 8]!, m[mo + 9]!, m[mo + 10]!);
  const det =
    m[mo]! * (m[mo + 5]! * m[mo + 10]! - m[mo + 6]! * m[mo + 9]!) -
    m[mo + 4]! * (m[mo + 1]! * m[mo + 10]! - m[mo + 2]! * m[mo + 9]!) +
    m[mo + 8]! * (m[mo + 1]! * m[mo + 6]! - m[mo + 2]! * m[mo + 5]!);
  if (det < 0) sx = -sx;
  s[so] = sx;
  s[so + 1] = sy;
  s[so + 2] = sz;
  const ix = sx === 0 ? 0 : 1 / sx;
  const iy = sy === 0 ? 0 : 1 / sy;
  const iz = sz === 0 ? 0 : 1 / sz;
  const r00 = m[mo]! * ix, r10 = m[mo + 1]! * ix, r20 = m[mo + 2]! * ix;
  const r01 = m[mo + 4]! * iy, r11 = m[mo + 5]! * iy, r21 = m[mo + 6]! * iy;
  const r02 = m[mo + 8]! * iz, r12 = m[mo + 9]! * iz, r22 = m[mo + 10]! * iz;
  // Shepperd: divide by the largest of the four candidates for stability.
  const trace = r00 + r11 + r22;
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const t = Math.sqrt(trace + 1) * 2;
    w = 0.25 * t;
    x = (r21 - r12) / t;
    y = (r02 - r20) / t;
    z = (r10 - r01) / t;
  } else if (r00 > r11 && r00 > r22) {
    const t = Math.sqrt(1 + r00 - r11 - r22) * 2;
    w = (r21 - r12) / t;
    x = 0.25 * t;
    y = (r01 + r10) / t;
    z = (r02 + r20) / t;
  } else if (r11 > r22) {
    const t = Math.sqrt(1 + r11 - r00 - r22) * 2;
    w = (r02 - r20) / t;
    x = (r01 + r10) / t;
    y = 0.25 * t;
    z = (r12 + r21) / t;
  } else {
    const t = Math.sqrt(1 + r22 - r00 - r11) * 2;
    w = (r10 - r01) / t;
    x = (r02 + r20) / t;
    y = (r12 + r21) / t;
    z = 0.25 * t;
  }
  const n = Math.hypot(x, y, z, w) || 1;
  q[qo] = x / n;
  q[qo + 1] = y / n;
  q[qo + 2] = z / n;
  q[qo + 3] = w / n;
}

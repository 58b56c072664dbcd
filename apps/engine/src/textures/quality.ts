// How close a decoded texture is to its source, as the benchmark and the tests report it.

/** PSNR in dB over the R, G and B bytes of two RGBA8 images of one size (alpha is left out); Infinity when equal. */
export function psnrRgb(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError(`images differ in size: ${a.length} and ${b.length} bytes`);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += (a[i + c]! - b[i + c]!) ** 2;
    count += 3;
  }
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / count));
}

/** Mean angle in degrees between the normals two RGBA8 normal maps encode (xyz = rgb / 127.5 - 1). */
export function meanNormalAngle(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError(`images differ in size: ${a.length} and ${b.length} bytes`);
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) {
    const [ax, ay, az] = [a[i]! / 127.5 - 1, a[i + 1]! / 127.5 - 1, a[i + 2]! / 127.5 - 1];
    const [bx, by, bz] = [b[i]! / 127.5 - 1, b[i + 1]! / 127.5 - 1, b[i + 2]! / 127.5 - 1];
    const cos = (ax * bx + ay * by + az * bz) / (Math.hypot(ax, ay, az) * Math.hypot(bx, by, bz) || 1);
    sum += Math.acos(Math.min(1, Math.max(-1, cos)));
  }
  return ((sum / (a.length / 4)) * 180) / Math.PI;
}

/** PSNR in dB of one channel (0 R, 1 G, 2 B, 3 A) of two RGBA8 images of one size; Infinity when equal. */
export function psnrChannel(a: Uint8Array, b: Uint8Array, channel: 0 | 1 | 2 | 3): number {
  if (a.length !== b.length) throw new RangeError(`images differ in size: ${a.length} and ${b.length} bytes`);
  let sum = 0;
  for (let i = channel; i < a.length; i += 4) sum += (a[i]! - b[i]!) ** 2;
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / (a.length / 4)));
}

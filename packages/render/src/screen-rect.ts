// Where a world-space box lands on screen: the scissor of the fluid's depth write.

/** A pixel rectangle [x, y, width, height]; the whole target where the box reaches behind the camera. */
export type PixelRect = [number, number, number, number];

/**
 * The pixels a box (min, max, grown by `margin` on every side) can cover under `clipFromWorld`
 * (column-major), clamped to a `width` x `height` target; the whole target when a corner lies
 * on or behind the camera plane, and [0, 0, 0, 0] when the box is off screen.
 */
export function screenRect(clipFromWorld: ArrayLike<number>, min: readonly number[], max: readonly number[], margin: number, width: number, height: number): PixelRect {
  const m = clipFromWorld;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let corner = 0; corner < 8; corner++) {
    const x = corner & 1 ? max[0]! + margin : min[0]! - margin;
    const y = corner & 2 ? max[1]! + margin : min[1]! - margin;
    const z = corner & 4 ? max[2]! + margin : min[2]! - margin;
    const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    if (!(w > 1e-6)) return [0, 0, width, height];
    const px = ((m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w * 0.5 + 0.5) * width;
    const py = (0.5 - (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w * 0.5) * height;
    x0 = Math.min(x0, px); x1 = Math.max(x1, px);
    y0 = Math.min(y0, py); y1 = Math.max(y1, py);
  }
  const left = Math.max(0, Math.min(width, Math.floor(x0)));
  const top = Math.max(0, Math.min(height, Math.floor(y0)));
  const right = Math.max(left, Math.min(width, Math.ceil(x1)));
  const bottom = Math.max(top, Math.min(height, Math.ceil(y1)));
  return [left, top, right - left, bottom - top];
}

/** The smallest rectangle holding both. */
export function unionRect(a: PixelRect, b: PixelRect): PixelRect {
  if (a[2] === 0 || a[3] === 0) return b;
  if (b[2] === 0 || b[3] === 0) return a;
  const left = Math.min(a[0], b[0]), top = Math.min(a[1], b[1]);
  return [left, top, Math.max(a[0] + a[2], b[0] + b[2]) - left, Math.max(a[1] + a[3], b[1] + b[3]) - top];
}

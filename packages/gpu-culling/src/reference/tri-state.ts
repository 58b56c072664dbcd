// Three-valued comparisons for the reference. The GPU computes in f32 (and may fuse
// multiply-adds); the reference computes in f64. A decision whose margin is within `tolerance`
// times the magnitude of its inputs could go either way on the GPU, so it is BORDERLINE rather
// than true or false. With tolerance 0 every decision is plain f64.

export const FALSE = 0;
export const BORDERLINE = 1;
export const TRUE = 2;
export type Tri = typeof FALSE | typeof BORDERLINE | typeof TRUE;

/** a >= b, give or take `slack`. */
export function atLeast(a: number, b: number, slack: number): Tri {
  const margin = a - b;
  if (margin > slack) return TRUE;
  if (margin < -slack) return FALSE;
  return slack === 0 ? (margin >= 0 ? TRUE : FALSE) : BORDERLINE;
}

/** a <= b, give or take `slack`. */
export function atMost(a: number, b: number, slack: number): Tri {
  return atLeast(b, a, slack);
}

export function and(a: Tri, b: Tri): Tri {
  return a < b ? a : b;
}

/** floor(x) clamped to [lo, hi], as the range of values the GPU may compute: [certain-low, certain-high] collapses when x is clear of integers. */
export function floorRange(x: number, slack: number, lo: number, hi: number): [number, number] {
  const clamp = (v: number): number => Math.min(hi, Math.max(lo, v));
  return [clamp(Math.floor(x - slack)), clamp(Math.floor(x + slack))];
}

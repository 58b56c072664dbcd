// The hemisphere the SSAO pass samples, identical on the GPU and in the reference: `count`
// points around +z (the normal), cosine-distributed in direction so that grazing directions,
// which a flat surface's own depth quantisation would occlude, are rare, and denser near the
// centre than at the radius so that nearby geometry weighs more.

/** Radical inverse in base 2: 0.5, 0.25, 0.75, ... spreads any prefix of the sequence evenly. */
function radicalInverse(i: number): number {
  let bits = i >>> 0;
  bits = ((bits << 16) | (bits >>> 16)) >>> 0;
  bits = (((bits & 0x55555555) << 1) | ((bits & 0xaaaaaaaa) >>> 1)) >>> 0;
  bits = (((bits & 0x33333333) << 2) | ((bits & 0xcccccccc) >>> 2)) >>> 0;
  bits = (((bits & 0x0f0f0f0f) << 4) | ((bits & 0xf0f0f0f0) >>> 4)) >>> 0;
  bits = (((bits & 0x00ff00ff) << 8) | ((bits & 0xff00ff00) >>> 8)) >>> 0;
  return bits / 4294967296;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;
/** Highest sin(elevation): directions stay at least ~13 degrees above the tangent plane. */
const MAX_SPREAD = 0.95;

/** `count` kernel points as xyzw (w = 0), float32 as the GPU gets them. */
export function hemisphereKernel(count: number): Float32Array {
  const out = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const spread = radicalInverse(i + 1) * MAX_SPREAD;
    const r = Math.sqrt(spread);
    const phi = 2 * Math.PI * ((i * GOLDEN) % 1);
    const t = (i + 0.5) / count;
    const length = 0.15 + 0.85 * t * t;
    out[i * 4] = r * Math.cos(phi) * length;
    out[i * 4 + 1] = r * Math.sin(phi) * length;
    out[i * 4 + 2] = Math.sqrt(1 - spread) * length;
  }
  return out;
}

/** The 4x4 ordered pattern of rotation indices (row-major, 4 * (y & 3) + (x & 3)). */
export const ROTATION_ORDER: readonly number[] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];

/** The kernel's rotation about the normal at pixel (x, y), in radians. */
export function rotationAngle(x: number, y: number): number {
  return ((ROTATION_ORDER[(y & 3) * 4 + (x & 3)]! + 0.5) * 2 * Math.PI) / 16;
}

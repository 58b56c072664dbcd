// The exact-outline reference for glyph distance fields, brute force and independent of the
// code it checks: every curve is cut into REFERENCE_STEPS equal parameter steps (under a
// thousandth of a pixel from the curve for glyphs at text sizes), every texel takes its
// distance to every segment, and inside or outside is the nonzero winding number of a ray
// to the right. Slow (texels x segments) and only for tests and benchmarks: it is not part
// of the package's API.
import type { OutlineCommand } from '../rasterize.ts';

/** Parameter steps per curve. */
const REFERENCE_STEPS = 96;

/** Polyline of the outline as x0, y0, x1, y1 quadruples, every contour closed. */
function referenceSegments(commands: readonly OutlineCommand[]): number[] {
  const out: number[] = [];
  let sx = 0;
  let sy = 0;
  let x = 0;
  let y = 0;
  const to = (nx: number, ny: number): void => {
    if (nx !== x || ny !== y) out.push(x, y, nx, ny);
    x = nx;
    y = ny;
  };
  for (const c of commands) {
    if (c.type === 'M') {
      to(sx, sy);
      sx = x = c.x;
      sy = y = c.y;
    } else if (c.type === 'L') to(c.x, c.y);
    else if (c.type === 'Q') {
      const [x0, y0] = [x, y];
      for (let i = 1; i <= REFERENCE_STEPS; i++) {
        const t = i / REFERENCE_STEPS;
        to((1 - t) ** 2 * x0 + 2 * (1 - t) * t * c.x1 + t * t * c.x, (1 - t) ** 2 * y0 + 2 * (1 - t) * t * c.y1 + t * t * c.y);
      }
    } else if (c.type === 'C') {
      const [x0, y0] = [x, y];
      for (let i = 1; i <= REFERENCE_STEPS; i++) {
        const t = i / REFERENCE_STEPS;
        const u = 1 - t;
        to(u ** 3 * x0 + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t ** 3 * c.x, u ** 3 * y0 + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t ** 3 * c.y);
      }
    } else to(sx, sy);
  }
  to(sx, sy);
  return out;
}

/**
 * Signed distance (positive inside, in pixels) from the centre of each texel of a width x height
 * grid to the outline; texel (i, j) has its centre at (x0 + i + 0.5, y0 + j + 0.5) in the
 * outline's coordinates (pixels, y down, as glyph.getPath gives them).
 */
export function referenceSignedDistances(commands: readonly OutlineCommand[], width: number, height: number, x0: number, y0: number): Float64Array {
  const s = referenceSegments(commands);
  const out = new Float64Array(width * height);
  for (let j = 0; j < height; j++) {
    const py = y0 + j + 0.5;
    for (let i = 0; i < width; i++) {
      const px = x0 + i + 0.5;
      let best = Infinity;
      let winding = 0;
      for (let k = 0; k < s.length; k += 4) {
        const ax = s[k]!;
        const ay = s[k + 1]!;
        const dx = s[k + 2]! - ax;
        const dy = s[k + 3]! - ay;
        const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
        const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
        if (d < best) best = d;
        // Crossings of the ray from (px, py) to the right, half-open in y.
        if (ay <= py !== ay + dy <= py) {
          const cx = ax + ((py - ay) * dx) / dy;
          if (cx > px) winding += dy > 0 ? 1 : -1;
        }
      }
      out[j * width + i] = winding !== 0 ? best : -best;
    }
  }
  return out;
}

/** How far an 8-bit field is from the reference, over the texels it encodes. */
export interface FieldAccuracy {
  /** Texels on the wrong side of the outline and farther than `signBand` pixels from it. */
  signErrors: number;
  /** Mean absolute distance error in pixels over the texels whose true distance is inside the field's range (|d| < spread). */
  mean: number;
  /** Largest absolute distance error in pixels over the same texels. */
  max: number;
  /** Number of those texels. */
  texels: number;
}

/**
 * Compares an 8-bit field (127.5 on the outline, 255 at `spread` pixels inside, 0 at `spread`
 * outside) with reference signed distances texel by texel.
 */
export function fieldAccuracy(field: ArrayLike<number>, reference: Float64Array, spread: number, signBand = 0.25): FieldAccuracy {
  let signErrors = 0;
  let sum = 0;
  let max = 0;
  let texels = 0;
  for (let i = 0; i < reference.length; i++) {
    const truth = reference[i]!;
    const d = ((field[i]! - 127.5) / 127.5) * spread;
    if (Math.abs(truth) > signBand && d > 0 !== truth > 0) signErrors++;
    if (Math.abs(truth) >= spread) continue;
    const error = Math.abs(d - truth);
    sum += error;
    if (error > max) max = error;
    texels++;
  }
  return { signErrors, mean: texels ? sum / texels : 0, max, texels };
}

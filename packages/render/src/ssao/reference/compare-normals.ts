// Holds GPU normals (read back as rgba, 4 floats per pixel) against the reference: the surface
// mask must match exactly, and each normal must lie within `toleranceDegrees` of the reference's,
// or of one of its candidates where the neighbour choice is within f32 rounding.
import type { NormalsReference } from './normals.ts';

/** The result of {@link compareNormals}: angle statistics and what disagrees. */
export interface NormalsComparison {
  /** Largest angle (degrees) between a GPU normal and the nearest acceptable reference normal. */
  maxDegrees: number;
  /** Mean of that angle over the surface pixels, in degrees. */
  meanDegrees: number;
  /** Pixels holding a surface in the reference. */
  surfacePixels: number;
  /** Surface pixels where f32 could pick another triangle. */
  borderline: number;
  /** Borderline pixels whose candidate normals differ by more than the tolerance (where the choice matters). */
  ambiguous: number;
  /** What disagrees, one line each (at most 20). */
  errors: string[];
}

/** Angle between vectors a and b in degrees, 0 to 180 (180 when either is zero); accurate for tiny angles. */
export function angleDegrees(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const la = Math.hypot(ax, ay, az), lb = Math.hypot(bx, by, bz);
  if (la === 0 || lb === 0) return 180;
  // atan2 of |a x b| and a . b stays accurate for tiny angles, where acos does not.
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return (Math.atan2(Math.hypot(cx, cy, cz), ax * bx + ay * by + az * bz) * 180) / Math.PI;
}

/**
 * Compares GPU normals (read back as rgba, 4 floats per pixel) with the reference: the surface mask must match exactly, and each normal must lie within `toleranceDegrees` of the reference's, or of one of its candidates at borderline pixels. Failures are listed in `errors` (nothing is thrown).
 */
export function compareNormals(gpu: Float32Array, reference: NormalsReference, toleranceDegrees: number): NormalsComparison {
  const { width, height, normals, surface, candidates } = reference;
  const errors: string[] = [];
  const fail = (message: string): void => {
    if (errors.length < 20) errors.push(message);
  };
  let maxDegrees = 0, sum = 0, surfacePixels = 0, borderline = 0, ambiguous = 0;
  for (let i = 0; i < width * height; i++) {
    const gx = gpu[i * 4]!, gy = gpu[i * 4 + 1]!, gz = gpu[i * 4 + 2]!, gw = gpu[i * 4 + 3]!;
    const where = `pixel (${i % width}, ${Math.floor(i / width)})`;
    if (surface[i] === 0) {
      if (gx !== 0 || gy !== 0 || gz !== 0 || gw !== 0) fail(`${where} has no surface but the GPU wrote ${gx}, ${gy}, ${gz}, ${gw}`);
      continue;
    }
    surfacePixels++;
    if (gw !== 1) fail(`${where} is a surface but the GPU wrote w = ${gw}`);
    let angle = angleDegrees(gx, gy, gz, normals[i * 3]!, normals[i * 3 + 1]!, normals[i * 3 + 2]!);
    const options = candidates.get(i);
    if (options) {
      borderline++;
      let spread = 0;
      for (let k = 0; k < options.length; k += 3) {
        angle = Math.min(angle, angleDegrees(gx, gy, gz, options[k]!, options[k + 1]!, options[k + 2]!));
        spread = Math.max(spread, angleDegrees(options[0]!, options[1]!, options[2]!, options[k]!, options[k + 1]!, options[k + 2]!));
      }
      if (spread > toleranceDegrees) ambiguous++;
    }
    sum += angle;
    maxDegrees = Math.max(maxDegrees, angle);
    if (angle > toleranceDegrees) fail(`${where}: the GPU normal ${gx.toFixed(4)}, ${gy.toFixed(4)}, ${gz.toFixed(4)} is ${angle.toFixed(3)} degrees from the reference's`);
  }
  return { maxDegrees, meanDegrees: surfacePixels > 0 ? sum / surfacePixels : 0, surfacePixels, borderline, ambiguous, errors };
}

// View-space positions of a whole depth buffer in f64, as the passes reconstruct them.
import { viewPosition, type ResolvedSsaoCamera } from '../camera.ts';

export interface DepthPositions {
  /** xyz per pixel (0 where there is no surface). */
  positions: Float64Array;
  /** 1 where the pixel holds a surface (its depth is not the far value). */
  surface: Uint8Array;
}

export function depthPositions(depth: ArrayLike<number>, width: number, height: number, camera: ResolvedSsaoCamera): DepthPositions {
  const positions = new Float64Array(width * height * 3);
  const surface = new Uint8Array(width * height);
  const p = new Float64Array(3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const d = depth[i]!;
      if (d === camera.farDepth) continue;
      viewPosition(camera, x, y, d, width, height, p);
      positions[i * 3] = p[0]!;
      positions[i * 3 + 1] = p[1]!;
      positions[i * 3 + 2] = p[2]!;
      surface[i] = 1;
    }
  }
  return { positions, surface };
}

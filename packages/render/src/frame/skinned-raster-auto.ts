// `skinnedRaster: 'auto'`: each frame, each skinned draw takes the compute raster while its
// triangles are small on screen and the raster hardware once they are large. The compute
// raster's cost follows each triangle's screen box (large ones go to a slow queue), the
// hardware's does not, so the estimate is the draw's mean screen area per triangle, from the
// instances' bounding spheres and the levels of detail they draw this frame.
import type { RenderCamera } from '../api.ts';
import { SKINNED_BOUNDS_FLOATS } from '../scene/render-scene.ts';

/**
 * Default threshold of `skinnedRaster: 'auto'`, in pixels of screen area per triangle: a draw
 * whose estimate ({@link skinnedTrianglePixels}) is above it takes the raster hardware. Measured
 * with apps/engine's `bench/skinned-lods.ts` (an NVIDIA H200, 4K, 1,000 walkers at 10-100 m, with
 * and without levels of detail): the compute raster was faster at every estimate up to 36.6
 * pixels (6.95 against 7.82 ms there), the hardware from 56.7 up (6.74 against 6.97 ms; 47 against
 * 7.8 ms at 198). 48 lies between. Overridden per renderer by `RendererOptions.skinnedRasterAutoPixels`.
 */
export const SKINNED_RASTER_AUTO_PIXELS = 48;

/** What the estimate reads of a skinned draw (a `SkinnedDraw` has it all). */
export interface SkinnedTriangleSource {
  /** SKINNED_BOUNDS_FLOATS per instance: centre xyz, radius (below 0: no sphere given). */
  readonly bounds: Float32Array;
  /** The level of detail each instance draws this frame. */
  readonly levels: Uint8Array;
  /** Its levels of detail, the full mesh first: the indices each draws. */
  readonly lods: readonly { readonly indexCount: number }[];
  /** Only its length is read. */
  readonly instances: { readonly length: number };
}

/**
 * The mean screen area per triangle of `draw` in pixels: the sum, over the instances whose
 * sphere is on screen, of the sphere's projected disc (radius `scale r / sqrt(depth² - r²)`
 * pixels, `scale` = height / 2 x the projection's y scale; clipped to the target: π/4 of its
 * clipped square), over the triangles those instances draw at their level. A sphere around the
 * eye covers the whole target; one that reaches the eye's plane counts its whole disc (up to the
 * target). Instances without a sphere are left out; -1 when no instance has one (nothing tells
 * where they are: 'auto' keeps the compute raster), 0 when none is on screen. Loops over the
 * instances; allocates nothing. Call it after the frame chose the levels (`draw.levels`).
 */
export function skinnedTrianglePixels(draw: SkinnedTriangleSource, camera: RenderCamera, width: number, height: number): number {
  const { bounds, levels, lods } = draw;
  const v = camera.view, p = camera.projection;
  const perspective = p[3] !== 0 || p[7] !== 0 || p[11] !== 0;
  // Pixels a unit covers at depth 1 (perspective) or anywhere (orthographic), as lod-select's pixelsPerUnit.
  const scale = (height / 2) * Math.abs(p[5]!);
  const screen = width * height;
  let area = 0, triangles = 0, given = false;
  for (let k = 0; k < draw.instances.length; k++) {
    const o = k * SKINNED_BOUNDS_FLOATS;
    const r = bounds[o + 3]!;
    if (r < 0) continue;
    given = true;
    const x = bounds[o]!, y = bounds[o + 1]!, z = bounds[o + 2]!;
    // View space (the view is rigid: distances hold), then clip space.
    const vx = v[0]! * x + v[4]! * y + v[8]! * z + v[12]!;
    const vy = v[1]! * x + v[5]! * y + v[9]! * z + v[13]!;
    const vz = v[2]! * x + v[6]! * y + v[10]! * z + v[14]!;
    const w = p[3]! * vx + p[7]! * vy + p[11]! * vz + p[15]!;
    let disc: number;
    if (!perspective) {
      disc = clippedDisc(p, vx, vy, vz, w, scale * r, width, height);
    } else if (vx * vx + vy * vy + vz * vz <= r * r) {
      disc = screen;
    } else if (w <= -r) {
      continue;
    } else if (w <= r) {
      // Reaching the eye's plane, the centre's projection says nothing of where it lands.
      const radius = (scale * r) / Math.sqrt(vx * vx + vy * vy + vz * vz - r * r);
      disc = Math.min(Math.PI * radius * radius, screen);
    } else {
      // By depth (clip w), not distance: off the axis the true outline is as wide and longer.
      disc = clippedDisc(p, vx, vy, vz, w, (scale * r) / Math.sqrt(w * w - r * r), width, height);
    }
    if (disc <= 0) continue;
    area += disc;
    triangles += lods[levels[k]!]!.indexCount / 3;
  }
  if (!given) return -1;
  return triangles > 0 ? area / triangles : 0;
}

/** π/4 of the square of side 2 `radius` around the centre's pixel, clipped to the target (0 off screen). */
function clippedDisc(p: ArrayLike<number>, vx: number, vy: number, vz: number, w: number, radius: number, width: number, height: number): number {
  const cx = ((p[0]! * vx + p[4]! * vy + p[8]! * vz + p[12]!) / w + 1) * (width / 2);
  const cy = ((p[1]! * vx + p[5]! * vy + p[9]! * vz + p[13]!) / w + 1) * (height / 2);
  const across = Math.min(cx + radius, width) - Math.max(cx - radius, 0);
  const down = Math.min(cy + radius, height) - Math.max(cy - radius, 0);
  return across > 0 && down > 0 ? (Math.PI / 4) * across * down : 0;
}

/** The raster `'auto'` gives `draw` this frame: 'hardware' above `maxPixels` per triangle, else 'compute'. */
export function autoSkinnedRaster(draw: SkinnedTriangleSource, camera: RenderCamera, width: number, height: number, maxPixels: number): 'compute' | 'hardware' {
  return skinnedTrianglePixels(draw, camera, width, height) > maxPixels ? 'hardware' : 'compute';
}

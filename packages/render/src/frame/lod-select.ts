// Levels of detail, chosen per instance and frame: the coarsest level whose geometric error,
// projected at the instance's nearest point to the eye, covers at most `maxErrorPixels` of the
// target's height. Instances of a group are reordered by level (the draw slots are uploaded
// every frame anyway) and the group split into one draw per level used.
import type { RenderCamera } from '../api.ts';
import type { DrawGroup } from '../draw-lists.ts';
import type { MeshLod } from '../scene/meshes.ts';
import { SKINNED_BOUNDS_FLOATS, SKINNED_RANGE_WORDS, type RenderScene } from '../scene/render-scene.ts';

/** The opaque groups split by level, their draw order, and what the frame draws of them. */
export interface LodSelection {
  groups: DrawGroup[];
  /** Scene instance of every opaque draw slot, in draw order. */
  order: Uint32Array;
  /** Indices the opaque groups draw (instances times each level's index count): vertex shader work. */
  indices: number;
}

/**
 * Pixels a 1-unit error at distance 1 covers: perspective projection's `height / 2 / tan(fovY / 2)`,
 * an orthographic one's `height / 2 * scaleY` (distance then does not matter).
 */
function pixelsPerUnit(camera: RenderCamera, height: number): { scale: number; perspective: boolean } {
  const p = camera.projection;
  return { scale: (height / 2) * Math.abs(p[5]!), perspective: p[11] !== 0 };
}

/**
 * The coarsest of `levels` whose error, at the nearest point of the sphere (x, y, z, radius) to
 * `eye`, covers at most `maxErrorPixels`; `meshRadius` (0: none) scales the errors by the
 * sphere's radius over the mesh's own, as an instance's matrix scales its mesh.
 */
function levelFor(levels: readonly MeshLod[], x: number, y: number, z: number, radius: number, meshRadius: number, eye: readonly number[], scale: number, perspective: boolean, maxErrorPixels: number): number {
  const unitScale = meshRadius > 0 ? radius / meshRadius : 1;
  const distance = perspective ? Math.max(Math.hypot(x - eye[0]!, y - eye[1]!, z - eye[2]!) - radius, 1e-3) : 1;
  // Largest error allowed here, in object units.
  const allowed = (maxErrorPixels * distance) / (scale * unitScale);
  let level = 0;
  while (level + 1 < levels.length && levels[level + 1]!.error <= allowed) level++;
  return level;
}

export function selectLods(scene: RenderScene, groups: readonly DrawGroup[], order: ArrayLike<number>, eye: readonly number[], camera: RenderCamera, height: number, maxErrorPixels: number): LodSelection {
  const out: DrawGroup[] = [];
  const sorted = new Uint32Array(order.length);
  const { scale, perspective } = pixelsPerUnit(camera, height);
  let drawn = 0;
  for (const group of groups) {
    const mesh = scene.mesh(group.mesh);
    const levels = mesh.lods;
    if (levels.length === 1 || !(maxErrorPixels > 0)) {
      for (let k = 0; k < group.count; k++) sorted[group.first + k] = order[group.first + k]!;
      out.push(group);
      drawn += levels[0]!.indexCount * group.count;
      continue;
    }
    // Level of each instance, counted per level, then placed level by level (a counting sort).
    const chosen = new Uint8Array(group.count);
    const counts = new Uint32Array(levels.length);
    for (let k = 0; k < group.count; k++) {
      const instance = order[group.first + k]!;
      const [x, y, z, radius] = scene.instanceBounds(instance);
      const level = levelFor(levels, x, y, z, radius, mesh.radius, eye, scale, perspective, maxErrorPixels);
      chosen[k] = level;
      counts[level]!++;
    }
    const starts = new Uint32Array(levels.length);
    let at = group.first;
    for (let level = 0; level < levels.length; level++) {
      starts[level] = at;
      if (counts[level]! > 0) {
        out.push({ mesh: group.mesh, material: group.material, first: at, count: counts[level]!, lod: level });
        drawn += levels[level]!.indexCount * counts[level]!;
      }
      at += counts[level]!;
    }
    for (let k = 0; k < group.count; k++) sorted[starts[chosen[k]!]!++] = order[group.first + k]!;
  }
  return { groups: out, order: sorted, indices: drawn };
}

/**
 * Each skinned instance's level this frame, by the same rule from the bounding sphere its draw
 * was given (none given, or `maxErrorPixels` 0: the full mesh); a draw whose levels changed has
 * its instance ranges (what the compute raster reads) uploaded again. Returns the indices the
 * skinned instances draw (once each: the shadow passes draw the same levels again).
 */
export function selectSkinnedLods(scene: RenderScene, eye: readonly number[], camera: RenderCamera, height: number, maxErrorPixels: number): number {
  const { scale, perspective } = pixelsPerUnit(camera, height);
  let drawn = 0;
  for (const draw of scene.skinned) {
    const { lods, levels, bounds, instances, instanceWords } = draw;
    let changed = false;
    for (let k = 0; k < instances.length; k++) {
      const o = k * SKINNED_BOUNDS_FLOATS;
      const radius = bounds[o + 3]!;
      // A radius below 0: no sphere given, the full mesh.
      const level = lods.length > 1 && maxErrorPixels > 0 && radius >= 0 ? levelFor(lods, bounds[o]!, bounds[o + 1]!, bounds[o + 2]!, radius, draw.meshRadius, eye, scale, perspective, maxErrorPixels) : 0;
      const lod = lods[level]!;
      drawn += lod.indexCount;
      if (levels[k] === level) continue;
      levels[k] = level;
      instanceWords[k * SKINNED_RANGE_WORDS + 1] = lod.firstIndex;
      instanceWords[k * SKINNED_RANGE_WORDS + 2] = lod.indexCount / 3;
      changed = true;
    }
    if (changed) scene.device.queue.writeBuffer(draw.instanceRanges, 0, instanceWords);
  }
  return drawn;
}

// The order a frame draws its instances in. Opaque and masked instances are grouped by
// (material, mesh) so each group is one instanced draw over a contiguous run of
// `draw_instances`; blended instances come after them, one draw each, sorted back to front
// every frame (blending depends on order; sorting by bounding-sphere centre distance).
import type { RenderScene } from './scene/render-scene.ts';

export interface DrawGroup {
  mesh: number;
  material: number;
  first: number;
  count: number;
  /** The mesh's level of detail drawn (default 0: the full mesh). */
  lod?: number;
}

export interface DrawLists {
  opaque: DrawGroup[];
  transparent: DrawGroup[];
  /** Scene instance of every draw slot: opaque groups, then transparents. */
  slots: Uint32Array<ArrayBuffer>;
}

export function buildOpaqueGroups(scene: RenderScene): { groups: DrawGroup[]; order: number[]; transparent: number[] } {
  const opaque: number[] = [];
  const transparent: number[] = [];
  for (let i = 0; i < scene.instanceCount; i++) {
    if (!scene.isVisible(i)) continue;
    (scene.material(scene.instanceMaterial(i)).blend ? transparent : opaque).push(i);
  }
  opaque.sort((a, b) => scene.instanceMaterial(a) - scene.instanceMaterial(b) || scene.instanceMesh(a) - scene.instanceMesh(b) || a - b);
  const groups: DrawGroup[] = [];
  for (let k = 0; k < opaque.length; k++) {
    const i = opaque[k]!;
    const last = groups[groups.length - 1];
    if (last?.material === scene.instanceMaterial(i) && last.mesh === scene.instanceMesh(i)) last.count++;
    else groups.push({ mesh: scene.instanceMesh(i), material: scene.instanceMaterial(i), first: k, count: 1 });
  }
  return { groups, order: opaque, transparent };
}

/** Transparent instances farthest first from `eye`. */
export function sortBackToFront(scene: RenderScene, instances: number[], eye: readonly number[]): number[] {
  const distance = new Map<number, number>();
  for (const i of instances) {
    const [x, y, z] = scene.instanceBounds(i);
    distance.set(i, (x - eye[0]!) ** 2 + (y - eye[1]!) ** 2 + (z - eye[2]!) ** 2);
  }
  return [...instances].sort((a, b) => distance.get(b)! - distance.get(a)! || a - b);
}

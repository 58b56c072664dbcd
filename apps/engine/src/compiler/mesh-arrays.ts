// Flat-array helpers the static and skinned mesh compilers share: sections laid end to end, the
// bind pose's box, and levels of detail as ranges of one index section.
import type { MeshLodLevel } from './mesh-lods.ts';

/** `parts` one after another in one array of their type. */
export function concat<T extends Uint8Array | Uint16Array | Uint32Array>(parts: readonly T[], Type: new (length: number) => T): T {
  const out = new Type(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Grows the box `min`..`max` (in place) over `positions`, xyz per vertex. */
export function extendBox(positions: ArrayLike<number>, min: [number, number, number], max: [number, number, number]): void {
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[i + k]!);
      max[k] = Math.max(max[k]!, positions[i + k]!);
    }
  }
}

/**
 * The levels as ranges of a `lods` section made of `sections` laid end to end, their indices
 * pushed onto `sections` (after what earlier meshes or groups pushed there).
 */
export function lodRanges(levels: readonly MeshLodLevel[], sections: Uint32Array[]): { error: number; firstIndex: number; indexCount: number }[] {
  let at = sections.reduce((n, part) => n + part.length, 0);
  return levels.map((lod) => {
    const range = { error: lod.error, firstIndex: at, indexCount: lod.indices.length };
    sections.push(lod.indices);
    at += lod.indices.length;
    return range;
  });
}

// What a recompiled level changes in the running one when nothing structural changed: the
// property editor's edits (a unit's position, rotation, scale or material, a light's colour,
// range or intensity) are then copied into the running world instead of rebuilding it. Pure
// data: it reads both levels and says what to copy, or why a rebuild is needed.
import type { createLevelLibrary } from '../compiler/resources/level.ts';
import type { LevelMeta } from './formats.ts';

type LevelEcs = ReturnType<typeof createLevelLibrary>;

export interface LoadedLevel {
  meta: LevelMeta;
  ecs: LevelEcs;
}

export interface LevelPatch {
  /** Transform rows (the same in both levels) whose local position, rotation or scale changed. */
  transformRows: number[];
  /** Render component rows whose material changed, with the new material's name hash. */
  materialRows: { row: number; hash: number }[];
  /** Whether any light's colour, range or intensity changed. */
  lightsChanged: boolean;
}

const MANAGERS = ['unit', 'render', 'light', 'character', 'script'] as const;

function sameSlice(a: ArrayLike<number>, b: ArrayLike<number>, from: number, length: number): boolean {
  for (let i = from; i < from + length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameField(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && sameSlice(a, b, 0, a.length);
}

/** The patch from `current` to `next`, or the reason the world must be rebuilt instead. */
export function levelPatch(current: LoadedLevel, next: LoadedLevel): LevelPatch | { refused: string } {
  const { names: _currentNames, ...currentHeader } = current.meta;
  const { names: _nextNames, ...nextHeader } = next.meta;
  if (JSON.stringify(currentHeader) !== JSON.stringify(nextHeader)) return { refused: 'the level header or its list of units changed' };

  for (const name of MANAGERS) {
    const a = current.ecs.managers[name];
    const b = next.ecs.managers[name];
    if (a.count !== b.count) return { refused: `the number of ${name} components changed` };
    for (let i = 0; i < a.count; i++) if (a.getEntity(i) !== b.getEntity(i)) return { refused: `the ${name} components belong to other entities` };
  }
  const [a, b] = [current.ecs.managers, next.ecs.managers];
  const unchanged: [string, ArrayLike<number>, ArrayLike<number>][] = [
    ['unit ids', a.unit.fields.id, b.unit.fields.id],
    ['unit prefabs', a.unit.fields.prefab, b.unit.fields.prefab],
    ['meshes', a.render.fields.mesh, b.render.fields.mesh],
    ['characters', a.character.fields.mesh, b.character.fields.mesh],
    ['character materials', a.character.fields.material, b.character.fields.material],
    ['character speeds', a.character.fields.speed, b.character.fields.speed],
    ['character radii', a.character.fields.radius, b.character.fields.radius],
    ['character phases', a.character.fields.phase, b.character.fields.phase],
    ['scripts', a.script.fields.flow, b.script.fields.flow],
  ];
  for (const [what, x, y] of unchanged) if (!sameField(x, y)) return { refused: `${what} changed` };

  const ta = current.ecs.scene.transforms;
  const tb = next.ecs.scene.transforms;
  if (ta.count !== tb.count) return { refused: 'the number of transforms changed' };
  const transformRows: number[] = [];
  for (let row = 0; row < ta.count; row++) {
    if (ta.getEntity(row) !== tb.getEntity(row)) return { refused: 'the transforms belong to other entities' };
    const { position: pa, rotation: ra, scale: sa } = ta.fields;
    const { position: pb, rotation: rb, scale: sb } = tb.fields;
    if (!sameSlice(pa, pb, row * 3, 3) || !sameSlice(ra, rb, row * 4, 4) || !sameSlice(sa, sb, row * 3, 3)) transformRows.push(row);
  }
  // A character's walk circle is taken from its transform when the level loads.
  const moved = new Set(transformRows);
  for (let i = 0; i < a.character.count; i++) {
    if (moved.has(ta.indexOf(a.character.getEntity(i)))) return { refused: 'a character was moved (its walk path is built at load)' };
  }

  const materialRows: { row: number; hash: number }[] = [];
  for (let row = 0; row < a.render.count; row++) {
    const hash = b.render.fields.material[row]!;
    const was = a.render.fields.material[row]!;
    if (was === hash) continue;
    // Switching to or from the mesh's own materials changes how many materials the unit draws with.
    if (was === 0 || hash === 0) return { refused: "a unit switched between a material and its mesh's own materials" };
    materialRows.push({ row, hash });
  }
  const lightsChanged = !sameField(a.light.fields.color, b.light.fields.color) || !sameField(a.light.fields.range, b.light.fields.range) || !sameField(a.light.fields.intensity, b.light.fields.intensity);
  return { transformRows, materialRows, lightsChanged };
}

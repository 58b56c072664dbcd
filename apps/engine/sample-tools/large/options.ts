// How big the generated project is. The defaults are the project issue #36 asks for; `scale`
// shrinks every count (tests use 0.01) while keeping the mix the same.
export interface LargeProjectCounts {
  levels: number;
  /** Units placed in levels, over all levels. */
  placedUnits: number;
  /** Unit prefabs (units/*.unit) the levels place. */
  unitPrefabs: number;
  materials: number;
  meshes: number;
  /** Of `meshes`, how many are skinned characters. */
  skinnedMeshes: number;
  fonts: number;
  textures: number;
  flows: number;
}

export const FULL_SIZE: LargeProjectCounts = {
  levels: 50,
  placedUnits: 20_000,
  unitPrefabs: 2_000,
  materials: 1_000,
  meshes: 200,
  skinnedMeshes: 20,
  fonts: 20,
  textures: 500,
  flows: 200,
};

export function scaledCounts(scale: number): LargeProjectCounts {
  if (!(scale > 0 && scale <= 1)) throw new RangeError(`scale must be in (0, 1], got ${scale}`);
  const at = (n: number, least: number): number => Math.max(least, Math.round(n * scale));
  return {
    levels: at(FULL_SIZE.levels, 1),
    placedUnits: at(FULL_SIZE.placedUnits, 20),
    unitPrefabs: at(FULL_SIZE.unitPrefabs, 12),
    materials: at(FULL_SIZE.materials, 6),
    meshes: at(FULL_SIZE.meshes, 4),
    skinnedMeshes: at(FULL_SIZE.skinnedMeshes, 1),
    fonts: at(FULL_SIZE.fonts, 1),
    textures: at(FULL_SIZE.textures, 4),
    flows: at(FULL_SIZE.flows, 2),
  };
}

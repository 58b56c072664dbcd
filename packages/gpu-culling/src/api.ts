/** A 4x4 matrix in column-major order (WebGPU, glTF and wgpu-matrix convention): `m[column * 4 + row]`. */
export type Mat4 = ArrayLike<number>;

/** A point or direction. */
export type Vec3 = readonly [number, number, number];

/** Pixels per tile side. 16 is the posts' best granularity; 8 and 32 trade culling precision for work. */
export type TileSize = 8 | 16 | 32;

/** Every {@link TileSize}. */
export const TILE_SIZES: readonly TileSize[] = [8, 16, 32];

/**
 * How a tile's entity set is stored.
 * - `'flat-bits'`: one bit per entity in view, 32 per u32 bucket (Drobot's flat bit arrays):
 *   deterministic order, no sort, `maxEntities / 32` words per tile.
 * - `'compaction'`: a list of entity indices per tile after one statistics word (DICE's stream
 *   compaction): at most `maxPerTile` entries, sorted only in tiles that hold decals or probes.
 */
export type Technique = 'flat-bits' | 'compaction';

/** Every {@link Technique}. */
export const TECHNIQUES: readonly Technique[] = ['flat-bits', 'compaction'];

/**
 * How the shading module walks flat-bit tiles (compaction lists have one walk). Both give the
 * same entities in the same order; they differ in speed only (BENCHMARKS.md, "Two walks").
 * - `'sparse'`: one loop, a list entry its first test, as over compaction lists: fastest while
 *   tiles hold few entities (on an H200 at 4K, 13% faster than `'dense'` at 1,024 lights).
 * - `'dense'`: a list entry read before any loop: fastest once tiles hold tens of entities (5-12%
 *   faster than `'sparse'` from 16,384 lights).
 * - `'auto'`: `'sparse'` up to {@link SPARSE_WALK_MAX_ENTITIES} maxEntities, else `'dense'`.
 */
export type CullWalk = 'auto' | 'sparse' | 'dense';

/** Every {@link CullWalk}. */
export const CULL_WALKS: readonly CullWalk[] = ['auto', 'sparse', 'dense'];

/** The most maxEntities for which `walk: 'auto'` takes the sparse walk. */
export const SPARSE_WALK_MAX_ENTITIES = 8192;

/**
 * Which culling shader walks the entities.
 * - `'gather'`: every tile tests every entity (best for a few thousand).
 * - `'scatter'`: one thread per entity marks the coarse tiles (8x8 tiles) it can touch, then each
 *   tile tests only its coarse tile's entities (tens of thousands).
 * - `'auto'`: scatter above `scatterThreshold` entities, gather below.
 */
export type CullMethod = 'gather' | 'scatter' | 'auto';

/** Entity kinds in the order the entity array holds them (the posts' order). */
export const ENTITY_KIND = { decal: 0, probe: 1, pointLight: 2, spotLight: 3 } as const;
/** An entity kind's number: 0 decal, 1 probe, 2 point light, 3 spot light (see {@link ENTITY_KIND}). */
export type EntityKind = (typeof ENTITY_KIND)[keyof typeof ENTITY_KIND];

/** Bytes per entity on the GPU: four vec4 (see entity-layout.ts). */
export const ENTITY_BYTES = 64;
/** u32 words per entity. */
export const ENTITY_WORDS = 16;

/** Fine tiles per coarse tile side in scatter mode. */
export const COARSE_FACTOR = 8;

/** Depth slices of the 2.5D mask: one per bit of a u32. */
export const DEPTH_MASK_CELLS = 32;

/** Entity counts per kind; the entity array holds decals, then probes, then lights. */
export interface EntityCounts {
  /** Decals (first in the entity array). */
  decals: number;
  /** Environment probes (after the decals). */
  probes: number;
  /** Point and spot lights (last). */
  lights: number;
}

/** The camera culling happens for: world-to-view and view-to-clip matrices (WebGPU clip space, depth 0..1). */
export interface CameraInput {
  /** World to view; must be rigid (rotation and translation). */
  view: Mat4;
  /** View to clip: perspective or orthographic, standard or reversed Z, finite or infinite far plane. */
  projection: Mat4;
}

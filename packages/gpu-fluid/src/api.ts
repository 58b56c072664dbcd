/** An axis-aligned box: the planes particles collide with, and the extent of the counting-sort grid. */
export interface Bounds {
  /** Lowest corner (x, y, z), in world units (the same units as h). */
  min: readonly [number, number, number];
  /** Highest corner (x, y, z), in world units; each component above `min`'s. */
  max: readonly [number, number, number];
}

/** Every runtime-settable constant of the solver; names follow the reference post. */
export interface FluidParameters {
  /** Smoothing radius h: particles farther apart do not interact. Also the grid's cell size. */
  h: number;
  /** Pressure constant K in pressure = K (density - rho0). */
  k: number;
  /** Reference (rest) density rho0; densities are clamped up to it, so pressure is never negative. */
  rho0: number;
  /** Viscosity constant e; larger is thicker. */
  viscosity: number;
  /** Mass of every particle. */
  mass: number;
  /** Fixed time step in seconds. */
  dt: number;
  /** Constant acceleration, usually (0, -9.8, 0). */
  gravity: readonly [number, number, number];
  /** The box particles stay in. */
  bounds: Bounds;
  /** Share of the normal velocity kept when a particle hits a wall (0 sticks, 1 bounces fully). */
  restitution: number;
}

/**
 * How each particle finds its neighbours.
 * - `'nbody'`: every particle against every other, through workgroup-memory tiles: O(n^2),
 *   the post's baseline for a few thousand particles.
 * - `'counting-sort'`: a uniform grid over `bounds` with cell size h; an atomic count per cell,
 *   an exclusive prefix scan, a scatter that reorders the particle data itself by cell, then
 *   the 27 neighbour cells (the readers' suggestion in the post's comments).
 * - `'hashed-grid'`: the post's dynamic hashed grid: an unbounded grid hashed with the post's
 *   primes into a table, a key-value radix sort by hash, each entry's start by atomic min, then
 *   the 27 neighbour cells' entries.
 */
export type NeighbourMode = 'nbody' | 'counting-sort' | 'hashed-grid';

/** Every {@link NeighbourMode}, in the order the benchmarks list them. */
export const NEIGHBOUR_MODES: readonly NeighbourMode[] = ['nbody', 'counting-sort', 'hashed-grid'];

/** The post's defaults (h 1, K 250, rho0 1, e 0.018, dt 0.016, g -9.8) in a 40 x 20 x 20 box. */
export const DEFAULT_PARAMETERS: FluidParameters = {
  h: 1,
  k: 250,
  rho0: 1,
  viscosity: 0.018,
  mass: 1,
  dt: 0.016,
  gravity: [0, -9.8, 0],
  bounds: { min: [0, 0, 0], max: [40, 20, 20] },
  restitution: 0.5,
};

/** Particle state on the host: xyz triplets, `count` particles, in float32 or float64. */
export interface ParticleState {
  /** Positions, xyz per particle (length 3 x count), in world units. */
  positions: Float32Array | Float64Array;
  /** Velocities, xyz per particle (length 3 x count), in world units per second. */
  velocities: Float32Array | Float64Array;
}

/** Invocations per workgroup in every kernel, and the particles per N-body tile. */
export const WORKGROUP_SIZE = 256;

/** Bytes per particle per vec4 array (positions, velocities, accelerations). */
export const VEC4_BYTES = 16;

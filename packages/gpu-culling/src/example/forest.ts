// A generated forest: the scene behind the post's 2.5D figure ("a high depth discontinuity scene
// with alpha tested vegetation and many point lights"). Canopies are clouds of small leaf boxes
// with gaps between them, the way alpha-tested leaf cards leave holes, so that most tiles of an
// eye-level view hold a near leaf, a far trunk and empty space between them. Lights hang in
// that space (lanterns and fireflies), which is where a tile's depth mask rejects them.
import type { EntityList } from '../entity-list.ts';
import { GpuCullingError } from '../errors.ts';
import { BOX_FLOATS, packColor, seededRandom } from './city.ts';
import { addRandomLight } from './random-light.ts';

/** Options of {@link generateForest}; every one has a default. */
export interface ForestOptions {
  /** Seed of the random layout (default 3). */
  seed?: number;
  /** Side of the square forest floor, in world units (default 120). */
  size?: number;
  /** Trees on a jittered grid (default 400). */
  trees?: number;
  /** Leaf boxes per canopy (default 90). */
  leaves?: number;
}

/** The example forest: a ground box, tree trunks and leaf boxes. */
export interface Forest {
  /** BOX_FLOATS per box, as `City.boxes`; the first box is the ground. */
  boxes: Float32Array<ArrayBuffer>;
  /** Boxes in `boxes`. */
  count: number;
  /** Side of the forest floor, centred on the origin. */
  size: number;
}

/** Options of {@link populateForest}. */
export interface ForestEntityOptions {
  /** Seed of the random placement (default 5). */
  seed?: number;
  /** Lights to add among the trees (a non-negative integer). */
  lights: number;
  /** Light ranges (default 1 to 4). */
  range?: [number, number];
  /** Heights the lights hang at (default 0.3 to 9). */
  height?: [number, number];
  /** Share of spot lights pointing down (default 0.1). */
  spotShare?: number;
}

/** Trees with trunks and loose leaf canopies, some with undergrowth, on a flat floor. */
export function generateForest(options: ForestOptions = {}): Forest {
  const size = options.size ?? 120;
  const trees = options.trees ?? 400;
  const leaves = options.leaves ?? 90;
  if (!(size > 0) || !Number.isInteger(trees) || trees < 1 || !Number.isInteger(leaves) || leaves < 0) {
    throw new GpuCullingError('generateForest needs a positive size, a positive integer tree count and a non-negative integer leaf count.');
  }
  const random = seededRandom(options.seed ?? 3);
  const boxes: number[] = [];
  const add = (cx: number, cy: number, cz: number, hx: number, hy: number, hz: number, color: number): void => {
    boxes.push(cx, cy, cz, color, hx, hy, hz, 0);
  };
  const leafCloud = (cx: number, cy: number, cz: number, rx: number, ry: number, rz: number, count: number): void => {
    for (let l = 0; l < count; l++) {
      // A uniform point in the unit ball, stretched to the canopy's ellipsoid.
      let x: number, y: number, z: number;
      do {
        x = random() * 2 - 1;
        y = random() * 2 - 1;
        z = random() * 2 - 1;
      } while (x * x + y * y + z * z > 1);
      const half = 0.06 + random() * 0.12;
      add(cx + x * rx, cy + y * ry, cz + z * rz, half, half * (0.4 + random() * 0.6), half, packColor(0.12 + random() * 0.12, 0.3 + random() * 0.25, 0.08 + random() * 0.08));
    }
  };
  add(0, -0.5, 0, size / 2 + 20, 0.5, size / 2 + 20, packColor(0.24, 0.2, 0.14));
  const perSide = Math.ceil(Math.sqrt(trees));
  const cell = size / perSide;
  for (let t = 0; t < trees; t++) {
    const x = -size / 2 + ((t % perSide) + 0.15 + random() * 0.7) * cell;
    const z = -size / 2 + (Math.floor(t / perSide) + 0.15 + random() * 0.7) * cell;
    const height = 4 + random() * 6;
    const trunk = 0.15 + random() * 0.15;
    add(x, height / 2, z, trunk, height / 2, trunk, packColor(0.28 + random() * 0.08, 0.2, 0.13));
    const radius = 1.8 + random() * 1.7;
    leafCloud(x, height, z, radius, radius * 0.7, radius, leaves);
    if (random() < 0.3) leafCloud(x + (random() - 0.5) * cell * 0.5, 0.6, z + (random() - 0.5) * cell * 0.5, 1.2, 0.6, 1.2, Math.floor(leaves / 3));
  }
  const data = new Float32Array(boxes);
  return { boxes: data, count: data.length / BOX_FLOATS, size };
}

/**
 * Adds point lights (and a share of downward spots) hung through the forest's volume to
 * `entities`. Returns the light positions (xyz triplets) so that callers can animate them.
 */
export function populateForest(forest: Forest, entities: EntityList, options: ForestEntityOptions): Float32Array<ArrayBuffer> {
  const random = seededRandom(options.seed ?? 5);
  const [rangeMin, rangeMax] = options.range ?? [1, 4];
  const [low, high] = options.height ?? [0.3, 9];
  const spotShare = options.spotShare ?? 0.1;
  const positions = new Float32Array(options.lights * 3);
  for (let i = 0; i < options.lights; i++) {
    const x = (random() - 0.5) * forest.size;
    const z = (random() - 0.5) * forest.size;
    const y = low + random() * (high - low);
    const range = rangeMin + random() * (rangeMax - rangeMin);
    positions.set([x, y, z], i * 3);
    addRandomLight(entities, random, [x, y, z], range, { spotShare, lean: 0.4, cone: [0.3, 0.5], intensity: [10, 5] });
  }
  return positions;
}

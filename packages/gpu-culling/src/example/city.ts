// A generated city for the examples, the benchmark and the demo: blocks of towers of random
// heights along a street grid, with props, so that a street-level view has the depth
// discontinuities tile culling must cope with (near walls beside far skylines, gaps between
// towers). Plus lights along the streets, decals on the crossings and a probe per block.
import { boxMatrix } from '../matrices.ts';
import type { EntityList } from '../entity-list.ts';
import { GpuCullingError } from '../errors.ts';
import { addRandomLight } from './random-light.ts';

/** Floats per box in `City.boxes`: centre xyz, packed rgba8 colour (as float bits), half size xyz, 0. */
export const BOX_FLOATS = 8;

/** Options of {@link generateCity}; every one has a default. */
export interface CityOptions {
  /** Seed of the random layout (default 1). */
  seed?: number;
  /** Blocks along x and z (default 10 x 10). */
  blocks?: number;
  /** Side of a block and width of a street, in world units (default 24 and 10). */
  blockSize?: number;
  /** Width of a street, in world units (default 10). */
  streetWidth?: number;
}

/** The example city: a ground box and building boxes on a grid of blocks and streets. */
export interface City {
  /** BOX_FLOATS per box; the first box is the ground. */
  boxes: Float32Array<ArrayBuffer>;
  /** Boxes in `boxes`. */
  count: number;
  /** Blocks per side, block size and street width it was made with. */
  blocks: number;
  /** Side of a block, in world units. */
  blockSize: number;
  /** Width of a street, in world units. */
  streetWidth: number;
  /** Centre of the street between block rows i and i + 1 (x and z alike). */
  street(i: number): number;
  /** Half the city's extent. */
  extent: number;
  /** Blocks that are parks (block x, block z): trees instead of towers. */
  parks: [number, number][];
  /** World-space box of block (bx, bz) on the ground: [x0, z0, x1, z1]. */
  block(bx: number, bz: number): [number, number, number, number];
}

/** A small xorshift generator: the same seed, the same city. */
export function seededRandom(seed: number): () => number {
  let x = (seed >>> 0) || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Packs an rgb colour as the rgba8 bits of a float, the way boxes carry it. */
export function packColor(r: number, g: number, b: number): number {
  const bits = new Uint32Array([(Math.round(r * 255) | (Math.round(g * 255) << 8) | (Math.round(b * 255) << 16) | (255 << 24)) >>> 0]);
  return new Float32Array(bits.buffer)[0]!;
}

/** Makes the example city's boxes (deterministic for a seed). */
export function generateCity(options: CityOptions = {}): City {
  const blocks = options.blocks ?? 10;
  const blockSize = options.blockSize ?? 24;
  const streetWidth = options.streetWidth ?? 10;
  if (!Number.isInteger(blocks) || blocks < 1 || !(blockSize > 0) || !(streetWidth > 0)) throw new GpuCullingError('generateCity needs a positive integer blocks and positive sizes.');
  const random = seededRandom(options.seed ?? 1);
  const pitch = blockSize + streetWidth;
  const extent = (blocks * pitch) / 2;
  const boxes: number[] = [];
  const add = (cx: number, cy: number, cz: number, hx: number, hy: number, hz: number, color: number): void => {
    boxes.push(cx, cy, cz, color, hx, hy, hz, 0);
  };
  const tree = (tx: number, tz: number, height: number, clumps: number, spread: number): void => {
    add(tx, height / 2, tz, 0.2, height / 2, 0.2, packColor(0.3, 0.22, 0.15));
    for (let clump = 0; clump < clumps; clump++) {
      const size = 0.35 + random() * 0.5;
      add(tx + (random() - 0.5) * spread, height + random() * 3, tz + (random() - 0.5) * spread, size, size, size, packColor(0.15 + random() * 0.1, 0.35 + random() * 0.2, 0.12));
    }
  };
  const parks: [number, number][] = [];
  add(0, -0.5, 0, extent + 40, 0.5, extent + 40, packColor(0.32, 0.32, 0.34));
  for (let bx = 0; bx < blocks; bx++) {
    for (let bz = 0; bz < blocks; bz++) {
      const x0 = -extent + bx * pitch + streetWidth / 2;
      const z0 = -extent + bz * pitch + streetWidth / 2;
      // About one block in five is a park: trees with loose canopies, the alpha-tested
      // foliage that makes tile depth ranges jump (the post's hardest case for 2D culling).
      if ((bx + bz) % 2 === 1 && random() < 0.4) {
        parks.push([bx, bz]);
        for (let t = 0; t < 30; t++) tree(x0 + 1 + random() * (blockSize - 2), z0 + 1 + random() * (blockSize - 2), 2 + random() * 4, 12, 4);
        continue;
      }
      // 2x2 lots per block, each a tower of its own height; some lots stay open (plazas).
      const lot = blockSize / 2;
      for (let lx = 0; lx < 2; lx++) {
        for (let lz = 0; lz < 2; lz++) {
          if (random() < 0.15) continue;
          const height = random() < 0.2 ? 30 + random() * 50 : 5 + random() * 20;
          const inset = 0.8 + random() * 1.5;
          const tone = 0.45 + random() * 0.4;
          add(x0 + lot * (lx + 0.5), height / 2, z0 + lot * (lz + 0.5), lot / 2 - inset, height / 2, lot / 2 - inset, packColor(tone, tone * (0.9 + random() * 0.1), tone * (0.85 + random() * 0.2)));
        }
      }
      // Props along the block's street side: posts and parked cars.
      for (let p = 0; p < 4; p++) {
        const along = z0 + random() * blockSize;
        if (random() < 0.5) add(x0 - 1.5, 1.5, along, 0.15, 1.5, 0.15, packColor(0.2, 0.2, 0.22));
        else add(x0 - 2.5, 0.7, along, 0.9, 0.7, 2, packColor(0.2 + random() * 0.6, 0.2 + random() * 0.3, 0.2 + random() * 0.6));
      }
      // Street trees along the block.
      for (let t = 0; t < 3; t++) tree(x0 - 3.5, z0 + (t + 0.5) * (blockSize / 3), 4, 9, 4);
    }
  }
  const data = new Float32Array(boxes);
  return {
    boxes: data,
    count: data.length / BOX_FLOATS,
    blocks,
    blockSize,
    streetWidth,
    street: (i) => -extent + i * pitch,
    extent,
    parks,
    block: (bx, bz) => {
      const x0 = -extent + bx * pitch + streetWidth / 2, z0 = -extent + bz * pitch + streetWidth / 2;
      return [x0, z0, x0 + blockSize, z0 + blockSize];
    },
  };
}

/** Options of {@link populateCity}: how many lights, decals and probes, and where. */
export interface CityEntityOptions {
  /** Seed of the random placement (default 7). */
  seed?: number;
  /** Lights to add (a non-negative integer). */
  lights: number;
  /** Share of spot lights among the lights (default 0.2). */
  spotShare?: number;
  /** Light ranges (default 3 to 12). */
  range?: [number, number];
  /** Decals on street crossings and probes per block (default 0 each). */
  decals?: number;
  /** Probes per block (default 0). */
  probes?: number;
  /** Share of the lights hung among the trees of parks (default 0.25), and their ranges (default 1 to 3: lanterns). */
  parkShare?: number;
  /** Ranges of the park lights (default 1 to 3). */
  parkRange?: [number, number];
}

/**
 * Adds lights along the streets (at street level, on facades and over roofs), decals on the
 * ground and probes over blocks to `entities`. Returns the light positions (xyz triplets) so
 * that callers can animate them.
 */
export function populateCity(city: City, entities: EntityList, options: CityEntityOptions): Float32Array<ArrayBuffer> {
  const random = seededRandom(options.seed ?? 7);
  const [rangeMin, rangeMax] = options.range ?? [3, 12];
  const spotShare = options.spotShare ?? 0.2;
  const lanes = city.blocks + 1;
  for (let d = 0; d < (options.decals ?? 0); d++) {
    const x = city.street(Math.floor(random() * lanes));
    const z = city.street(Math.floor(random() * lanes));
    entities.addDecal({ matrix: boxMatrix([x + (random() - 0.5) * 6, 0, z + (random() - 0.5) * 6], [1 + random() * 3, 0.6, 1 + random() * 3], random() * Math.PI), color: [0.6 + random() * 0.4, random() * 0.5, random() * 0.3, 0.85] });
  }
  const pitch = city.blockSize + city.streetWidth;
  for (let p = 0; p < (options.probes ?? 0); p++) {
    const bx = Math.floor(random() * city.blocks), bz = Math.floor(random() * city.blocks);
    const cx = city.street(bx) + pitch / 2, cz = city.street(bz) + pitch / 2;
    entities.addProbe({ matrix: boxMatrix([cx, 10, cz], [pitch / 2, 12, pitch / 2]), color: [0.05 + random() * 0.1, 0.05 + random() * 0.1, 0.08 + random() * 0.12, 0.8] });
  }
  const positions = new Float32Array(options.lights * 3);
  const parkShare = city.parks.length > 0 ? (options.parkShare ?? 0.25) : 0;
  const [parkMin, parkMax] = options.parkRange ?? [1, 3];
  for (let i = 0; i < options.lights; i++) {
    let x: number, z: number, height: number;
    let range = rangeMin + random() * (rangeMax - rangeMin);
    if (random() < parkShare) {
      range = parkMin + random() * (parkMax - parkMin);
      const [bx, bz] = city.parks[Math.floor(random() * city.parks.length)]!;
      const [x0, z0, x1, z1] = city.block(bx, bz);
      x = x0 + random() * (x1 - x0);
      z = z0 + random() * (z1 - z0);
      height = 0.5 + random() * 8;
    } else {
      const alongX = random() < 0.5;
      const lane = city.street(Math.floor(random() * lanes));
      const along = (random() * 2 - 1) * city.extent;
      const side = (random() - 0.5) * city.streetWidth;
      height = random() < 0.8 ? 0.5 + random() * 6 : 10 + random() * 40;
      x = alongX ? along : lane + side;
      z = alongX ? lane + side : along;
    }
    positions.set([x, height, z], i * 3);
    addRandomLight(entities, random, [x, height, z], range, { spotShare, lean: 0.6, cone: [0.3, 0.6], intensity: [12, 6] });
  }
  return positions;
}

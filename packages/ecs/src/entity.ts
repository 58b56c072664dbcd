import { INVALID_ENTITY, type Entity } from './api.ts';
import { EcsError } from './errors.ts';

const MASK31 = 0x7fffffff;

// A bijection on [0, 2^31): xor-shifts and odd multiplications mod 2^31 are each invertible,
// so distinct counters give distinct ids while the ids still look random.
function mix31(value: number): number {
  let x = value & MASK31;
  x ^= x >>> 16;
  x = Math.imul(x, 0x45d9f3b) & MASK31;
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d) & MASK31;
  x ^= x >>> 16;
  return x;
}

function randomSeed(): number {
  return (Math.random() * 0x100000000) >>> 0 || 1;
}

/**
 * Makes entity ids as the post does: random-looking 31-bit numbers, so that ids saved in one
 * session do not clash with ids made in the next. Unlike plain random draws, one generator
 * never repeats an id (it walks a random permutation of the 31-bit range), and the same seed
 * gives the same sequence, for tests and replays.
 */
export class EntityGenerator {
  #key: number;
  #offset: number;
  #counter = 0;
  #seedState: number;

  /** `seed`: any u32; left out, the generator seeds itself from `Math.random`. */
  constructor(seed: number = randomSeed()) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new EcsError(`EntityGenerator seed must be an integer in [0, 2^32), got ${seed}.`);
    }
    this.#key = mix31(seed ^ 0x5bd1e995);
    this.#offset = mix31(seed + 0x3c6ef372);
    this.#seedState = seed ^ 0x9e3779b9;
  }

  /** A new entity id in [1, 2^31), never returned before by this generator. */
  next(): Entity {
    for (;;) {
      if (this.#counter > MASK31) throw new EcsError('EntityGenerator exhausted its 2^31 ids; create a new generator.');
      const id = mix31(this.#offset + this.#counter++) ^ this.#key;
      if (id !== INVALID_ENTITY) return id;
    }
  }

  /** A non-zero u32 for `remapEntity`, one per load, drawn from this generator's stream. */
  nextSeed(): number {
    // mulberry32 step: a cheap, well-distributed 32-bit stream independent of the id walk.
    this.#seedState = (this.#seedState + 0x6d2b79f5) | 0;
    let t = this.#seedState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const seed = (t ^ (t >>> 14)) >>> 0;
    // Seeds 0 and 1 leave ids unchanged under remapEntity (it drops the seed's low bit).
    return seed < 2 ? seed + 2 : seed;
  }
}

const shared = /* @__PURE__ */ new EntityGenerator();

/** A new entity from the module's shared, randomly seeded generator. */
export function createEntity(): Entity {
  return shared.next();
}

/**
 * The post's per-load remap: `((entity << 1) ^ seed) >> 1`, i.e. the low 31 bits of the id
 * xor-ed with `seed >>> 1`. It is a bijection on 31-bit ids, so the ids of one archive stay
 * distinct, and two loads with different seeds give two copies; seed 0 (and 1) keep ids.
 */
export function remapEntity(entity: Entity, seed: number): Entity {
  if (entity === INVALID_ENTITY || seed === 0) return entity;
  return (((entity << 1) ^ seed) >>> 1);
}

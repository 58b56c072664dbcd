// The allocation storm: a deterministic script of allocate and free requests that every
// contender replays in the same order. The script owns the slots (one per live request) and
// their lifetimes; a contender only records where its allocator put each slot, so a request
// that fails in one allocator and succeeds in another does not change what comes next.

/** Size classes of a request; the picture colours blocks by them. */
export const SMALL = 1;
export const MEDIUM = 2;
export const LARGE = 3;

/** Most requests alive at once (the script skips a birth when every slot is taken). */
export const MAX_SLOTS = 4096;
/** Longest lifetime in steps; the timing wheel has one bucket per step up to it. */
const MAX_LIFETIME = 2047;
const WHEEL = MAX_LIFETIME + 1;
/** Most births in one step (the intensity slider's top). */
export const MAX_BIRTHS = 32;

/** mulberry32: tiny, fast, and the same sequence in every browser for a given seed. */
function nextRandom(state: Uint32Array): number {
  state[0] = (state[0]! + 0x6d2b79f5) >>> 0;
  let t = state[0];
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function logUniform(random: number, min: number, max: number): number {
  return Math.round(min * Math.pow(max / min, random));
}

/**
 * One step of the script at a time: `advance()` fills `deaths` (slots to free, in order) and
 * `births` (slots to allocate, with `size` and `sizeClass` per slot). Typed arrays throughout,
 * reused every step.
 */
export class StormScript {
  step = 0;
  /** Average births per step; the panel's slider sets it (the script stays deterministic per setting). */
  birthsPerStep = 6;
  readonly size = new Uint32Array(MAX_SLOTS);
  readonly sizeClass = new Uint8Array(MAX_SLOTS);
  readonly deaths = new Int32Array(MAX_SLOTS);
  deathCount = 0;
  readonly births = new Int32Array(MAX_BIRTHS);
  birthCount = 0;
  /** Live requests in the script (whether or not an allocator managed to place them). */
  liveSlots = 0;
  readonly #random = new Uint32Array(1);
  readonly #freeSlots = new Int32Array(MAX_SLOTS);
  #freeSlotCount = MAX_SLOTS;
  // Timing wheel: bucket (step % WHEEL) heads a chain of the slots that die at that step.
  readonly #wheelHead = new Int32Array(WHEEL).fill(-1);
  readonly #wheelNext = new Int32Array(MAX_SLOTS).fill(-1);

  constructor(seed: number) {
    this.#random[0] = seed;
    for (let i = 0; i < MAX_SLOTS; i++) this.#freeSlots[i] = MAX_SLOTS - 1 - i;
  }

  advance(): void {
    const random = this.#random;
    const bucket = this.step % WHEEL;
    this.deathCount = 0;
    for (let slot = this.#wheelHead[bucket]!; slot !== -1; slot = this.#wheelNext[slot]!) {
      this.deaths[this.deathCount++] = slot;
      this.#freeSlots[this.#freeSlotCount++] = slot;
    }
    this.#wheelHead[bucket] = -1;
    this.liveSlots -= this.deathCount;

    // Births vary around the average so the load breathes instead of sitting on one level.
    const wanted = Math.min(MAX_BIRTHS, Math.floor(this.birthsPerStep * 2 * nextRandom(random) + 0.5));
    this.birthCount = 0;
    for (let b = 0; b < wanted && this.#freeSlotCount > 0; b++) {
      const slot = this.#freeSlots[--this.#freeSlotCount]!;
      const kind = nextRandom(random);
      const r = nextRandom(random);
      const l = nextRandom(random);
      let size: number;
      let sizeClass: number;
      let lifetime: number;
      // A realistic mix: most requests are small and short-lived, some medium, few large.
      if (kind < 0.72) {
        sizeClass = SMALL;
        size = logUniform(r, 16, 256);
        lifetime = l < 0.2 ? 1 + Math.floor(l * 40) : logUniform(l, 8, 400);
      } else if (kind < 0.97) {
        sizeClass = MEDIUM;
        size = logUniform(r, 257, 4096);
        lifetime = logUniform(l, 20, 400);
      } else {
        sizeClass = LARGE;
        size = logUniform(r, 4097, 32768);
        lifetime = logUniform(l, 40, 600);
      }
      // A few residents of every class live for ages: the islands that fragment a heap.
      if (nextRandom(random) < 0.05) lifetime = 1500 + Math.floor(nextRandom(random) * (MAX_LIFETIME - 1500));
      this.size[slot] = size;
      this.sizeClass[slot] = sizeClass;
      const dies = (this.step + lifetime) % WHEEL;
      this.#wheelNext[slot] = this.#wheelHead[dies]!;
      this.#wheelHead[dies] = slot;
      this.births[this.birthCount++] = slot;
    }
    this.liveSlots += this.birthCount;
    this.step++;
  }
}

import { INVALID_ENTITY, type Entity } from './api.ts';

const MIN_CAPACITY = 16;

/**
 * Entity to index map: open addressing with linear probing on two typed arrays, Fibonacci
 * hashing, a load factor of at most one half, and backward-shift deletion (no tombstones, so
 * probe chains never rot under add/remove churn). INVALID_ENTITY (0) marks an empty slot,
 * which is why 0 can never be a key.
 */
export class EntityLookup {
  #keys: Uint32Array;
  #values: Int32Array;
  #mask: number;
  #shift: number;
  #size = 0;

  constructor(capacity = 0) {
    const slots = slotsFor(capacity);
    this.#keys = new Uint32Array(slots);
    this.#values = new Int32Array(slots);
    this.#mask = slots - 1;
    this.#shift = 32 - Math.log2(slots);
  }

  /** Keys stored. */
  get size(): number {
    return this.#size;
  }

  /** The value stored for `key`, or -1. */
  get(key: Entity): number {
    const keys = this.#keys;
    const mask = this.#mask;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift;
    for (;;) {
      const k = keys[slot]!;
      if (k === key) return this.#values[slot]!;
      if (k === INVALID_ENTITY) return -1;
      slot = (slot + 1) & mask;
    }
  }

  /** Whether `key` is stored. */
  has(key: Entity): boolean {
    return this.get(key) !== -1;
  }

  /** Inserts or overwrites. `key` must not be INVALID_ENTITY (callers validate). */
  set(key: Entity, value: number): void {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#rehash(this.#keys.length * 2);
    const keys = this.#keys;
    const mask = this.#mask;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift;
    for (;;) {
      const k = keys[slot]!;
      if (k === key) {
        this.#values[slot] = value;
        return;
      }
      if (k === INVALID_ENTITY) {
        keys[slot] = key;
        this.#values[slot] = value;
        this.#size++;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Inserts `key` unless it is present; returns whether it was inserted (one probe for both). */
  insertNew(key: Entity, value: number): boolean {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#rehash(this.#keys.length * 2);
    const keys = this.#keys;
    const mask = this.#mask;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift;
    for (;;) {
      const k = keys[slot]!;
      if (k === key) return false;
      if (k === INVALID_ENTITY) {
        keys[slot] = key;
        this.#values[slot] = value;
        this.#size++;
        return true;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Removes `key`; returns whether it was there. */
  delete(key: Entity): boolean {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    const shift = this.#shift;
    let slot = Math.imul(key, 0x9e3779b1) >>> shift;
    for (;;) {
      const k = keys[slot]!;
      if (k === INVALID_ENTITY) return false;
      if (k === key) break;
      slot = (slot + 1) & mask;
    }
    // Backward shift: pull later members of the probe chain into the hole when their home
    // slot does not lie cyclically between the hole and their current slot.
    let hole = slot;
    let next = (hole + 1) & mask;
    for (;;) {
      const k = keys[next]!;
      if (k === INVALID_ENTITY) break;
      const home = Math.imul(k, 0x9e3779b1) >>> shift;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        keys[hole] = k;
        values[hole] = values[next]!;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    keys[hole] = INVALID_ENTITY;
    this.#size--;
    return true;
  }

  /** Removes every key, keeping the table's capacity. */
  clear(): void {
    this.#keys.fill(0);
    this.#size = 0;
  }

  /** Grows the table so that `count` keys fit without a rehash. */
  reserve(count: number): void {
    const slots = slotsFor(count);
    if (slots > this.#keys.length) this.#rehash(slots);
  }

  #rehash(slots: number): void {
    const oldKeys = this.#keys;
    const oldValues = this.#values;
    this.#keys = new Uint32Array(slots);
    this.#values = new Int32Array(slots);
    this.#mask = slots - 1;
    this.#shift = 32 - Math.log2(slots);
    this.#size = 0;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i]!;
      if (k !== INVALID_ENTITY) this.set(k, oldValues[i]!);
    }
  }
}

function slotsFor(count: number): number {
  let slots = MIN_CAPACITY;
  while (slots < count * 2) slots *= 2;
  return slots;
}

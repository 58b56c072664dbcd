// Start unit -> node index of the used blocks of a TlsfCore. Open addressing with linear
// probing over two typed arrays and backward-shift deletion (no tombstones), so its memory
// follows the number of live allocations, not the size of the managed range: a 1 GiB
// GPUBuffer at a 16-byte granule would need 256 MiB as a flat table, and needs a few KiB here.

const EMPTY = 0xffffffff;
const MIN_SLOTS = 16;

export class UsedBlockMap {
  private keys: Uint32Array;
  private values: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(expected = 32) {
    let slots = MIN_SLOTS;
    while (slots < expected * 2) slots *= 2;
    this.keys = new Uint32Array(slots).fill(EMPTY);
    this.values = new Int32Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
  }

  get size(): number {
    return this.count;
  }

  /** The value stored for `key`, or -1. */
  get(key: number): number {
    const keys = this.keys;
    for (let i = this.slot(key); ; i = (i + 1) & this.mask) {
      const k = keys[i]!;
      if (k === key) return this.values[i]!;
      if (k === EMPTY) return -1;
    }
  }

  set(key: number, value: number): void {
    // Keep the load at or below one half: probes stay short.
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    for (let i = this.slot(key); ; i = (i + 1) & this.mask) {
      const k = keys[i]!;
      if (k === key) {
        this.values[i] = value;
        return;
      }
      if (k === EMPTY) {
        keys[i] = key;
        this.values[i] = value;
        this.count++;
        return;
      }
    }
  }

  /** Removes `key`; false when it was absent. */
  delete(key: number): boolean {
    const keys = this.keys;
    const mask = this.mask;
    let hole = this.slot(key);
    while (keys[hole] !== key) {
      if (keys[hole] === EMPTY) return false;
      hole = (hole + 1) & mask;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home slot
    // does not lie between the hole and their current slot.
    for (let j = (hole + 1) & mask; keys[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.slot(keys[j]!);
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!stays) {
        keys[hole] = keys[j]!;
        this.values[hole] = this.values[j]!;
        hole = j;
      }
    }
    keys[hole] = EMPTY;
    this.count--;
    return true;
  }

  clear(): void {
    this.keys.fill(EMPTY);
    this.count = 0;
  }

  private slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const slots = oldKeys.length * 2;
    this.keys = new Uint32Array(slots).fill(EMPTY);
    this.values = new Int32Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== EMPTY) this.set(oldKeys[i]!, oldValues[i]!);
  }
}

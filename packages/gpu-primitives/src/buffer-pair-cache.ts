/**
 * Values made once per (first, second) pair of GPUBuffers, typically bind groups. Weakly keyed:
 * an entry goes away with its buffers.
 */
export class BufferPairCache<T> {
  #entries = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, T>>();

  /** The value for (first, second), made by `make` on first use. */
  get(first: GPUBuffer, second: GPUBuffer, make: () => T): T {
    let bySecond = this.#entries.get(first);
    if (!bySecond) {
      bySecond = new WeakMap();
      this.#entries.set(first, bySecond);
    }
    let value = bySecond.get(second);
    if (value === undefined) {
      value = make();
      bySecond.set(second, value);
    }
    return value;
  }

  clear(): void {
    this.#entries = new WeakMap();
  }
}

// Records in source order with an id → record map beside them: iteration in the order the
// source writes them (it breaks ties in execution order), lookups in O(1).

export class OrderedTable<T> {
  readonly #items: T[] = [];
  readonly #byKey = new Map<string, T>();
  readonly #keyOf: (item: T) => string;
  #version = 0;

  constructor(keyOf: (item: T) => string, items: Iterable<T> = []) {
    this.#keyOf = keyOf;
    for (const item of items) this.insert(this.#items.length, item);
  }

  /** The records in order; the same array for the table's life, changed in place. */
  get items(): readonly T[] {
    return this.#items;
  }

  /** Counts changes: caches built from the table compare it. */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#items.length;
  }

  get(key: string): T | undefined {
    return this.#byKey.get(key);
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  indexOf(key: string): number {
    const item = this.#byKey.get(key);
    return item === undefined ? -1 : this.#items.indexOf(item);
  }

  insert(at: number, item: T): void {
    const key = this.#keyOf(item);
    if (this.#byKey.has(key)) throw new Error(`OrderedTable: "${key}" is already there`);
    if (!(at >= 0 && at <= this.#items.length)) throw new Error(`OrderedTable: index ${at} out of 0..${this.#items.length}`);
    this.#items.splice(at, 0, item);
    this.#byKey.set(key, item);
    this.#version++;
  }

  /** Removes the record; returns where it was and what it was. */
  remove(key: string): { at: number; item: T } {
    const at = this.indexOf(key);
    if (at < 0) throw new Error(`OrderedTable: no "${key}" to remove`);
    const item = this.#items[at]!;
    this.#items.splice(at, 1);
    this.#byKey.delete(key);
    this.#version++;
    return { at, item };
  }

  /** Puts `item` in place of the record with its key; returns the old record. */
  replace(item: T): T {
    const key = this.#keyOf(item);
    const at = this.indexOf(key);
    if (at < 0) throw new Error(`OrderedTable: no "${key}" to replace`);
    const old = this.#items[at]!;
    this.#items[at] = item;
    this.#byKey.set(key, item);
    this.#version++;
    return old;
  }
}

import type { FieldArrays, FieldType, Schema, TypedArray } from './api.ts';
import { ComponentManager } from './component-manager.ts';
import { EcsError } from './errors.ts';

interface TypedArrayConstructor {
  new (length: number): TypedArray;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray;
}

const CONSTRUCTORS: Readonly<Record<FieldType, TypedArrayConstructor>> = {
  f32: Float32Array,
  f64: Float64Array,
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  entity: Uint32Array,
};

/** One compiled schema field: what serialization and the storage loops need to know. */
export interface FieldLayout {
  /** The field's name in the schema. */
  readonly name: string;
  /** The field's element type. */
  readonly type: FieldType;
  /** Elements per component. */
  readonly length: number;
  /** Bytes per element: 1, 2, 4 or 8. */
  readonly bytesPerElement: number;
  /** Per-element default, or null when every element starts at zero. */
  readonly defaults: Float64Array | null;
}

/** Validates a schema and compiles it into field layouts, in the schema's key order. */
export function compileSchema(schema: Schema): FieldLayout[] {
  if (typeof schema !== 'object' || Object.keys(schema).length === 0) {
    throw new EcsError('a schema needs at least one field, e.g. { x: "f32" }.');
  }
  return Object.keys(schema).map((name) => {
    const definition = schema[name]!;
    const spec = typeof definition === 'string' ? { type: definition } : definition;
    const type = spec.type;
    if (!(type in CONSTRUCTORS)) throw new EcsError(`field "${name}" has unknown type "${type}"; use f32, f64, i8, u8, i16, u16, i32, u32 or entity.`);
    const length = spec.length ?? 1;
    if (!Number.isInteger(length) || length < 1 || length > 0xffff) throw new EcsError(`field "${name}" length must be an integer in [1, 65535], got ${length}.`);
    let defaults: Float64Array | null = null;
    if (spec.default !== undefined) {
      const given = spec.default;
      if (typeof given === 'number') defaults = new Float64Array(length).fill(given);
      else if (given.length === length) defaults = Float64Array.from(given);
      else throw new EcsError(`field "${name}" default has ${given.length} values; it needs ${length}.`);
      if (type === 'entity' && defaults.some((v) => v !== 0)) throw new EcsError(`entity field "${name}" must default to INVALID_ENTITY (0).`);
      if (defaults.every((v) => v === 0)) defaults = null;
    }
    return { name, type, length, bytesPerElement: new CONSTRUCTORS[type](0).BYTES_PER_ELEMENT, defaults };
  });
}

/** A typed array of `type` with `length` elements. */
export function allocateField(type: FieldType, length: number): TypedArray {
  return new CONSTRUCTORS[type](length);
}

/** A typed array of `type` viewing `length` elements of `buffer` in place. */
export function viewField(type: FieldType, buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray {
  return new CONSTRUCTORS[type](buffer, byteOffset, length);
}

/**
 * A ComponentManager whose components are rows of numeric fields, stored as one typed array
 * per field (structure of arrays). A system is a loop over `fields`:
 *
 * ```ts
 * const { y } = positions.fields;
 * for (let i = 0; i < positions.count; i++) y[i]! += 1;
 * ```
 */
export class SchemaComponentManager<S extends Schema = Schema> extends ComponentManager {
  /** Always `'schema'`: tells schema managers from object ones. */
  readonly kind = 'schema';
  /** The schema the manager was made with. */
  readonly schema: S;
  /** Compiled fields, in schema order. */
  readonly layout: readonly FieldLayout[];
  /** The columns. The object stays the same; its arrays are replaced when the manager grows. */
  readonly fields: FieldArrays<S>;
  readonly #columns: TypedArray[];
  readonly #stash: TypedArray[];
  /** Row copies for permuteTail, allocated on first use. */
  #scratch: TypedArray[] | null = null;

  constructor(schema: S, capacity = 0) {
    super();
    this.schema = schema;
    this.layout = compileSchema(schema);
    this.#columns = this.layout.map((f) => allocateField(f.type, 0));
    this.#stash = this.layout.map((f) => allocateField(f.type, f.length));
    this.fields = {} as FieldArrays<S>;
    this.#publish();
    if (capacity > 0) this.reserve(capacity);
  }

  /**
   * Adds a component for `entity` with every field at its default; returns its row. Growth
   * replaces the field arrays, so write `const row = m.create(e); m.fields.x[row] = 1`:
   * `m.fields.x[m.create(e)] = 1` would write into the array from before the growth.
   */
  create(entity: number): number {
    const index = this.addRow(entity);
    const layout = this.layout;
    const columns = this.#columns;
    for (let f = 0; f < layout.length; f++) {
      const { length, defaults } = layout[f]!;
      const column = columns[f]!;
      const base = index * length;
      if (defaults === null) column.fill(0, base, base + length);
      else for (let k = 0; k < length; k++) column[base + k] = defaults[k]!;
    }
    return index;
  }

  /**
   * Bulk create: appends components for `entities`, copying field `f` from `columns[f]`
   * (schema order, `entities.length * length` elements each). The loader's fast path.
   * Throws, changing nothing, if an entity is invalid, already present or listed twice.
   */
  createFromColumns(entities: ArrayLike<number>, columns: readonly TypedArray[]): number {
    const layout = this.layout;
    if (columns.length !== layout.length) throw new EcsError(`createFromColumns needs ${layout.length} columns, got ${columns.length}.`);
    for (let f = 0; f < layout.length; f++) {
      if (columns[f]!.length < entities.length * layout[f]!.length) throw new EcsError(`column "${layout[f]!.name}" has ${columns[f]!.length} elements; ${entities.length * layout[f]!.length} needed.`);
    }
    const start = this.addRows(entities);
    for (let f = 0; f < layout.length; f++) {
      const length = layout[f]!.length;
      this.#columns[f]!.set(columns[f]!.subarray(0, entities.length * length), start * length);
    }
    return start;
  }

  /** The column of field `name` (same as `fields[name]`), throwing for an unknown name. */
  column(name: string): TypedArray {
    const f = this.layout.findIndex((field) => field.name === name);
    if (f === -1) throw new EcsError(`no field "${name}" in this schema; it has ${this.layout.map((x) => x.name).join(', ')}.`);
    return this.#columns[f]!;
  }

  /** An empty manager with the same schema (for staging loads). */
  emptyClone(): SchemaComponentManager<S> {
    return new SchemaComponentManager(this.schema);
  }

  #publish(): void {
    const target = this.fields as Record<string, TypedArray>;
    for (let f = 0; f < this.layout.length; f++) target[this.layout[f]!.name] = this.#columns[f]!;
  }

  /** {@inheritDoc ComponentManager.growStorage} */
  protected growStorage(capacity: number): void {
    const count = this.count;
    for (let f = 0; f < this.layout.length; f++) {
      const { type, length } = this.layout[f]!;
      const next = allocateField(type, capacity * length);
      next.set(this.#columns[f]!.subarray(0, count * length));
      this.#columns[f] = next;
    }
    this.#publish();
  }

  /** {@inheritDoc ComponentManager.copyRow} */
  protected copyRow(from: number, to: number): void {
    for (let f = 0; f < this.layout.length; f++) {
      const length = this.layout[f]!.length;
      const column = this.#columns[f]!;
      if (length === 1) column[to] = column[from]!;
      else column.copyWithin(to * length, from * length, from * length + length);
    }
  }

  /** {@inheritDoc ComponentManager.moveRows} */
  protected moveRows(target: number, start: number, end: number): void {
    for (let f = 0; f < this.layout.length; f++) {
      const length = this.layout[f]!.length;
      this.#columns[f]!.copyWithin(target * length, start * length, end * length);
    }
  }

  /** {@inheritDoc ComponentManager.stashRow} */
  protected stashRow(index: number): void {
    for (let f = 0; f < this.layout.length; f++) {
      const length = this.layout[f]!.length;
      this.#stash[f]!.set(this.#columns[f]!.subarray(index * length, index * length + length));
    }
  }

  /** {@inheritDoc ComponentManager.unstashRow} */
  protected unstashRow(index: number): void {
    for (let f = 0; f < this.layout.length; f++) this.#columns[f]!.set(this.#stash[f]!, index * this.layout[f]!.length);
  }

  /** {@inheritDoc ComponentManager.gatherRows} */
  protected gatherRows(start: number, order: ArrayLike<number>): void {
    const rows = order.length;
    let scratchColumns = this.#scratch;
    if (scratchColumns === null || scratchColumns[0]!.length < rows * this.layout[0]!.length) {
      scratchColumns = this.layout.map((f) => allocateField(f.type, rows * f.length));
      this.#scratch = scratchColumns;
    }
    for (let f = 0; f < this.layout.length; f++) {
      const length = this.layout[f]!.length;
      const column = this.#columns[f]!;
      const scratch = scratchColumns[f]!;
      scratch.set(column.subarray(start * length, (start + rows) * length));
      for (let k = 0; k < rows; k++) {
        const from = (order[k]! - start) * length;
        const to = (start + k) * length;
        for (let e = 0; e < length; e++) column[to + e] = scratch[from + e]!;
      }
    }
  }

  /** {@inheritDoc ComponentManager.releaseRows} */
  protected releaseRows(): void {
    // Numeric rows need no release: create() overwrites every element.
  }

  /** {@inheritDoc ComponentManager.appendRows} */
  protected appendRows(other: this, count: number): void {
    const start = this.count;
    for (let f = 0; f < this.layout.length; f++) {
      const length = this.layout[f]!.length;
      this.#columns[f]!.set(other.#columns[f]!.subarray(0, count * length), start * length);
    }
  }

  /** {@inheritDoc ComponentManager.checkCompatible} */
  protected checkCompatible(other: this): void {
    if (!(other instanceof SchemaComponentManager)) throw new EcsError('copy/merge needs two schema managers.');
    if (!sameLayout(this.layout, other.layout)) throw new EcsError('copy/merge needs managers with the same schema (field names, types and lengths).');
  }
}

/** Whether two layouts have the same fields in the same order. */
export function sameLayout(a: readonly FieldLayout[], b: readonly FieldLayout[]): boolean {
  if (a.length !== b.length) return false;
  for (let f = 0; f < a.length; f++) {
    const x = a[f]!;
    const y = b[f]!;
    if (x.name !== y.name || x.type !== y.type || x.length !== y.length) return false;
  }
  return true;
}

import type { Memory } from './api.ts';
import type { Allocator } from './allocator.ts';
import { AllocationArgumentError } from './errors.ts';
import { memoryOf, type TypedArrayConstructor } from './views.ts';
import { checkPositiveInteger } from './validate.ts';

/** Scalar field types of a record, WGSL-style names. */
export type FieldType = 'f32' | 'f64' | 'i32' | 'u32' | 'i16' | 'u16' | 'i8' | 'u8';

/** A field: one scalar, or `[type, count]` for a small fixed array (a vec3 is `['f32', 3]`). */
export type FieldSpec = FieldType | readonly [FieldType, number];

/** A record's fields by name, in declaration order: the argument of {@link defineRecord}. */
export type RecordSpec = Readonly<Record<string, FieldSpec>>;

interface ArrayOf {
  f32: Float32Array;
  f64: Float64Array;
  i32: Int32Array;
  u32: Uint32Array;
  i16: Int16Array;
  u16: Uint16Array;
  i8: Int8Array;
  u8: Uint8Array;
}

type TypeOf<F extends FieldSpec> = F extends FieldType ? F : F extends readonly [infer T, number] ? T : never;

/** One typed-array view per field of one record. */
export type RecordViews<S extends RecordSpec> = { [K in keyof S]: ArrayOf[TypeOf<S[K]> & FieldType] };

/** Where one field sits in a record, from {@link defineRecord}. */
export interface FieldLayout {
  /** The field's scalar element type. */
  type: FieldType;
  /** Byte offset inside the record. */
  offset: number;
  /** Elements (1 for a scalar). */
  count: number;
}

/** A fixed record layout: fields in declaration order, each aligned to its element size. */
export interface RecordLayout<S extends RecordSpec> {
  /** The spec the layout was made from. */
  readonly spec: S;
  /** Each field's type, byte offset and element count. */
  readonly fields: { readonly [K in keyof S]: FieldLayout };
  /** Bytes per record, rounded up to `align` so arrays of records stay aligned. */
  readonly size: number;
  /** Alignment of the record in bytes: the largest element size of its fields (1, 2, 4 or 8). */
  readonly align: number;
}

const ELEMENT_BYTES: Record<FieldType, number> = { f32: 4, f64: 8, i32: 4, u32: 4, i16: 2, u16: 2, i8: 1, u8: 1 };

const VIEW_TYPES = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  i16: Int16Array,
  u16: Uint16Array,
  i8: Int8Array,
  u8: Uint8Array,
} as const;

/** Lays out a record: `defineRecord({ position: ['f32', 3], id: 'u32' })`. */
export function defineRecord<S extends RecordSpec>(spec: S): RecordLayout<S> {
  const fields: Record<string, FieldLayout> = {};
  let offset = 0;
  let align = 1;
  for (const [name, field] of Object.entries(spec)) {
    const [type, count] = typeof field === 'string' ? [field, 1] : field;
    const bytes = ELEMENT_BYTES[type] as number | undefined;
    if (bytes === undefined) throw new AllocationArgumentError(`defineRecord: field ${name} has unknown type ${type as string}.`);
    checkPositiveInteger('defineRecord', `count of field ${name}`, count);
    offset = Math.ceil(offset / bytes) * bytes;
    fields[name] = { type, offset, count };
    offset += bytes * count;
    align = Math.max(align, bytes);
  }
  if (offset === 0) throw new AllocationArgumentError('defineRecord: a record needs at least one field.');
  return { spec, fields: fields as RecordLayout<S>['fields'], size: Math.ceil(offset / align) * align, align };
}

/** Allocates `count` consecutive records and returns the offset of the first. */
export function allocateRecords<S extends RecordSpec>(allocator: Allocator, layout: RecordLayout<S>, count = 1): number {
  checkPositiveInteger('allocateRecords', 'count', count);
  return allocator.allocate(layout.size * count, Math.max(layout.align, 4));
}

/** Frees records from allocateRecords. */
export function deallocateRecords(allocator: Allocator, offset: number): void {
  allocator.deallocate(offset);
}

/** Views of every field of record `index` in the array at `offset`: reads and writes go to memory directly. */
export function recordViews<S extends RecordSpec>(source: Allocator | Memory, layout: RecordLayout<S>, offset: number, index = 0): RecordViews<S> {
  const memory = source instanceof ArrayBuffer || source instanceof SharedArrayBuffer ? source : memoryOf(source);
  const start = offset + index * layout.size;
  if (!Number.isInteger(start) || start < 0 || start + layout.size > memory.byteLength || start % layout.align !== 0) {
    throw new AllocationArgumentError(`recordViews: record ${index} at offset ${offset} is outside the memory or misaligned.`);
  }
  const views: Record<string, ArrayBufferView> = {};
  for (const name of Object.keys(layout.fields)) {
    const field = layout.fields[name]!;
    const View = VIEW_TYPES[field.type] as TypedArrayConstructor<ArrayBufferView>;
    views[name] = new View(memory, start + field.offset, field.count);
  }
  return views as RecordViews<S>;
}

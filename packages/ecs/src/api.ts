/** A 32-bit unsigned entity id. Zero is reserved: see `INVALID_ENTITY`. */
export type Entity = number;

/** The entity handle that refers to nothing, the default of every entity field. */
export const INVALID_ENTITY: Entity = 0;

/** Numeric element types a schema field can hold; each maps to the typed array of that width. */
export type ScalarType = 'f32' | 'f64' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32';

/** A field's element type: a number, or `entity` (a u32 that serialization remaps). */
export type FieldType = ScalarType | 'entity';

/** The full form of a schema field: a scalar or a fixed-size vector/matrix, with a default. */
export interface FieldSpec {
  /** The element type. */
  readonly type: FieldType;
  /** Elements per component (3 for a vec3, 16 for a mat4); 1 when left out. */
  readonly length?: number;
  /** Value written into a new component: one number for every element, or one per element. */
  readonly default?: number | readonly number[];
}

/** A field is written either as its bare type (`'f32'`) or as a `FieldSpec`. */
export type FieldDefinition = FieldType | FieldSpec;

/** Field names to definitions: the layout of one schema component type. */
export type Schema = Readonly<Record<string, FieldDefinition>>;

/** The typed array that stores each field type. */
export interface TypedArrayByType {
  /** `'f32'`: 32-bit floats. */
  f32: Float32Array;
  /** `'f64'`: 64-bit floats. */
  f64: Float64Array;
  /** `'i8'`: signed bytes. */
  i8: Int8Array;
  /** `'u8'`: unsigned bytes. */
  u8: Uint8Array;
  /** `'i16'`: signed 16-bit integers. */
  i16: Int16Array;
  /** `'u16'`: unsigned 16-bit integers. */
  u16: Uint16Array;
  /** `'i32'`: signed 32-bit integers. */
  i32: Int32Array;
  /** `'u32'`: unsigned 32-bit integers. */
  u32: Uint32Array;
  /** `'entity'`: entity ids (u32), remapped by serialization. */
  entity: Uint32Array;
}

/** Any typed array a schema field is stored in. */
export type TypedArray = TypedArrayByType[FieldType];

type FieldTypeOf<D> = D extends FieldType ? D : D extends { readonly type: infer T extends FieldType } ? T : never;

/**
 * One typed array per field, `count * length` elements long: component `i` of a vec3 field
 * lives at `[3 * i, 3 * i + 3)`. The arrays are replaced when the manager grows.
 */
export type FieldArrays<S extends Schema> = { readonly [K in keyof S]: TypedArrayByType[FieldTypeOf<S[K]>] };

/** Field ids in archives; the order is part of the archive format. */
export const FIELD_TYPES: readonly FieldType[] = ['f32', 'f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'entity'];

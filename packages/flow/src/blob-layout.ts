// The compiled file format: one ArrayBuffer holding the static blob (header, node records,
// constants, tables, strings) followed, 8-byte aligned, by the dynamic template that every
// instance copies. All references are offsets, so the bytes can be copied, saved and loaded
// without fixups. Words are little-endian int32; values and constants are float64.

/** "FLOW" read as a little-endian int32: a big-endian reader sees it reversed and rejects it. */
export const FLOW_MAGIC = 0x574f4c46;
export const FLOW_FORMAT_VERSION = 1;

/** Header words (int32 indices from the start of the blob). */
export const H = {
  magic: 0,
  version: 1,
  /** Bytes of the static section; the dynamic template starts here. */
  staticBytes: 2,
  dynamicSlots: 3,
  nodeCount: 4,
  /** [count, (node word offset, id string)*] in source order. */
  nodeTable: 5,
  /** [count, node*] per built-in event: level loaded, unit spawned, collision. */
  levelLoaded: 6,
  unitSpawned: 7,
  collision: 8,
  /** [count, (name string, list word offset)*]; each list is [count, node*]. */
  externalTable: 9,
  /** [count, node*]: delays and timers that update(dt) advances, in source order. */
  tickList: 10,
  /** [count, (byte offset, byte length)*] of UTF-8 strings; index 0 is always "". */
  stringTable: 11,
  /** [count, (name string, input count, output count)*]: host actions bound at load. */
  actionTable: 12,
  /** [count, (name string, slot, value type)*]: graph variables. */
  variableTable: 13,
  kind: 14,
  name: 15,
} as const;
export const HEADER_WORDS = 16;

/** Fixed words at the start of every node record (word offsets from the node's start). */
export const N = {
  op: 0,
  /** Word offset of [count, pure node*] evaluated before the node runs; 0 when none. */
  prelude: 1,
  inputs: 2,
  outputs: 3,
  state: 4,
  eventOutputs: 5,
  /** Type specific: action index, external name, compare operator, variable slot. */
  extra: 6,
  /** Word offset of the node's first event-output word (saves the runtime adding counts). */
  events: 7,
} as const;
/**
 * After the fixed words: one word per variable input (>= 0: dynamic slot; < 0: ~index of an
 * inline float64 constant in the static blob), one per output slot, one per state slot, and
 * one per event output (word offset of [count, (node, event input)*], or 0 when unlinked).
 */
export const NODE_FIXED_WORDS = 8;

/** Node type ids: the runtime switches on these. */
export const Op = {
  levelLoaded: 1,
  unitSpawned: 2,
  collision: 3,
  external: 4,
  timer: 5,
  branch: 10,
  and: 11,
  or: 12,
  not: 13,
  compare: 14,
  gate: 15,
  once: 16,
  counter: 17,
  sequence: 18,
  delay: 19,
  add: 30,
  sub: 31,
  mul: 32,
  div: 33,
  min: 34,
  max: 35,
  neg: 36,
  abs: 37,
  sqrt: 38,
  floor: 39,
  sin: 40,
  cos: 41,
  lerp: 42,
  clamp: 43,
  variableGet: 50,
  variableSet: 51,
  action: 60,
} as const;

export const COMPARE_OPS = ['<', '<=', '==', '!=', '>=', '>'] as const;

export const VALUE_TYPE_CODES = { float: 0, int: 1, bool: 2, unit: 3, string: 4 } as const;

export const GRAPH_KIND_CODES = { unit: 0, level: 1 } as const;

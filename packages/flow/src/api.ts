// Shared types of @cuttle/flow: the source format (what artists' tools write), the node type
// registry (what the game declares), and the handful of constants both sides agree on.

/**
 * The type of a variable socket. Every value lives in one 8-byte slot as a number: floats and
 * ints as themselves, bools as 0/1, units as the host's entity id, strings as an index into the
 * compiled graph's string table.
 */
export type FlowValueType = 'float' | 'int' | 'bool' | 'unit' | 'string';

export const FLOW_VALUE_TYPES: readonly FlowValueType[] = ['float', 'int', 'bool', 'unit', 'string'];

/** What a graph is attached to: one graph per unit (entity) type, one per level. */
export type FlowGraphKind = 'unit' | 'level';

/** A constant on an input, as written in the source file. */
export type FlowConstant = number | boolean | string;

/** A graph variable: a named value every node of the graph can read (variable/get) or write. */
export interface FlowVariableSource {
  type: FlowValueType;
  /** Initial value; the type's zero when left out. */
  value?: FlowConstant;
}

export interface FlowNodeSource {
  /** Unique within the graph; links and error messages name nodes by it. */
  id: string;
  /** A registered node type, e.g. 'logic/branch' or 'action/spawn_effect'. */
  type: string;
  /** Constants on variable inputs, by input name. A linked input must not also have one. */
  inputs?: Record<string, FlowConstant>;
  /** Per-node settings that are not sockets (variable name, external event name, ...). */
  settings?: Record<string, FlowConstant>;
}

/** A link from an output socket to an input socket, each written "nodeId.socket". */
export interface FlowLinkSource {
  from: string;
  to: string;
}

/** A graph source file (JSON or SJSON); flow-graph.schema.json describes the same shape. */
export interface FlowGraphSource {
  /** Format version: 1. */
  flow: 1;
  kind: FlowGraphKind;
  name?: string;
  variables?: Record<string, FlowVariableSource>;
  /** Nodes in source order; the order breaks every tie in execution order. */
  nodes: FlowNodeSource[];
  /** Event links (black in the post): which event output triggers which event input. */
  events?: FlowLinkSource[];
  /** Variable links (blue in the post): which output value feeds which input. */
  links?: FlowLinkSource[];
}

/** A variable socket of a node type. */
export interface FlowSocketSpec {
  name: string;
  type: FlowValueType;
  /** Value of an unlinked input without a constant (the type's zero when left out). */
  default?: FlowConstant;
}

/** Reads the inputs and writes the outputs of one host action call; reused, never allocated per call. */
export interface FlowActionCall {
  /** The instance whose graph is running. */
  readonly instance: FlowInstanceHandle;
  /** Input `index` as a number (floats, ints, units; bools as 0/1). */
  number(index: number): number;
  bool(index: number): boolean;
  /** Input `index` of type 'string'. */
  string(index: number): string;
  /** Sets output `index` (bools as 0/1 or true/false). */
  set(index: number, value: number | boolean): void;
}

/** What an action sees of the instance that runs it. */
export interface FlowInstanceHandle {
  /** The unit (entity) id the instance was created for, or -1 for a level graph. */
  readonly unit: number;
  /** Free for the host: a game object index, a team... */
  user: number;
}

/** A function the game registers for artists to call from graphs (the post's Lua actions). */
export interface FlowActionSpec {
  /** Becomes the node type 'action/<name>'. */
  name: string;
  inputs?: readonly FlowSocketSpec[];
  outputs?: readonly FlowSocketSpec[];
  /** Runs synchronously when the node's `in` event fires; `out` fires after it returns. */
  run: (call: FlowActionCall) => void;
}

/** A per-node setting: configuration fixed at compile time, not a socket. */
export interface FlowSettingSpec {
  name: string;
  type: 'bool' | 'string';
  /** Used when the node leaves the setting out; a setting without one is required. */
  default?: boolean | string;
  /** Allowed values of a string setting. */
  oneOf?: readonly string[];
}

/** A node type as the registry describes it to tools and to the compiler. */
export interface FlowNodeTypeInfo {
  name: string;
  /** Event inputs ('in', 'reset', ...); a node without any is pure and evaluated on demand. */
  eventInputs: readonly string[];
  eventOutputs: readonly string[];
  inputs: readonly FlowSocketSpec[];
  outputs: readonly FlowSocketSpec[];
  settings: readonly FlowSettingSpec[];
  /** The 'value' socket takes the type of the graph variable named by the 'variable' setting (variable/get, variable/set). */
  variableTyped?: boolean;
  /** One line for editors and docs. */
  description: string;
}

/** Built-in events a host fires into an instance. */
export type FlowBuiltinEvent = 'level_loaded' | 'unit_spawned' | 'collision';

/** Sizes of a compiled graph, for budgets and reports. */
export interface FlowProgramStats {
  nodes: number;
  /** Bytes of the shared static blob (header, nodes, constants, strings). */
  staticBytes: number;
  /** Bytes each instance owns: its copy of the dynamic template. */
  dynamicBytes: number;
  strings: number;
}

// Shared types of @cuttle/flow: the source format (what artists' tools write), the node type
// registry (what the game declares), and the handful of constants both sides agree on.

/**
 * The type of a variable socket. Every value lives in one 8-byte slot as a number: floats and
 * ints as themselves, bools as 0/1, units as the host's entity id, strings as an index into the
 * compiled graph's string table.
 */
export type FlowValueType = 'float' | 'int' | 'bool' | 'unit' | 'string';

/** Every {@link FlowValueType}. */
export const FLOW_VALUE_TYPES: readonly FlowValueType[] = ['float', 'int', 'bool', 'unit', 'string'];

/** What a graph is attached to: one graph per unit (entity) type, one per level. */
export type FlowGraphKind = 'unit' | 'level';

/** A constant on an input, as written in the source file. */
export type FlowConstant = number | boolean | string;

/** A graph variable: a named value every node of the graph can read (variable/get) or write. */
export interface FlowVariableSource {
  /** The variable's value type. */
  type: FlowValueType;
  /** Initial value; the type's zero when left out. */
  value?: FlowConstant;
}

/** One node of a graph source: its id, its type, and constants and settings on it. */
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
  /** The output socket, as `"nodeId.socket"`. */
  from: string;
  /** The input socket, as `"nodeId.socket"`. */
  to: string;
}

/** A graph source file (JSON or SJSON); flow-graph.schema.json describes the same shape. */
export interface FlowGraphSource {
  /** Format version: 1. */
  flow: 1;
  /** What the graph is attached to: a unit type or a level. */
  kind: FlowGraphKind;
  /** A name for messages and tools (the compiled program's `name`; default `''`). */
  name?: string;
  /** The graph's variables, by name. */
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
  /** The socket's name, unique among the node type's inputs (or outputs); links write it after the node id. */
  name: string;
  /** The socket's value type; a link joins sockets of the same type. */
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
  /** Input `index` of type `'bool'` (any non-zero number reads as true). */
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
  /** The action's variable inputs, in the order `FlowActionCall` reads them by index (default none). */
  inputs?: readonly FlowSocketSpec[];
  /** The action's variable outputs, in the order `FlowActionCall.set` writes them by index (default none). */
  outputs?: readonly FlowSocketSpec[];
  /** Runs synchronously when the node's `in` event fires; `out` fires after it returns. */
  run: (call: FlowActionCall) => void;
}

/** A per-node setting: configuration fixed at compile time, not a socket. */
export interface FlowSettingSpec {
  /** The setting's name, as a node's `settings` writes it. */
  name: string;
  /** The setting's value type. */
  type: 'bool' | 'string';
  /** Used when the node leaves the setting out; a setting without one is required. */
  default?: boolean | string;
  /** Allowed values of a string setting. */
  oneOf?: readonly string[];
}

/** A node type as the registry describes it to tools and to the compiler. */
export interface FlowNodeTypeInfo {
  /** The node type's name, e.g. `'logic/branch'`. */
  name: string;
  /** Event inputs ('in', 'reset', ...); a node without any is pure and evaluated on demand. */
  eventInputs: readonly string[];
  /** Event outputs (`'out'`, `'true'`, ...), which trigger linked event inputs. */
  eventOutputs: readonly string[];
  /** Variable inputs, in index order. */
  inputs: readonly FlowSocketSpec[];
  /** Variable outputs, in index order. */
  outputs: readonly FlowSocketSpec[];
  /** Per-node settings fixed at compile time. */
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
  /** Nodes in the graph. */
  nodes: number;
  /** Bytes of the shared static blob (header, nodes, constants, strings). */
  staticBytes: number;
  /** Bytes each instance owns: its copy of the dynamic template. */
  dynamicBytes: number;
  /** Entries of the string table (names and string constants). */
  strings: number;
}

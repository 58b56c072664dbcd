// Pin values a host reports from a running instance, and how the view words them on hover
// (DOM-free, unit-tested). Values are looked up only when a pin is hovered, so a host may hand
// over the runtime's live arrays once per frame without the view copying or formatting anything.
import type { FlowValueType } from '@cuttle/flow';
import { FlowEditorError } from '../errors.ts';

/** One pin's value as a host reports it: a number (the runtime's form), a bool, a string, a vector. NaN, null or undefined: never ran. */
export type FlowPinValue = number | boolean | string | bigint | null | undefined | ArrayLike<number> | { readonly x: number; readonly y: number; readonly z?: number; readonly w?: number };

/**
 * Values per node, by node id. Either a map from node id to the node's data pins' values (its
 * data inputs, then its data outputs, in the order `doc.pins` lists them: the runtime's order), or
 * the runtime watch's flat arrays as they are: `ids[i]` names node i, its values at
 * `values[start[i]] .. values[start[i + 1]]` (`FlowWatch.pinValues`, `pinStart`). `strings`, when
 * given, turns a number on a string pin back into its text (the program's string table).
 */
export type FlowPinValues =
  | ReadonlyMap<string, ArrayLike<FlowPinValue>>
  | { readonly ids: readonly string[]; readonly values: ArrayLike<number>; readonly start: ArrayLike<number>; readonly strings?: readonly string[] };

/** Per-node counts a host reports: a map from node id to executions, or `ids[i]` naming `counts[i]` (`FlowWatch.runs` as it is). */
export type FlowNodeCounts = ReadonlyMap<string, number> | { readonly ids: readonly string[]; readonly counts: ArrayLike<number> };

const MAX_STRING = 32;
const MAX_COMPONENTS = 4;

/** A number in at most about 6 characters: integers as they are, others to 4 significant digits, extremes in exponent form. */
export function compactNumber(v: number): string {
  if (Number.isNaN(v)) return '—';
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '-∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e7) return String(v);
  if (a >= 1e6 || a < 1e-3) return v.toExponential(2).replace('e+', 'e');
  return String(Number(v.toPrecision(4)));
}

function isArrayLike(value: object): value is ArrayLike<number> {
  return typeof (value as { length?: unknown }).length === 'number';
}

function vector(components: ArrayLike<unknown>): string {
  const shown: string[] = [];
  const n = Math.min(components.length, MAX_COMPONENTS);
  for (let i = 0; i < n; i++) {
    const c = components[i];
    shown.push(typeof c === 'number' ? compactNumber(c) : '?');
  }
  return `(${shown.join(', ')}${components.length > MAX_COMPONENTS ? ', …' : ''})`;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > MAX_STRING ? `${text.slice(0, MAX_STRING - 1)}…` : text);
}

/**
 * A pin value in a few characters, read with the pin's type where the value is the runtime's
 * number: bools as true/false, strings through the string table, units as `unit 8`. '—' for a
 * value that is missing or NaN (the node has not run).
 */
export function formatPinValue(value: unknown, valueType?: FlowValueType, strings?: readonly string[]): string {
  if (value === undefined || value === null) return '—';
  switch (typeof value) {
    case 'boolean':
      return String(value);
    case 'string':
      return quoted(value);
    case 'bigint':
      return String(value);
    case 'number': {
      if (Number.isNaN(value)) return '—';
      if (valueType === 'bool') return value !== 0 ? 'true' : 'false';
      if (valueType === 'string') {
        const text = Number.isInteger(value) ? strings?.[value] : undefined;
        return text === undefined ? `string #${compactNumber(value)}` : quoted(text);
      }
      if (valueType === 'unit') return value < 0 ? 'no unit' : `unit ${compactNumber(value)}`;
      return compactNumber(value);
    }
    case 'object': {
      if (isArrayLike(value)) return vector(value);
      const v = value as { x?: unknown; y?: unknown; z?: unknown; w?: unknown };
      if (typeof v.x === 'number' && typeof v.y === 'number') return vector(v.w !== undefined ? [v.x, v.y, v.z, v.w] : v.z !== undefined ? [v.x, v.y, v.z] : [v.x, v.y]);
      return '…';
    }
    default:
      return '…';
  }
}

/** Checks what a host passes to setPinValues; throws FlowEditorError('bad-argument') naming what is wrong. */
export function checkPinValues(values: unknown): asserts values is FlowPinValues | undefined {
  if (values === undefined || values instanceof Map) return;
  if (values === null || typeof values !== 'object') throw badPinValues(values);
  const flat: { ids?: unknown; values?: unknown; start?: unknown; strings?: unknown } = values;
  if (!Array.isArray(flat.ids) || !isArrayLikeValue(flat.values) || !isArrayLikeValue(flat.start) || (flat.strings !== undefined && !Array.isArray(flat.strings))) throw badPinValues(values);
  if (flat.start.length < flat.ids.length + 1) throw new FlowEditorError('bad-argument', `Pin values: start has ${flat.start.length} entries for ${flat.ids.length} ids; it needs ids.length + 1.`);
}

function badPinValues(values: unknown): FlowEditorError {
  return new FlowEditorError('bad-argument', `Pin values must be a Map from node id to values, or { ids, values, start, strings? } (a FlowWatch's pinValues and pinStart), got ${describe(values)}.`);
}

/** Checks what a host passes to setActivity. */
export function checkCounts(runs: unknown): asserts runs is FlowNodeCounts {
  if (runs instanceof Map) return;
  const flat = runs as { ids?: unknown; counts?: unknown } | null;
  if (flat === null || typeof flat !== 'object' || !Array.isArray(flat.ids) || !isArrayLikeValue(flat.counts)) {
    throw new FlowEditorError('bad-argument', `Activity must be a Map from node id to run count, or { ids, counts } (a FlowWatch's runs), got ${describe(runs)}.`);
  }
  if (flat.counts.length < flat.ids.length) throw new FlowEditorError('bad-argument', `Activity: counts has ${flat.counts.length} entries for ${flat.ids.length} ids.`);
}

function isArrayLikeValue(value: unknown): value is ArrayLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { length?: unknown }).length === 'number';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object of another shape' : typeof value;
}

/**
 * Finds one pin's value in what the host gave: the node's data pin number `index` (data inputs
 * first, then data outputs). The flat form's id-to-index map is rebuilt only when the ids array changes.
 */
export class PinValueTable {
  #values: FlowPinValues | undefined;
  #ids: readonly string[] | undefined;
  readonly #index = new Map<string, number>();

  /** True when the host gave pin values (the last `set` was not undefined). */
  get present(): boolean {
    return this.#values !== undefined;
  }

  /** The string table of the flat form (string pin values are indices into it); undefined for the Map form or no values. */
  get strings(): readonly string[] | undefined {
    const v = this.#values;
    return v === undefined || v instanceof Map ? undefined : (v as { strings?: readonly string[] }).strings;
  }

  /** Takes the host's pin values for this frame (undefined: none); the flat form's id index is rebuilt only when its `ids` array changes. */
  set(values: FlowPinValues | undefined): void {
    this.#values = values;
    if (values === undefined || values instanceof Map) return;
    const flat = values as Exclude<FlowPinValues, ReadonlyMap<string, ArrayLike<FlowPinValue>>>;
    if (flat.ids !== this.#ids) {
      this.#ids = flat.ids;
      this.#index.clear();
      for (let i = 0; i < flat.ids.length; i++) this.#index.set(flat.ids[i]!, i);
    }
  }

  /** The value of the node's data pin `index` (inputs, then outputs); undefined when the host has none. */
  get(node: string, index: number): FlowPinValue {
    const v = this.#values;
    if (v === undefined) return undefined;
    if (v instanceof Map) {
      const list = (v as ReadonlyMap<string, ArrayLike<FlowPinValue>>).get(node);
      return list === undefined || index >= list.length ? undefined : list[index];
    }
    const flat = v as Exclude<FlowPinValues, ReadonlyMap<string, ArrayLike<FlowPinValue>>>;
    const i = this.#index.get(node);
    if (i === undefined) return undefined;
    const at = flat.start[i]! + index;
    return at < flat.start[i + 1]! ? flat.values[at] : undefined;
  }
}

// Stable writers: the same value always gives the same bytes, keys keep their order, one member
// per line, so a change in the data is a change in as few lines as possible. Short arrays of
// numbers, booleans and nulls (vectors, colours) stay on one line.
import type { JsonValue, WriteOptions } from './api.ts';
import { ToolsMergeError } from './errors.ts';
import { isObject } from './own.ts';

const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INLINE_MAX = 16;

/** The output under construction: V8 builds long strings from `+=` as ropes, cheaply. */
class Out {
  s = '';
}

/** Writes SJSON; an object root is written without braces (the implicit root object). */
export function writeSjson(value: JsonValue, options: WriteOptions = {}): string {
  const out = new Out();
  const indent = options.indent ?? '    ';
  if (isObject(value)) {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      out.s += sjsonKey(key) + ' = ';
      writeValue(value[key]!, out, '', indent, true, 1);
      out.s += '\n';
    }
    return out.s;
  }
  writeValue(value, out, '', indent, true, 1);
  return out.s + '\n';
}

/** Writes JSON with the same layout rules (members one per line, short numeric arrays inline). */
export function writeJson(value: JsonValue, options: WriteOptions = {}): string {
  const out = new Out();
  writeValue(value, out, '', options.indent ?? '    ', false, 1);
  return out.s + '\n';
}

function sjsonKey(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

function writeString(value: string, sjson: boolean): string {
  if (sjson && value.includes('\n') && !value.includes('"""') && !value.includes('\r') && !value.endsWith('"')) {
    return `"""${value}"""`;
  }
  return JSON.stringify(value);
}

function writeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new ToolsMergeError(`cannot write ${value}: JSON has only finite numbers; replace it first`);
  return Object.is(value, -0) ? '-0' : String(value);
}

/** Short arrays of numbers, booleans and nulls (vectors, colours) are written on one line. */
export function isInlineArray(value: JsonValue[]): boolean {
  if (value.length > INLINE_MAX) return false;
  for (let i = 0; i < value.length; i++) {
    const t = typeof value[i];
    if (t !== 'number' && t !== 'boolean' && value[i] !== null) return false;
  }
  return true;
}

function writeValue(value: JsonValue, out: Out, pad: string, indent: string, sjson: boolean, depth: number): void {
  if (depth > 4000) throw new ToolsMergeError('value nested deeper than 4000 levels (or cyclic); flatten it before writing');
  if (value === null) {
    out.s += 'null';
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.s += value ? 'true' : 'false';
      return;
    case 'number':
      out.s += writeNumber(value);
      return;
    case 'string':
      out.s += writeString(value, sjson);
      return;
    default:
      break;
  }
  const inner = pad + indent;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.s += '[]';
      return;
    }
    if (isInlineArray(value)) {
      out.s += '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.s += sjson ? ' ' : ', ';
        writeValue(value[i]!, out, inner, indent, sjson, depth + 1);
      }
      out.s += ']';
      return;
    }
    out.s += '[\n';
    for (let i = 0; i < value.length; i++) {
      out.s += inner;
      writeValue(value[i]!, out, inner, indent, sjson, depth + 1);
      out.s += sjson || i === value.length - 1 ? '\n' : ',\n';
    }
    out.s += pad + ']';
    return;
  }
  if (typeof value !== 'object') throw new ToolsMergeError(`cannot write a ${typeof value}; only JSON values can be written`);
  const keys = Object.keys(value);
  if (keys.length === 0) {
    out.s += '{}';
    return;
  }
  out.s += '{\n';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out.s += inner + (sjson ? sjsonKey(key) : JSON.stringify(key)) + (sjson ? ' = ' : ': ');
    writeValue(value[key]!, out, inner, indent, sjson, depth + 1);
    out.s += sjson || i === keys.length - 1 ? '\n' : ',\n';
  }
  out.s += pad + '}';
}

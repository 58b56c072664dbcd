// Stable writers: the same value always gives the same bytes, keys keep their order, one member
// per line, so a change in the data is a change in as few lines as possible. Short arrays of
// numbers, booleans and nulls (vectors, colours) stay on one line unless told otherwise. Given
// the comments of a parsed document, the SJSON writer puts each back at its anchor.
import type { JsonValue, WriteOptions } from './api.ts';
import { CommentTable, isCommentList } from './comments.ts';
import { ToolsMergeError } from './errors.ts';
import { elementId, idKindOf } from './id-array.ts';
import { isObject } from './own.ts';

// Keys written bare: the characters every SJSON reader takes in a bare key (Crown's and
// Stingray's read up to whitespace, `=` or `:`), so `#43d2ce7f-...` and `mesh.lod-0` stay bare.
const BARE_KEY = /^[A-Za-z0-9_#$@.-]+$/;
const INLINE_MAX = 16;

/** Per-write state when comments are written: the table and the current path, as a JSON key. */
interface CommentContext {
  table: CommentTable;
  path: string[];
}

/** The output under construction: V8 builds long strings from `+=` as ropes, cheaply. */
class Out {
  s = '';
}

interface Layout {
  indent: string;
  sjson: boolean;
  inline: boolean;
  comments: CommentContext | null;
}

function layoutOf(options: WriteOptions, sjson: boolean): Layout {
  const indent = options.indent ?? '    ';
  if (typeof indent !== 'string' || !/^[ \t]*$/.test(indent)) throw new ToolsMergeError(`indent must be spaces or tabs, got ${JSON.stringify(indent)}`);
  const given: unknown = options.comments;
  if (given !== undefined && !isCommentList(given)) throw new ToolsMergeError('comments must be the comment list of parseSjsonDocument ({ place, path, text }[])');
  const comments = sjson && options.comments !== undefined && options.comments.length > 0 ? { table: new CommentTable(options.comments, options.idKeys), path: [] } : null;
  return { indent, sjson, inline: options.inlineArrays ?? true, comments };
}

/**
 * Writes SJSON; an object root is written without braces (the implicit root object). With
 * `comments` (from `parseSjsonDocument`), each comment is written at its anchor; a comment whose
 * member is gone is written at the end of the nearest enclosing object or array that is still
 * there, so none is dropped.
 */
export function writeSjson(value: JsonValue, options: WriteOptions = {}): string {
  const layout = layoutOf(options, true);
  const text = writeSjsonWith(value, layout);
  const moved = layout.comments?.table.orphansMoved();
  if (moved === undefined) return text;
  return writeSjsonWith(value, { ...layout, comments: { table: new CommentTable(moved, layout.comments!.table.idKeys), path: [] } });
}

function writeSjsonWith(value: JsonValue, layout: Layout): string {
  const out = new Out();
  const ctx = layout.comments;
  if (ctx !== null) {
    ctx.table.written.add('[]');
    writeComments(ctx.table.take('before', '[]'), out, '');
  }
  if (isObject(value)) {
    writeMembers(value, out, '', layout, 1);
  } else {
    writeValue(value, out, '', layout, 1);
    out.s += '\n';
    // An array root writes its own end comments; after a scalar root they end the document.
    if (ctx !== null && !Array.isArray(value)) writeComments(ctx.table.take('end', '[]'), out, '');
  }
  return out.s;
}

/** Writes JSON with the same layout rules (members one per line, short numeric arrays inline). JSON has no comments. */
export function writeJson(value: JsonValue, options: WriteOptions = {}): string {
  const out = new Out();
  writeValue(value, out, '', layoutOf({ ...options, comments: undefined }, false), 1);
  return out.s + '\n';
}

/**
 * The layout of an SJSON text, for writing a changed version of it with the fewest changed
 * lines: its indentation step, and whether it writes short numeric arrays on one line (Crown's
 * editor writes one number per line).
 */
export function sjsonStyleOf(text: string): Pick<WriteOptions, 'indent' | 'inlineArrays'> {
  const indented = /\n([ \t]+)\S/.exec(text);
  const indent = indented === null ? '    ' : indented[1]!.startsWith('\t') ? '\t' : indented[1]!;
  const oneNumberPerLine = /\[[ \t]*\r?\n[ \t]*[-+.\d]/.test(text);
  const inlineNumbers = /\[[ \t]*[-+.\d][^\n\]]*\]/.test(text);
  return { indent, inlineArrays: !oneNumberPerLine || inlineNumbers };
}

function writeComments(lines: string[] | undefined, out: Out, pad: string): void {
  if (lines === undefined) return;
  for (let i = 0; i < lines.length; i++) out.s += pad + lines[i]! + '\n';
}

/** Members of an object, one a line, each followed by a newline; `pad` is the members' indentation. */
function writeMembers(value: Record<string, JsonValue>, out: Out, pad: string, layout: Layout, depth: number): void {
  const keys = Object.keys(value);
  const ctx = layout.comments;
  const sjson = layout.sjson;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    let pathKey = '';
    if (ctx !== null) {
      ctx.path.push(JSON.stringify(key));
      pathKey = `[${ctx.path.join(',')}]`;
      writeComments(ctx.table.take('before', pathKey), out, pad);
    }
    out.s += pad + (sjson ? sjsonKey(key) + ' = ' : JSON.stringify(key) + ': ');
    writeValue(value[key]!, out, pad, layout, depth + 1);
    if (ctx !== null) {
      const after = ctx.table.take('after', pathKey);
      if (after !== undefined) out.s += ' ' + after.join(' ');
      ctx.path.pop();
    }
    out.s += sjson || i === keys.length - 1 ? '\n' : ',\n';
  }
  if (ctx !== null) writeComments(ctx.table.take('end', `[${ctx.path.join(',')}]`), out, pad);
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

function writeValue(value: JsonValue, out: Out, pad: string, layout: Layout, depth: number): void {
  const sjson = layout.sjson;
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
  const inner = pad + layout.indent;
  const ctx = layout.comments;
  let commented = false;
  if (ctx !== null) {
    const pathKey = `[${ctx.path.join(',')}]`;
    ctx.table.written.add(pathKey);
    commented = ctx.table.containers.has(pathKey);
  }
  if (Array.isArray(value)) {
    if (value.length === 0 && !commented) {
      out.s += layout.inline ? '[]' : `[\n${pad}]`;
      return;
    }
    if (!commented && layout.inline && isInlineArray(value)) {
      out.s += '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.s += sjson ? ' ' : ', ';
        writeValue(value[i]!, out, inner, layout, depth + 1);
      }
      out.s += ']';
      return;
    }
    out.s += '[\n';
    // With comments anywhere, elements track their path (ids in id arrays) for the look-ups below.
    if (ctx !== null) writeCommentedElements(value, out, inner, layout, depth);
    else {
      for (let i = 0; i < value.length; i++) {
        out.s += inner;
        writeValue(value[i]!, out, inner, layout, depth + 1);
        out.s += sjson || i === value.length - 1 ? '\n' : ',\n';
      }
    }
    out.s += pad + ']';
    return;
  }
  if (typeof value !== 'object') throw new ToolsMergeError(`cannot write a ${typeof value}; only JSON values can be written`);
  if (!commented && Object.keys(value).length === 0) {
    out.s += layout.inline ? '{}' : `{\n${pad}}`;
    return;
  }
  out.s += '{\n';
  writeMembers(value, out, inner, layout, depth);
  out.s += pad + '}';
}

/** Elements of an array when writing comments (SJSON only): one a line, comments at their anchors. */
function writeCommentedElements(value: JsonValue[], out: Out, inner: string, layout: Layout, depth: number): void {
  const ctx = layout.comments!;
  const kind = idKindOf(value, ctx.table.idKeys);
  const byId = kind !== 'none' && kind !== 'empty';
  for (let i = 0; i < value.length; i++) {
    ctx.path.push(JSON.stringify(byId ? { id: elementId(value[i]!, kind) } : i));
    const pathKey = `[${ctx.path.join(',')}]`;
    writeComments(ctx.table.take('before', pathKey), out, inner);
    out.s += inner;
    writeValue(value[i]!, out, inner, layout, depth + 1);
    const after = ctx.table.take('after', pathKey);
    if (after !== undefined) out.s += ' ' + after.join(' ');
    out.s += '\n';
    ctx.path.pop();
  }
  writeComments(ctx.table.take('end', `[${ctx.path.join(',')}]`), out, inner);
}

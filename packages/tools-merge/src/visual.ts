// The visual diff and merge view ("BitBucket for BitSquid"): a structural diff laid out as SJSON
// lines, each marked same / added / removed, and for merges the side each change came from.
// One line model feeds two renderers: ANSI colours for a terminal and a self-contained HTML page.
import type { JsonValue, MergeConflict, MergeResult, Path } from './api.ts';
import { formatPath } from './apply.ts';
import { jsonEqual } from './equal.ts';
import { checkIdKeys, commonIdKind, elementId, indexById, type IdKind } from './id-array.ts';
import { valueAt } from './value-at.ts';
import { isObject } from './own.ts';
import { diffSequence, TokenTable } from './sequence-diff.ts';
import { isInlineArray, writeSjson } from './sjson-write.ts';

/** How a line of a diff view compares: unchanged, added or removed. */
export type LineKind = 'same' | 'add' | 'remove';
/** Where a line of a merge view came from. */
export type LineOrigin = 'base' | 'left' | 'right' | 'both' | 'conflict';

/** One line of a diff or merge view, before rendering to a terminal or HTML. */
export interface VisualLine {
  /** Unchanged, added or removed. */
  kind: LineKind;
  /** Indentation level (0 at the top of the document). */
  depth: number;
  /** The line's text, without indentation. */
  text: string;
  /** The path of the value the line shows. */
  path: Path;
  /** Merge views only. */
  origin?: LineOrigin;
}

/** Options of the diff and merge views. */
export interface VisualOptions {
  /** Unchanged containers with more lines than this are folded into one line (default 6). */
  foldAbove?: number;
  /** Keys that identify elements of object arrays (default `id`, `Id`, `ID`, `_guid`, `_id`). */
  idKeys?: readonly string[];
}

const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function label(key: string | null): string {
  if (key === null) return '';
  return `${BARE_KEY.test(key) ? key : JSON.stringify(key)} = `;
}

class LineWriter {
  readonly lines: VisualLine[] = [];
  constructor(
    private readonly foldAbove: number,
    readonly idKeys: readonly string[],
  ) {}

  value(kind: LineKind, key: string | null, value: JsonValue | undefined, depth: number, path: Path): void {
    if (value === undefined) return;
    const text = writeSjson([value]).trimEnd();
    // writeSjson of a one-element array: strip the wrapper and its indentation.
    const body = text.startsWith('[\n') ? text.slice(2, -2).split('\n').map((l) => l.slice(4)) : [text.slice(1, -1)];
    if (kind === 'same' && body.length > this.foldAbove) {
      const size = Array.isArray(value) ? `${value.length} items` : `${Object.keys(value as object).length} keys`;
      const open = Array.isArray(value) ? '[' : '{';
      const close = Array.isArray(value) ? ']' : '}';
      // A folded element of an id array still shows its id.
      let id = '';
      if (isObject(value)) {
        for (const k of this.idKeys) {
          const v = Object.hasOwn(value, k) ? value[k] : undefined;
          if (typeof v === 'string' || typeof v === 'number') {
            id = `${k} = ${JSON.stringify(v)} `;
            break;
          }
        }
      }
      this.push(kind, `${label(key)}${open} ${id}… ${size} ${close}`, depth, path);
      return;
    }
    for (let i = 0; i < body.length; i++) {
      const line = body[i]!;
      const extra = line.length - line.trimStart().length;
      this.push(kind, (i === 0 ? label(key) : '') + line.trimStart(), depth + Math.floor(extra / 4), path);
    }
  }

  push(kind: LineKind, text: string, depth: number, path: Path): void {
    this.lines.push({ kind, depth, text, path: path.slice() });
  }

  // Runs of unchanged array elements: a level's thousands of untouched units collapse to
  // first, "… n unchanged items …", last.
  private readonly run: { value: JsonValue; path: Path }[] = [];

  same(value: JsonValue, path: Path): void {
    this.run.push({ value, path: path.slice() });
  }

  flushSame(depth: number): void {
    const run = this.run;
    if (run.length > 3) {
      this.value('same', null, run[0]!.value, depth, run[0]!.path);
      this.push('same', `… ${run.length - 2} unchanged items …`, depth, run[1]!.path);
      this.value('same', null, run[run.length - 1]!.value, depth, run[run.length - 1]!.path);
    } else {
      for (const item of run) this.value('same', null, item.value, depth, item.path);
    }
    run.length = 0;
  }
}

/** Lines of a structural diff from `a` to `b`. */
export function diffLines(a: JsonValue, b: JsonValue, options: VisualOptions = {}): VisualLine[] {
  const w = new LineWriter(options.foldAbove ?? 6, checkIdKeys(options.idKeys));
  walk(w, null, a, b, 0, []);
  return w.lines;
}

function walk(w: LineWriter, key: string | null, a: JsonValue | undefined, b: JsonValue | undefined, depth: number, path: Path): void {
  // An unchanged root object still lists its keys (folded one by one), like any SJSON file.
  const openRoot = key === null && depth === 0 && isObject(a) && isObject(b);
  if (!openRoot && jsonEqual(a, b)) {
    w.value('same', key, a, depth, path);
    return;
  }
  if (isObject(a) && isObject(b)) {
    if (key !== null || depth > 0) w.push('same', `${label(key)}{`, depth, path);
    const inner = key !== null || depth > 0 ? depth + 1 : depth;
    const d = path.length;
    for (const k of Object.keys(a)) {
      if (Object.hasOwn(b, k)) continue;
      path.push(k);
      w.value('remove', k, a[k], inner, path);
      path.length = d;
    }
    for (const k of Object.keys(b)) {
      path.push(k);
      walk(w, k, Object.hasOwn(a, k) ? a[k] : undefined, b[k], inner, path);
      path.length = d;
    }
    if (key !== null || depth > 0) w.push('same', '}', depth, path);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && !(isInlineArray(a) && isInlineArray(b))) {
    w.push('same', `${label(key)}[`, depth, path);
    const kind = commonIdKind(w.idKeys, a, b);
    if (kind !== 'none' && kind !== 'empty') walkIdArray(w, a, b, kind, depth + 1, path);
    else walkSequence(w, a, b, depth + 1, path);
    w.push('same', ']', depth, path);
    return;
  }
  w.value('remove', key, a, depth, path);
  w.value('add', key, b, depth, path);
}

function walkIdArray(w: LineWriter, a: JsonValue[], b: JsonValue[], kind: IdKind, depth: number, path: Path): void {
  const am = indexById(a, kind);
  const bm = indexById(b, kind);
  const d = path.length;
  // Removed elements show where they were: before the next element that survives.
  let ai = 0;
  const flushRemoved = (untilId: unknown): void => {
    while (ai < a.length) {
      const id = elementId(a[ai]!, kind);
      if (id === untilId) break;
      if (!bm.has(id)) {
        w.flushSame(depth);
        path.push({ id });
        w.value('remove', null, a[ai], depth, path);
        path.length = d;
      }
      ai++;
    }
    if (ai < a.length) ai++;
  };
  for (const [id, value] of bm) {
    if (am.has(id)) flushRemoved(id);
    path.push({ id });
    const old = am.get(id);
    if (old !== undefined && jsonEqual(old, value)) {
      w.same(value, path);
    } else {
      w.flushSame(depth);
      walk(w, null, old, value, depth, path);
    }
    path.length = d;
  }
  flushRemoved(Symbol('end'));
  w.flushSame(depth);
}

function walkSequence(w: LineWriter, a: JsonValue[], b: JsonValue[], depth: number, path: Path): void {
  const table = new TokenTable();
  const hunks = diffSequence(table.tokenize(a), table.tokenize(b));
  const d = path.length;
  let ai = 0;
  let bi = 0;
  const same = (count: number): void => {
    for (let i = 0; i < count; i++) {
      path.push(bi);
      w.same(b[bi]!, path);
      path.length = d;
      ai++;
      bi++;
    }
  };
  for (const h of hunks) {
    same(h.aStart - ai);
    w.flushSame(depth);
    if (h.aEnd - h.aStart === h.bEnd - h.bStart) {
      for (let i = 0; i < h.aEnd - h.aStart; i++) {
        path.push(h.bStart + i);
        walk(w, null, a[h.aStart + i], b[h.bStart + i], depth, path);
        path.length = d;
      }
    } else {
      for (let i = h.aStart; i < h.aEnd; i++) {
        path.push(i);
        w.value('remove', null, a[i], depth, path);
        path.length = d;
      }
      for (let i = h.bStart; i < h.bEnd; i++) {
        path.push(i);
        w.value('add', null, b[i], depth, path);
        path.length = d;
      }
    }
    ai = h.aEnd;
    bi = h.bEnd;
  }
  same(a.length - ai);
  w.flushSame(depth);
}

function isPrefix(prefix: Path, path: Path): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const p = prefix[i]!;
    const q = path[i]!;
    if (typeof p === 'object' ? typeof q !== 'object' || q.id !== p.id : p !== q) return false;
  }
  return true;
}

/** Lines of a merge view: base to merged, each changed line marked with the side it came from. */
export function mergeLines(base: JsonValue, left: JsonValue, right: JsonValue, result: MergeResult, options: VisualOptions = {}): VisualLine[] {
  const lines = diffLines(base, result.merged, options);
  for (const line of lines) {
    if (line.kind === 'same') {
      line.origin = 'base';
      continue;
    }
    if (result.conflicts.some((c) => isPrefix(c.path, line.path) || isPrefix(line.path, c.path))) {
      line.origin = 'conflict';
      continue;
    }
    const was = valueAt(base, line.path, options.idKeys);
    const changedLeft = !jsonEqual(valueAt(left, line.path, options.idKeys), was);
    const changedRight = !jsonEqual(valueAt(right, line.path, options.idKeys), was);
    line.origin = changedLeft && !changedRight ? 'left' : changedRight && !changedLeft ? 'right' : 'both';
  }
  return lines;
}

const ANSI = { reset: '\u001b[0m', red: '\u001b[31m', green: '\u001b[32m', yellow: '\u001b[33m', blue: '\u001b[34m', cyan: '\u001b[36m', dim: '\u001b[2m', bold: '\u001b[1m' };

const GUTTER: Record<LineKind, string> = { same: ' ', add: '+', remove: '-' };
const ORIGIN_TAG: Record<LineOrigin, string> = { base: '  ', left: 'L ', right: 'R ', both: 'LR', conflict: '!!' };

/** Renders lines for a terminal; `color: false` gives plain text (for files and pipes). */
export function renderTerminal(lines: readonly VisualLine[], options: { color?: boolean; conflicts?: readonly MergeConflict[] } = {}): string {
  const color = options.color ?? true;
  const paint = (code: string, s: string): string => (color ? code + s + ANSI.reset : s);
  const out: string[] = [];
  for (const line of lines) {
    const body = `${GUTTER[line.kind]} ${'    '.repeat(line.depth)}${line.text}`;
    const tag = line.origin === undefined ? '' : `${paint(line.origin === 'conflict' ? ANSI.yellow : line.origin === 'left' ? ANSI.cyan : line.origin === 'right' ? ANSI.blue : ANSI.dim, ORIGIN_TAG[line.origin])} `;
    const painted = line.kind === 'add' ? paint(ANSI.green, body) : line.kind === 'remove' ? paint(ANSI.red, body) : paint(ANSI.dim, body);
    out.push(tag + painted);
  }
  for (const c of options.conflicts ?? []) {
    out.push(paint(ANSI.yellow + ANSI.bold, `conflict at ${formatPath(c.path)} (${c.reason}): kept ${c.winner}`));
    out.push(`    left:  ${show(c.left)}`, `    right: ${show(c.right)}`, `    base:  ${show(c.base)}`);
  }
  return out.join('\n') + '\n';
}

function show(v: JsonValue | undefined): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A self-contained HTML page (inline CSS, no scripts, no external requests). */
export function renderHtml(lines: readonly VisualLine[], options: { title?: string; conflicts?: readonly MergeConflict[] } = {}): string {
  const title = escapeHtml(options.title ?? 'cuttle-merge');
  const rows = lines
    .map((l) => {
      const origin = l.origin === undefined ? '' : `<span class="o ${l.origin}">${ORIGIN_TAG[l.origin].trim() || '&nbsp;'}</span>`;
      return `<div class="l ${l.kind}">${origin}<span class="g">${GUTTER[l.kind]}</span><span class="t" style="padding-left:${l.depth * 2}em">${escapeHtml(l.text)}</span></div>`;
    })
    .join('\n');
  const conflicts = (options.conflicts ?? [])
    .map(
      (c) =>
        `<li><code>${escapeHtml(formatPath(c.path))}</code> ${escapeHtml(c.reason)}; kept <b>${c.winner}</b><br>left: <code>${escapeHtml(show(c.left))}</code><br>right: <code>${escapeHtml(show(c.right))}</code><br>base: <code>${escapeHtml(show(c.base))}</code></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
body{font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;margin:1.5em;background:#fcfcfc;color:#222}
h1{font-size:1.1em} .l{white-space:pre;display:flex} .g{width:1.5em;color:#888;flex:none}
.o{width:2.5em;flex:none;font-size:.8em;text-align:center;border-radius:3px;margin-right:.4em}
.add{background:#e6ffec} .remove{background:#ffebe9;text-decoration:line-through;color:#8a1c1c}
.same .t{color:#666} .left{background:#d7f0ff} .right{background:#e5dcff} .both{background:#eee} .conflict{background:#ffd8a8}
.legend span{padding:0 .5em;margin-right:.5em} ul{padding-left:1.2em} li{margin-bottom:.6em}
</style></head><body>
<h1>${title}</h1>
<p class="legend"><span class="add">+ added</span><span class="remove">− removed</span><span class="left">L left</span><span class="right">R right</span><span class="conflict">!! conflict</span></p>
<div class="doc">
${rows}
</div>
${conflicts.length > 0 ? `<h2>Conflicts (every losing change)</h2>\n<ul>\n${conflicts}\n</ul>` : ''}
</body></html>
`;
}

// Comments of an SJSON document, kept beside the value instead of inside it: each comment is
// anchored to a path (ids, not indices, inside id arrays), so it stays with its unit when a tool
// edits, reorders or merges the data, and the writer puts it back above the same member. A
// level designer's note survives a parse-edit-write round trip and a 3-way merge.
import type { CommentPlace, JsonObject, JsonValue, Path, PathSegment, SjsonComment } from './api.ts';
import { formatPath } from './apply.ts';
import { checkIdKeys, elementId, idKindOf } from './id-array.ts';
import { isObject } from './own.ts';
import { valueAt } from './value-at.ts';

/** A parsed document with its comments (`parseSjsonDocument`). */
export interface SjsonDocument {
  /** The document's value. */
  value: JsonValue;
  /** The document's comments, with their anchors. */
  comments: SjsonComment[];
}

/** A comment as the parser saw it: next to a key or index of a container object. */
export interface RawComment {
  container: JsonObject | JsonValue[];
  /** The member or element; null for the container itself (its end, or the top of the document). */
  key: string | number | null;
  place: CommentPlace;
  text: string[];
}

type Container = JsonObject | JsonValue[];

/** The path of every container that holds a raw comment, with ids for elements of id arrays. */
function containerPaths(root: JsonValue, wanted: Set<Container>, idKeys: readonly string[]): Map<Container, Path> {
  const paths = new Map<Container, Path>();
  const stack: { node: Container; path: Path }[] = [];
  if (root !== null && typeof root === 'object') stack.push({ node: root, path: [] });
  while (stack.length > 0 && paths.size < wanted.size) {
    const { node, path } = stack.pop()!;
    if (wanted.has(node)) paths.set(node, path);
    if (Array.isArray(node)) {
      const kind = idKindOf(node, idKeys);
      const byId = kind !== 'none' && kind !== 'empty';
      for (let i = 0; i < node.length; i++) {
        const child = node[i] as JsonValue; // (`!` would also strip null)
        if (child !== null && typeof child === 'object') stack.push({ node: child, path: [...path, byId ? { id: elementId(child, kind) } : i] });
      }
    } else {
      for (const key of Object.keys(node)) {
        const child = node[key] as JsonValue;
        if (child !== null && typeof child === 'object') stack.push({ node: child, path: [...path, key] });
      }
    }
  }
  return paths;
}

/** The path segment of `key` inside `container`: ids for elements of id arrays. */
function segmentOf(container: Container, key: string | number, idKeys: readonly string[]): PathSegment {
  if (typeof key === 'string' || !Array.isArray(container)) return key;
  const kind = idKindOf(container, idKeys);
  return kind === 'none' || kind === 'empty' || key >= container.length ? key : { id: elementId(container[key]!, kind) };
}

/** Turns the parser's (container, key) anchors into paths. */
export function anchorComments(root: JsonValue, raw: readonly RawComment[], idKeys?: readonly string[]): SjsonComment[] {
  if (raw.length === 0) return [];
  const keys = checkIdKeys(idKeys);
  const paths = containerPaths(root, new Set(raw.map((r) => r.container)), keys);
  const out: SjsonComment[] = [];
  for (const r of raw) {
    const base = paths.get(r.container) ?? [];
    out.push({ place: r.place, path: r.key === null ? base : [...base, segmentOf(r.container, r.key, keys)], text: r.text.slice() });
  }
  return out;
}

/** A stable string for (place, path). */
export function anchorKey(place: CommentPlace, path: Path): string {
  return `${place}:${JSON.stringify(path)}`;
}

/** The path key of the container a comment is written in. */
function containerKeyOf(c: SjsonComment): string {
  return JSON.stringify(c.place === 'end' || c.path.length === 0 ? c.path : c.path.slice(0, -1));
}

/**
 * The writer's view of a comment list: look-ups by anchor, which containers hold comments (they
 * are written one element per line), and which anchors were used, so comments whose member no
 * longer exists can be moved up to the nearest container that does instead of vanishing.
 */
export class CommentTable {
  private readonly byAnchor = new Map<string, string[]>();
  readonly containers = new Set<string>();
  private readonly used = new Set<string>();
  /** Path keys of the containers the writer wrote. */
  readonly written = new Set<string>();
  readonly idKeys: readonly string[];

  constructor(
    readonly comments: readonly SjsonComment[],
    idKeys: readonly string[] | undefined,
  ) {
    this.idKeys = checkIdKeys(idKeys);
    for (const c of comments) {
      const key = anchorKey(c.place, c.path);
      const list = this.byAnchor.get(key);
      if (list === undefined) this.byAnchor.set(key, c.text.slice());
      else list.push(...c.text);
      this.containers.add(containerKeyOf(c));
    }
  }

  take(place: CommentPlace, pathKey: string): string[] | undefined {
    const key = `${place}:${pathKey}`;
    const text = this.byAnchor.get(key);
    if (text !== undefined) this.used.add(key);
    return text;
  }

  /** The comments whose anchor the writer never reached, moved to the end of the nearest written container. */
  orphansMoved(): SjsonComment[] | undefined {
    if (this.used.size === this.byAnchor.size) return undefined;
    const moved: SjsonComment[] = [];
    for (const c of this.comments) {
      if (this.used.has(anchorKey(c.place, c.path))) {
        moved.push(c);
        continue;
      }
      let path = c.place === 'end' ? c.path : c.path.slice(0, -1);
      while (path.length > 0 && !this.written.has(JSON.stringify(path))) path = path.slice(0, -1);
      moved.push({ place: 'end', path, text: c.text });
    }
    return moved;
  }
}

/** Checks the `comments` option of the writers. */
export function isCommentList(value: unknown): value is SjsonComment[] {
  return (
    Array.isArray(value) &&
    value.every(
      (c) =>
        isObject(c as JsonValue) &&
        ['before', 'after', 'end'].includes((c as SjsonComment).place) &&
        Array.isArray((c as SjsonComment).path) &&
        Array.isArray((c as SjsonComment).text) &&
        (c as SjsonComment).text.every((t) => typeof t === 'string'),
    )
  );
}

/** What happened to comments in a merge, one line each (the CLI prints these). */
export interface CommentMergeNote {
  /** Where the comments were anchored. */
  path: Path;
  /** Their place relative to `path`. */
  place: CommentPlace;
  /** What was done with them. */
  what: 'both changed: kept both' | 'its member was removed: kept at the enclosing object or array';
  /** The comments concerned, as written. */
  text: string[];
}

/** The comments of a merged document, and notes on what the merge did with them. */
export interface CommentMergeResult {
  /** The merged document's comments, to pass to `writeSjson`. */
  comments: SjsonComment[];
  /** One note per comment conflict resolved by keeping both or moving a comment. */
  notes: CommentMergeNote[];
}

function joined(c: SjsonComment | undefined): string | undefined {
  return c === undefined ? undefined : c.text.join('\n');
}

/**
 * Merges the comments of three versions of a document, anchor by anchor: a comment changed or
 * added on one side is taken; where both sides changed the comments at one anchor differently,
 * both are kept (left's, then right's lines that left lacks), since a note costs nothing to keep.
 * A comment whose member is gone from `merged` goes with it when nobody touched it; when a side
 * added or changed it, it is kept (the writer puts it at the end of the enclosing object or
 * array) and reported.
 */
export function mergeComments(
  base: readonly SjsonComment[],
  left: readonly SjsonComment[],
  right: readonly SjsonComment[],
  merged: JsonValue,
  idKeys?: readonly string[],
): CommentMergeResult {
  const keys = checkIdKeys(idKeys);
  const index = (list: readonly SjsonComment[]): Map<string, SjsonComment> => {
    const map = new Map<string, SjsonComment>();
    for (const c of list) {
      const key = anchorKey(c.place, c.path);
      const had = map.get(key);
      map.set(key, had === undefined ? c : { ...had, text: [...had.text, ...c.text] });
    }
    return map;
  };
  const b = index(base);
  const l = index(left);
  const r = index(right);
  const order = [...new Set([...l.keys(), ...r.keys(), ...b.keys()])];
  const comments: SjsonComment[] = [];
  const notes: CommentMergeNote[] = [];
  for (const key of order) {
    const bc = b.get(key);
    const lc = l.get(key);
    const rc = r.get(key);
    const bt = joined(bc);
    const lt = joined(lc);
    const rt = joined(rc);
    let kept: SjsonComment | undefined;
    if (lt === rt) kept = lc;
    else if (lt === bt) kept = rc;
    else if (rt === bt) kept = lc;
    else {
      const text = lc === undefined ? [] : lc.text.slice();
      for (const line of rc?.text ?? []) if (!text.includes(line)) text.push(line);
      kept = { ...(lc ?? rc)!, text };
      notes.push({ path: kept.path, place: kept.place, what: 'both changed: kept both', text });
    }
    if (kept === undefined || kept.text.length === 0) continue;
    // A before/after anchor names its member, an end anchor its container.
    const exists = kept.path.length === 0 || valueAt(merged, kept.path, keys) !== undefined;
    if (!exists) {
      if (joined(kept) === bt) continue; // an untouched note goes with its removed member
      notes.push({ path: kept.path, place: kept.place, what: 'its member was removed: kept at the enclosing object or array', text: kept.text });
    }
    comments.push(kept);
  }
  return { comments, notes };
}

/** True when two comment lists put the same text at the same anchors. */
export function sameComments(a: readonly SjsonComment[], b: readonly SjsonComment[]): boolean {
  const text = (list: readonly SjsonComment[]): Map<string, string> => {
    const map = new Map<string, string>();
    for (const c of list) {
      const key = anchorKey(c.place, c.path);
      const had = map.get(key);
      map.set(key, had === undefined ? c.text.join('\n') : `${had}\n${c.text.join('\n')}`);
    }
    return map;
  };
  const x = text(a);
  const y = text(b);
  if (x.size !== y.size) return false;
  for (const [key, value] of x) if (y.get(key) !== value) return false;
  return true;
}

/** One line for a merge note: `units[id="..."].position (before): // note`. */
export function formatCommentNote(note: CommentMergeNote): string {
  const first = note.text[0] ?? '';
  const more = note.text.length > 1 ? ` (+${note.text.length - 1} more)` : '';
  return `comment ${note.place} ${formatPath(note.path)}: ${note.what}: ${first.length > 80 ? `${first.slice(0, 77)}...` : first}${more}`;
}

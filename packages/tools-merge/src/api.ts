/** A parsed JSON/SJSON value. Objects are plain objects whose own keys are data, always. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object; read its keys with `Object.hasOwn`, never through the prototype chain. */
export interface JsonObject {
  /** A member's value, by key. */
  [key: string]: JsonValue;
}

/** Options of `writeSjson` / `writeJson`. */
export interface WriteOptions {
  /** One indentation step: spaces or tabs (default four spaces; `sjsonStyleOf(text)` reads a file's). */
  indent?: string;
  /**
   * Short arrays of numbers, booleans and nulls on one line, and empty arrays and objects as `[]`
   * and `{}` (default true). False writes every element on its own line and empty containers
   * over two lines, as Crown's editor does.
   */
  inlineArrays?: boolean;
  /** SJSON only: the comments of `parseSjsonDocument`, written back at their anchors. JSON has no comments. */
  comments?: readonly SjsonComment[];
  /** Id keys, to find comments anchored inside id arrays (default as `MergeOptions.idKeys`). */
  idKeys?: readonly string[];
}

/**
 * One step of a path into a document: an object key (string), an array index (number) or the
 * element of an id array with the given id (`{ id }`).
 */
export type PathSegment = string | number | { id: string | number };
/** Where a value sits in a document: the steps from the root, outermost first (empty for the root). */
export type Path = PathSegment[];

/**
 * Where a comment sits: on its own lines above the member or element at `path` (`before`; with
 * an empty path, the top of the document), on the same line after it (`after`), or on its own
 * lines at the end of the object or array at `path` (`end`; with an empty path, the end of the
 * document).
 */
export type CommentPlace = 'before' | 'after' | 'end';

/** One run of comments of an SJSON document and where it is anchored. */
export interface SjsonComment {
  /** Where the comments sit relative to `path`. */
  place: CommentPlace;
  /** The member or element (or container, for `'end'`) the comments are anchored to. */
  path: Path;
  /** The comments as written, one entry each: `// note` or `/* note *\/` (may span lines). */
  text: string[];
}

/**
 * The diff vocabulary, after the post: `object[key] = value`, with `null` deleting the key. A key
 * that really holds `null` is written with `keepNull: true`. Arrays add three operations: id
 * arrays insert and remove elements by id and may reorder; other arrays are spliced from a
 * sequence diff (indices refer to the array before the op list ran, and the splices are sorted).
 */
export type DiffOp =
  | { op: 'set'; path: Path; value: JsonValue; keepNull?: true }
  | { op: 'insert'; path: Path; id: string | number; after: string | number | null; value: JsonValue }
  | { op: 'remove'; path: Path; id: string | number }
  | { op: 'order'; path: Path; ids: (string | number)[] }
  | { op: 'splice'; path: Path; index: number; remove: number; insert: JsonValue[] };

/** Which side wins when both sides changed the same key of the same object differently. */
export type MergePolicy = 'right' | 'left';

/** Options of `diff` and `apply`. */
export interface DiffOptions {
  /**
   * Keys that identify the elements of object arrays, tried in order: an array whose elements all
   * carry the first key an element has, with unique string or number values, is diffed and merged
   * by that id. Default `['id', 'Id', 'ID', '_guid', '_id']`.
   */
  idKeys?: readonly string[];
}

/** Options of `merge`: the diff's, and who wins a conflict. */
export interface MergeOptions extends DiffOptions {
  /** The winner of true conflicts (default `'right'`, as in the post). */
  policy?: MergePolicy;
}

/**
 * A change that lost: at `path`, `left` and `right` changed `base` differently and `winner`'s
 * value was kept. `undefined` means "absent" (deleted or never there).
 */
export interface MergeConflict {
  /** Where the two sides disagreed. */
  path: Path;
  /** The value in the common ancestor (`undefined`: absent). */
  base: JsonValue | undefined;
  /** The left side's value (`undefined`: absent). */
  left: JsonValue | undefined;
  /** The right side's value (`undefined`: absent). */
  right: JsonValue | undefined;
  /** The side whose value was kept. */
  winner: MergePolicy;
  /** What happened, in words: 'both changed', 'removed on one side, changed on the other', ... */
  reason: string;
}

/** What `merge` returns: the merged document and the changes that lost. */
export interface MergeResult {
  /** The merged document. */
  merged: JsonValue;
  /** Every losing change; empty means the merge was clean. */
  conflicts: MergeConflict[];
}

// "A new data storage model": a database is a set of objects named by GUID, each a set of
// key/value pairs whose values are null, booleans, numbers, strings, blobs, references and sets
// of references. Every change is one of five operations, so an operation list is both an edit
// history and a diff between two versions. Objects are reachable from the root, GUID all zeros.
import { ToolsMergeError } from './errors.ts';

/** An object's id: a lowercase UUID string (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), see {@link isGuid}. */
export type Guid = string;

/** The root object's GUID. */
export const ROOT_GUID: Guid = '00000000-0000-0000-0000-000000000000';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Thrown for a bad operation or a malformed snapshot. */
export class DataModelError extends ToolsMergeError {
  /** Always `'DataModelError'`. */
  override readonly name = 'DataModelError';
}

/** A binary value. */
export interface DbBlob {
  /** Tells a blob from the other object values. */
  readonly kind: 'blob';
  /** The bytes (base64 in JSON snapshots). */
  readonly bytes: Uint8Array;
}
/** A reference to another object. */
export interface DbRef {
  /** Tells a reference from the other object values. */
  readonly kind: 'ref';
  /** The object referred to. */
  readonly guid: Guid;
}
/** A set of references, changed by `add_to_set` and `remove_from_set`. */
export interface DbRefSet {
  /** Tells a set from the other object values. */
  readonly kind: 'set';
  /** The objects in the set. */
  readonly guids: ReadonlySet<Guid>;
}
/** A value. `null` is the same as the key not existing. */
export type DbValue = null | boolean | number | string | DbBlob | DbRef | DbRefSet;
/** What change_key may write (sets change through add_to_set / remove_from_set). */
export type DbKeyValue = Exclude<DbValue, DbRefSet>;

/** The five operations. */
export type DbOp =
  | { op: 'create'; guid: Guid }
  | { op: 'destroy'; guid: Guid }
  | { op: 'change_key'; guid: Guid; key: string; value: DbKeyValue }
  | { op: 'add_to_set'; guid: Guid; key: string; member: Guid }
  | { op: 'remove_from_set'; guid: Guid; key: string; member: Guid };

/** A {@link DbBlob} of `bytes` (not copied). */
export const blob = (bytes: Uint8Array): DbBlob => ({ kind: 'blob', bytes });
/** A {@link DbRef} to `guid`. */
export const ref = (guid: Guid): DbRef => ({ kind: 'ref', guid });

/** A fresh random GUID (v4). */
export function newGuid(): Guid {
  return globalThis.crypto.randomUUID();
}

/** Whether `value` is a {@link Guid}: a string of 32 lowercase hex digits in 8-4-4-4-12 groups. */
export function isGuid(value: unknown): value is Guid {
  return typeof value === 'string' && GUID.test(value);
}

/** Findings of `Database.checkIntegrity`. */
export interface IntegrityReport {
  /** References (or set members) to objects that do not exist. */
  dangling: { guid: Guid; key: string; target: Guid }[];
  /** Objects not reachable from the root: garbage. */
  unreachable: Guid[];
}

function sameValue(a: DbValue | undefined, b: DbValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.kind === 'ref' && b.kind === 'ref') return a.guid === b.guid;
  if (a.kind === 'blob' && b.kind === 'blob') {
    if (a.bytes.length !== b.bytes.length) return false;
    for (let i = 0; i < a.bytes.length; i++) if (a.bytes[i] !== b.bytes[i]) return false;
    return true;
  }
  if (a.kind === 'set' && b.kind === 'set') {
    if (a.guids.size !== b.guids.size) return false;
    for (const g of a.guids) if (!b.guids.has(g)) return false;
    return true;
  }
  return false;
}

function checkKeyValue(value: unknown): asserts value is DbKeyValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
    throw new DataModelError(`numbers must be finite, got ${value}`);
  }
  if (typeof value === 'object') {
    const v = value as { kind?: unknown; bytes?: unknown; guid?: unknown };
    if (v.kind === 'blob' && v.bytes instanceof Uint8Array) return;
    if (v.kind === 'ref' && isGuid(v.guid)) return;
    if (v.kind === 'set') throw new DataModelError('sets change through add_to_set and remove_from_set, not change_key');
  }
  throw new DataModelError(`not a database value (a ${typeof value}); use null, a boolean, number, string, blob(bytes) or ref(guid)`);
}

/** A database: objects by GUID. Operations are checked; `apply` is the only way to change it. */
export class Database {
  private readonly objects = new Map<Guid, Map<string, DbValue>>();

  constructor() {
    this.objects.set(ROOT_GUID, new Map());
  }

  /** How many objects exist (the root included). */
  get size(): number {
    return this.objects.size;
  }

  /** Whether object `guid` exists. */
  has(guid: Guid): boolean {
    return this.objects.has(guid);
  }

  /** The value of `key` on object `guid` (null when unset). */
  get(guid: Guid, key: string): DbValue {
    const object = this.objects.get(guid);
    if (object === undefined) throw new DataModelError(`no object ${guid}; create it first`);
    return object.get(key) ?? null;
  }

  /** The keys set on object `guid`. Throws a {@link DataModelError} when the object does not exist. */
  keys(guid: Guid): string[] {
    const object = this.objects.get(guid);
    if (object === undefined) throw new DataModelError(`no object ${guid}; create it first`);
    return [...object.keys()];
  }

  /** Every object's GUID, the root included. */
  guids(): Guid[] {
    return [...this.objects.keys()];
  }

  /**
   * Applies one operation. Strict mode (the default, for editing) throws DataModelError on an
   * operation that does not fit; lenient mode (for replaying other people's commits) returns
   * false and changes nothing.
   */
  apply(op: DbOp, strict = true): boolean {
    const reject = (what: string): false => {
      if (strict) throw new DataModelError(`${op.op}(${op.guid}): ${what}`);
      return false;
    };
    if (typeof (op as unknown) !== 'object' || (op as unknown) === null) throw new DataModelError('an operation must be an object');
    if (!isGuid(op.guid)) throw new DataModelError(`${op.op}: bad GUID ${JSON.stringify(op.guid)}; use lower-case 8-4-4-4-12 hex`);
    switch (op.op) {
      case 'create':
        if (this.objects.has(op.guid)) return reject('the object already exists');
        this.objects.set(op.guid, new Map());
        return true;
      case 'destroy':
        if (op.guid === ROOT_GUID) return reject('the root object cannot be destroyed');
        if (!this.objects.delete(op.guid)) return reject('no such object');
        return true;
      case 'change_key': {
        const object = this.objects.get(op.guid);
        if (object === undefined) return reject('no such object');
        if (typeof op.key !== 'string') throw new DataModelError('keys are strings');
        checkKeyValue(op.value);
        if (op.value === null) object.delete(op.key);
        else object.set(op.key, op.value);
        return true;
      }
      case 'add_to_set':
      case 'remove_from_set': {
        const object = this.objects.get(op.guid);
        if (object === undefined) return reject('no such object');
        if (typeof op.key !== 'string') throw new DataModelError('keys are strings');
        if (!isGuid(op.member)) throw new DataModelError(`bad member GUID ${JSON.stringify(op.member)}`);
        const current = object.get(op.key);
        if (current !== undefined && current !== null && (typeof current !== 'object' || current.kind !== 'set')) {
          return reject(`key ${JSON.stringify(op.key)} holds a non-set value`);
        }
        const members = new Set(current === undefined || current === null ? [] : current.guids);
        if (op.op === 'add_to_set') members.add(op.member);
        else members.delete(op.member);
        if (members.size === 0) object.delete(op.key);
        else object.set(op.key, { kind: 'set', guids: members });
        return true;
      }
      default:
        throw new DataModelError(`unknown operation ${JSON.stringify((op as { op: unknown }).op)}; use create, destroy, change_key, add_to_set or remove_from_set`);
    }
  }

  /** Applies a list in order (strict); returns this for chaining. */
  applyAll(ops: readonly DbOp[]): this {
    for (const op of ops) this.apply(op);
    return this;
  }

  /** An independent copy (values are shared; they are never mutated). */
  clone(): Database {
    const copy = new Database();
    for (const [guid, object] of this.objects) copy.objects.set(guid, new Map(object));
    return copy;
  }

  /** Dangling references and unreachable objects. */
  checkIntegrity(): IntegrityReport {
    const dangling: IntegrityReport['dangling'] = [];
    for (const [guid, object] of this.objects) {
      for (const [key, value] of object) {
        if (value === null || typeof value !== 'object') continue;
        if (value.kind === 'ref' && !this.objects.has(value.guid)) dangling.push({ guid, key, target: value.guid });
        if (value.kind === 'set') for (const g of value.guids) if (!this.objects.has(g)) dangling.push({ guid, key, target: g });
      }
    }
    const seen = new Set<Guid>([ROOT_GUID]);
    const stack: Guid[] = [ROOT_GUID];
    while (stack.length > 0) {
      const object = this.objects.get(stack.pop()!)!;
      for (const value of object.values()) {
        if (value === null || typeof value !== 'object') continue;
        const targets = value.kind === 'ref' ? [value.guid] : value.kind === 'set' ? value.guids : [];
        for (const g of targets) {
          if (!seen.has(g) && this.objects.has(g)) {
            seen.add(g);
            stack.push(g);
          }
        }
      }
    }
    const unreachable = [...this.objects.keys()].filter((g) => !seen.has(g));
    return { dangling, unreachable };
  }

  /** Object-by-object equality. */
  equals(other: Database): boolean {
    if (this.objects.size !== other.objects.size) return false;
    for (const [guid, object] of this.objects) {
      const theirs = other.objects.get(guid);
      if (theirs?.size !== object.size) return false;
      for (const [key, value] of object) if (!sameValue(value, theirs.get(key))) return false;
    }
    return true;
  }

  /** The operations turning `this` into `target`: creates, then key changes, then destroys. */
  diff(target: Database): DbOp[] {
    const ops: DbOp[] = [];
    for (const guid of target.objects.keys()) if (!this.objects.has(guid)) ops.push({ op: 'create', guid });
    for (const [guid, object] of target.objects) {
      const mine = this.objects.get(guid) ?? new Map<string, DbValue>();
      for (const [key, value] of mine) {
        if (!object.has(key)) ops.push(...changeOps(guid, key, value, null));
      }
      for (const [key, value] of object) {
        const old = mine.get(key) ?? null;
        if (!sameValue(old, value)) ops.push(...changeOps(guid, key, old, value));
      }
    }
    for (const guid of this.objects.keys()) if (!target.objects.has(guid)) ops.push({ op: 'destroy', guid });
    return ops;
  }

  /** A JSON-safe snapshot: blobs as base64, references as `{ ref }`, sets as `{ set: [...] }`. */
  toJSON(): Record<Guid, Record<string, unknown>> {
    const out: Record<Guid, Record<string, unknown>> = {};
    for (const [guid, object] of this.objects) {
      const o: Record<string, unknown> = {};
      for (const [key, value] of object) {
        Object.defineProperty(o, key, { value: encodeValue(value), enumerable: true, writable: true, configurable: true });
      }
      out[guid] = o;
    }
    return out;
  }

  /** Rebuilds a database from a `toJSON` snapshot. Throws a {@link DataModelError} for a malformed snapshot. */
  static fromJSON(json: unknown): Database {
    if (typeof json !== 'object' || json === null) throw new DataModelError('a snapshot is an object of objects by GUID');
    const db = new Database();
    for (const guid of Object.keys(json)) {
      if (!isGuid(guid)) throw new DataModelError(`snapshot: bad GUID ${JSON.stringify(guid)}`);
      if (guid !== ROOT_GUID) db.apply({ op: 'create', guid });
      const o = (json as Record<string, unknown>)[guid];
      if (typeof o !== 'object' || o === null) throw new DataModelError(`snapshot: object ${guid} is not an object`);
      for (const key of Object.keys(o)) {
        const value = decodeValue((o as Record<string, unknown>)[key]);
        if (value !== null && typeof value === 'object' && value.kind === 'set') {
          for (const member of value.guids) db.apply({ op: 'add_to_set', guid, key, member });
        } else {
          db.apply({ op: 'change_key', guid, key, value });
        }
      }
    }
    return db;
  }
}

function changeOps(guid: Guid, key: string, from: DbValue, to: DbValue): DbOp[] {
  const fromSet = from !== null && typeof from === 'object' && from.kind === 'set' ? from : null;
  const toSet = to !== null && typeof to === 'object' && to.kind === 'set' ? to : null;
  const ops: DbOp[] = [];
  if (fromSet !== null || toSet !== null) {
    // A set against a set: member operations only. A set replaced by a plain value: clear first.
    if (fromSet !== null && toSet === null) {
      ops.push({ op: 'change_key', guid, key, value: null });
      if (to !== null) ops.push({ op: 'change_key', guid, key, value: to as DbKeyValue });
      return ops;
    }
    if (fromSet === null && from !== null) ops.push({ op: 'change_key', guid, key, value: null });
    for (const g of fromSet?.guids ?? []) if (!toSet!.guids.has(g)) ops.push({ op: 'remove_from_set', guid, key, member: g });
    for (const g of toSet!.guids) if (!fromSet?.guids.has(g)) ops.push({ op: 'add_to_set', guid, key, member: g });
    return ops;
  }
  ops.push({ op: 'change_key', guid, key, value: to as DbKeyValue });
  return ops;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A value as JSON (used by snapshots and by the store's log). */
export function encodeValue(value: DbValue): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value.kind === 'blob') return { blob: toBase64(value.bytes) };
  if (value.kind === 'ref') return { ref: value.guid };
  return { set: [...value.guids].sort() };
}

/** The value an `encodeValue` result stands for. Throws a {@link DataModelError} for anything else. */
export function decodeValue(json: unknown): DbValue {
  if (json === null || typeof json === 'boolean' || typeof json === 'number' || typeof json === 'string') return json;
  if (typeof json === 'object') {
    const o = json as { blob?: unknown; ref?: unknown; set?: unknown };
    if (typeof o.blob === 'string') return { kind: 'blob', bytes: fromBase64(o.blob) };
    if (isGuid(o.ref)) return { kind: 'ref', guid: o.ref };
    if (Array.isArray(o.set) && o.set.every(isGuid)) return { kind: 'set', guids: new Set(o.set) };
  }
  throw new DataModelError(`not an encoded value: ${JSON.stringify(json)}`);
}

/** An operation as JSON (blob and reference values encoded). */
export function encodeOp(op: DbOp): unknown {
  return op.op === 'change_key' ? { ...op, value: encodeValue(op.value) } : { ...op };
}

/** The operation an `encodeOp` result stands for. Throws a {@link DataModelError} for anything else. */
export function decodeOp(json: unknown): DbOp {
  if (typeof json !== 'object' || json === null) throw new DataModelError('an encoded operation is an object');
  const o = json as DbOp & { value?: unknown };
  if (o.op === 'change_key') return { ...o, value: decodeValue(o.value) as DbKeyValue };
  return o;
}

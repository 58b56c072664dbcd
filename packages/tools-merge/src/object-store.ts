// Central store and local changes. A user works on a local list of operations over a snapshot
// (online or offline), then commits all or part of it; the store keeps one ordered log, and
// replaying it in order is the database. Two users changing the same key of the same object is
// the only conflict, and the later commit wins, as the post prescribes.
import { Database, DataModelError, decodeOp, encodeOp, type DbOp } from './database.ts';

/** One committed operation: its place in the log, who committed it and when. */
export interface CommittedOp {
  /** Place in the store's log, from 1. */
  seq: number;
  /** Who committed it. */
  author: string;
  /** When, in milliseconds since the Unix epoch (the store's clock). */
  time: number;
  /** The operation. */
  op: DbOp;
}

/** What a store can do; MemoryStore here, FileStore (a JSON-lines file) in the Node layer. */
export interface ObjectStore {
  /** Appends `ops` in order; returns the sequence number of the last one (or the head if empty). */
  commit(ops: readonly DbOp[], author: string): number;
  /** The log from sequence number `after` + 1 on (all of it by default). */
  log(after?: number): CommittedOp[];
  /** The sequence number of the newest op (0 for an empty store). */
  head(): number;
}

/** The database at the head of the store: the log replayed, ops that no longer fit skipped. */
export function checkout(store: ObjectStore): { database: Database; head: number; skipped: CommittedOp[] } {
  const database = new Database();
  const skipped: CommittedOp[] = [];
  let head = 0;
  for (const c of store.log()) {
    if (!database.apply(c.op, false)) skipped.push(c);
    head = c.seq;
  }
  return { database, head, skipped };
}

/** A store held in memory. */
export class MemoryStore implements ObjectStore {
  private readonly entries: CommittedOp[] = [];
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** {@inheritDoc ObjectStore.commit} */
  commit(ops: readonly DbOp[], author: string): number {
    validateCommit(ops, author);
    const time = this.now();
    for (const op of ops) this.entries.push({ seq: this.entries.length + 1, author, time, op: decodeOp(encodeOp(op)) });
    return this.entries.length;
  }

  /** {@inheritDoc ObjectStore.log} */
  log(after = 0): CommittedOp[] {
    return this.entries.slice(after);
  }

  /** {@inheritDoc ObjectStore.head} */
  head(): number {
    return this.entries.length;
  }
}

export function validateCommit(ops: readonly DbOp[], author: string): void {
  const given: unknown = ops;
  if (!Array.isArray(given)) throw new DataModelError('commit takes an array of operations');
  if (typeof author !== 'string' || author.length === 0) throw new DataModelError('commit needs an author name');
}

/**
 * A user's working copy: the store's database at some head plus a local list of operations
 * (applied to the local view as they are made). Commit all of it or only the chosen indices.
 */
export class Workspace {
  /** The local view: the checked-out database with the local operations applied. */
  readonly view: Database;
  private base: Database;
  private pending: DbOp[] = [];
  private seenHead: number;

  constructor(
    private readonly store: ObjectStore,
    /** Who the workspace's commits are made as. */
    readonly author: string,
  ) {
    const { database, head } = checkout(store);
    this.base = database;
    this.view = database.clone();
    this.seenHead = head;
  }

  /** The local operations not yet committed. */
  get local(): readonly DbOp[] {
    return this.pending;
  }

  /** Makes a change locally (checked against the local view). */
  edit(op: DbOp): this {
    this.view.apply(op);
    this.pending.push(op);
    return this;
  }

  /**
   * Commits the local operations (or those at `indices`, in their local order) and keeps the
   * rest local. Returns the store's new head.
   */
  commit(indices?: readonly number[]): number {
    const chosen = indices === undefined ? this.pending.map((_, i) => i) : [...new Set(indices)].sort((a, b) => a - b);
    for (const i of chosen) if (!Number.isInteger(i) || i < 0 || i >= this.pending.length) throw new DataModelError(`no local operation ${i}; there are ${this.pending.length}`);
    const head = this.store.commit(chosen.map((i) => this.pending[i]!), this.author);
    const keep = new Set(chosen);
    this.pending = this.pending.filter((_, i) => !keep.has(i));
    this.update();
    return head;
  }

  /** Brings in everything committed since the last update; local operations are re-applied on top. */
  update(): void {
    const incoming = this.store.log(this.seenHead);
    for (const c of incoming) {
      this.base.apply(c.op, false);
      this.seenHead = c.seq;
    }
    const view = this.base.clone();
    const kept: DbOp[] = [];
    for (const op of this.pending) if (view.apply(op, false)) kept.push(op);
    this.pending = kept;
    // Replace the view's contents in place so references to it stay valid.
    const ops = this.view.diff(view);
    this.view.applyAll(ops);
  }
}

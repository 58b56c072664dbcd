// The central store as one JSON-lines file: each line a committed operation. A commit appends
// its whole batch in one write, so readers never see half a commit; the next sequence number
// comes from the file's last line.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DataModelError, decodeOp, encodeOp, type DbOp } from './database.ts';
import { validateCommit, type CommittedOp, type ObjectStore } from './object-store.ts';

/** A central store as one JSON-lines file, each line a committed operation: a commit appends its batch in one write, so readers never see half a commit. Node only. */
export class FileStore implements ObjectStore {
  constructor(
    /** The store's file; made empty when it does not exist. */
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    if (typeof path !== 'string' || path.length === 0) throw new DataModelError('FileStore needs a file path');
    if (!existsSync(path)) writeFileSync(path, '');
  }

  /** Appends `ops` in order, in one write; returns the sequence number of the last one (or the head if empty). */
  commit(ops: readonly DbOp[], author: string): number {
    validateCommit(ops, author);
    let seq = this.head();
    const time = this.now();
    let text = '';
    for (const op of ops) text += JSON.stringify({ seq: ++seq, author, time, op: encodeOp(op) }) + '\n';
    if (text.length > 0) appendFileSync(this.path, text);
    return seq;
  }

  /** The log from sequence number `after` + 1 on (all of it by default). Throws a `DataModelError` for a damaged line. */
  log(after = 0): CommittedOp[] {
    const out: CommittedOp[] = [];
    const lines = readFileSync(this.path, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.length === 0) continue;
      let entry: { seq: number; author: string; time: number; op: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        throw new DataModelError(`${this.path}:${i + 1}: not a JSON line; the store file is damaged`);
      }
      if (entry.seq > after) out.push({ seq: entry.seq, author: entry.author, time: entry.time, op: decodeOp(entry.op) });
    }
    return out;
  }

  /** The sequence number of the newest op (0 for an empty store). */
  head(): number {
    const text = readFileSync(this.path, 'utf8');
    const end = text.lastIndexOf('\n', text.length - 2);
    const last = text.slice(end + 1).trim();
    return last.length === 0 ? 0 : (JSON.parse(last) as { seq: number }).seq;
  }
}

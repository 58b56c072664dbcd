// Reading the project's files. A one-off compile reads every file. A compile that keeps a
// ProjectCache (the --watch loop does) reads only what changed since the last one: the paths
// its watcher reported, or, when it cannot know (the first compile, a lost event), the files
// whose size, change time or inode differ. Hashes and decoded texts are kept with the bytes.
import { lstatSync, readdirSync, readFileSync, type BigIntStats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { EngineError } from '../errors.ts';
import { contentHash } from './hash.ts';

export interface ScannedFile {
  bytes: Uint8Array;
  hash: string;
  /** The text of a text source ('' for binary files), decoded once. */
  text: string;
  /** size, mtime, ctime and inode: a file whose signature is unchanged is not read again. */
  signature: string;
}

/** What one compile leaves for the next in the same process. */
export class ProjectCache {
  readonly files = new Map<string, ScannedFile>();
  /** Project paths a watcher reported since the last scan; 'all' when unknown. */
  #dirty: Set<string> | 'all' = 'all';
  /** Anything a later compile may keep (the dependency graph, the manifest it wrote). */
  readonly kept = new Map<string, unknown>();

  /** A file or folder under the project changed (relative path, as fs.watch reports it). */
  touched(path: string): void {
    if (this.#dirty !== 'all') this.#dirty.add(path.split(sep).join('/'));
  }

  /** The next scan looks at every file (a watcher that lost events). */
  touchedAll(): void {
    this.#dirty = 'all';
  }

  /** @internal */
  takeDirty(): Set<string> | 'all' {
    const dirty = this.#dirty;
    this.#dirty = new Set();
    return dirty;
  }
}

/** A file's size, change times and inode: unchanged means not rewritten (what the cache compares). */
export function signatureOf(stats: BigIntStats): string {
  return `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}`;
}

const hidden = (path: string): boolean => path.split('/').some((part) => part.startsWith('.'));

/**
 * The project's files by path (sorted), read or taken from `cache`. `isText(path)` says which
 * files are text sources (decoded once).
 */
export function scanProject(root: string, isText: (path: string) => boolean, cache?: ProjectCache): Map<string, ScannedFile> {
  let rootStats: BigIntStats;
  try {
    rootStats = lstatSync(root, { bigint: true });
  } catch {
    throw new EngineError(`source folder ${root} does not exist.`);
  }
  if (!rootStats.isDirectory()) throw new EngineError(`source folder ${root} is not a folder.`);
  const files = cache?.files ?? new Map<string, ScannedFile>();
  // A cache's map is kept in order; only a file added or removed makes it sort again.
  let reordered = cache === undefined || files.size === 0;
  const decoder = new TextDecoder();
  const visit = (path: string, stats: BigIntStats): void => {
    const signature = signatureOf(stats);
    const known = files.get(path);
    if (known?.signature === signature) return;
    if (known === undefined) reordered = true;
    const bytes = readFileSync(join(root, path));
    files.set(path, { bytes, hash: contentHash(bytes), text: isText(path) ? decoder.decode(bytes) : '', signature });
  };
  const walk = (dir: string, seen: Set<string>): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path, seen);
      else if (entry.isFile()) {
        seen.add(path);
        visit(path, lstatSync(join(root, path), { bigint: true }));
      }
    }
  };
  const dirty = cache ? cache.takeDirty() : 'all';
  if (dirty === 'all') {
    const seen = new Set<string>();
    walk('', seen);
    for (const path of [...files.keys()]) {
      if (seen.has(path)) continue;
      files.delete(path);
      reordered = true;
    }
  } else {
    for (const path of dirty) {
      if (path === '' || hidden(path) || relative(root, join(root, path)).startsWith('..')) continue;
      let stats: BigIntStats | undefined;
      try {
        stats = lstatSync(join(root, path), { bigint: true });
      } catch {
        stats = undefined;
      }
      // Gone (or replaced by a folder): forget it and everything under it, then look again. A
      // file still there keeps its place (visit reads it again if it changed).
      const stillFile = stats?.isFile() === true;
      for (const known of [...files.keys()]) {
        if (known === path ? stillFile : !known.startsWith(`${path}/`)) continue;
        files.delete(known);
        reordered = true;
      }
      if (stats?.isDirectory()) walk(path, new Set());
      else if (stats?.isFile()) visit(path, stats);
    }
  }
  if (!reordered) return new Map(files);
  // In the order a depth-first walk of sorted folders meets them ('/' sorts before any name
  // character that way): manifests and reports list files in this order.
  const key = (path: string): string => path.replaceAll('/', '\0');
  const sorted = [...files.keys()].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const result = new Map<string, ScannedFile>();
  for (const path of sorted) result.set(path, files.get(path)!);
  if (cache) {
    files.clear();
    for (const [path, file] of result) files.set(path, file);
  }
  return result;
}

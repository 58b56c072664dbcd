// Outputs are written to a temporary file beside the target and renamed over it: rename is
// atomic on one file system, so a reader (or a crash, or a kill) sees the old file or the new
// one, never half of either.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const TEMP_MARK = '.tmp-';

/** Test hook: pause this long (ms) halfway through writing each file, so a kill lands mid-write. */
const pauseMs = Number(process.env.CUTTLE_ENGINE_WRITE_PAUSE_MS ?? 0);

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}${TEMP_MARK}${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const fd = openSync(temp, 'w');
  try {
    const half = pauseMs > 0 ? bytes.length >> 1 : bytes.length;
    let at = 0;
    while (at < half) at += writeSync(fd, bytes, at, half - at);
    if (pauseMs > 0) pause(pauseMs);
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
}

/** Removes temporary files a killed compiler left behind (they never replaced an output). */
export function removeStaleTemporaries(dir: string): number {
  let removed = 0;
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes(TEMP_MARK)) {
        rmSync(full, { force: true });
        removed++;
      }
    }
  };
  walk(dir);
  return removed;
}

// Outputs are written to a temporary file and renamed over the target: rename is atomic on one
// file system, so a reader (or a crash, or a kill) sees the old file or the new one, never half
// of either. Temporary files live in the output's `.cuttle-tmp` folder, a name no output can
// have (sources whose names start with a dot are never compiled), so clearing what a killed
// compiler left there can never delete an output.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const TEMP_FOLDER = '.cuttle-tmp';

/** Test hook: pause this long (ms) halfway through writing each file, so a kill lands mid-write. */
const pauseMs = Number(process.env.CUTTLE_ENGINE_WRITE_PAUSE_MS ?? 0);

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes `file` (relative to the output folder `out`) whole, or leaves its old version. */
export function writeFileAtomic(out: string, file: string, data: Uint8Array | string): void {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const target = join(out, file);
  const temps = join(out, TEMP_FOLDER);
  mkdirSync(dirname(target), { recursive: true });
  mkdirSync(temps, { recursive: true });
  // <pid>-<random>-<the target's name>: the pid says whose it is, the name what it was for.
  const temp = join(temps, `${process.pid}-${Math.random().toString(36).slice(2, 8)}-${basename(file).slice(0, 100)}`);
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
  renameSync(temp, target);
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temporary files that killed compilers left in `out` (they never replaced an output);
 * those of another compiler still running on the same folder stay.
 */
export function removeStaleTemporaries(out: string): number {
  const temps = join(out, TEMP_FOLDER);
  let names: string[];
  try {
    names = readdirSync(temps);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number.parseInt(name, 10);
    if (pid !== process.pid && isRunning(pid)) continue;
    rmSync(join(temps, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

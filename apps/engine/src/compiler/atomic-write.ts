// Outputs are written to a temporary file and renamed over the target: rename is atomic on one
// file system, so a reader (or a crash, or a kill) sees the old file or the new one, never half
// of either. Temporary files live in the output's `.cuttle-tmp` folder, a name no output can
// have (sources whose names start with a dot are never compiled), so clearing what a killed
// compiler left there can never delete an output.
import { closeSync, fsync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync, writevSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const TEMP_FOLDER = '.cuttle-tmp';

/** Test hook: pause this long (ms) halfway through writing each file, so a kill lands mid-write. */
const pauseMs = Number(process.env.CUTTLE_ENGINE_WRITE_PAUSE_MS ?? 0);

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

type Data = Uint8Array | string | readonly Uint8Array[];

/** Opens a temporary file for `file` and writes `data` into it (not yet flushed). */
function writeTemporary(out: string, file: string, data: Data): { fd: number; temp: string; target: string } {
  const parts = typeof data === 'string' ? [new TextEncoder().encode(data)] : data instanceof Uint8Array ? [data] : data;
  const target = join(out, file);
  const temps = join(out, TEMP_FOLDER);
  mkdirSync(dirname(target), { recursive: true });
  mkdirSync(temps, { recursive: true });
  // <pid>-<random>-<the target's name>: the pid says whose it is, the name what it was for.
  const temp = join(temps, `${process.pid}-${Math.random().toString(36).slice(2, 8)}-${basename(file).slice(0, 100)}`);
  const fd = openSync(temp, 'w');
  try {
    if (pauseMs > 0) {
      const bytes = Buffer.concat(parts);
      const half = bytes.length >> 1;
      writeAll(fd, bytes.subarray(0, half));
      pause(pauseMs);
      writeAll(fd, bytes.subarray(half));
    } else writeParts(fd, parts);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  return { fd, temp, target };
}

/**
 * Writes `file` (relative to the output folder `out`) whole, or leaves its old version. `data`
 * may come in parts, written one after another (the manifest's reused runs).
 */
export function writeFileAtomic(out: string, file: string, data: Data): void {
  const { fd, temp, target } = writeTemporary(out, file, data);
  try {
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, target);
}

/**
 * writeFileAtomic, but the flush to disk and the rename happen later, on libuv's threads: the
 * returned promise settles once the file is in place (or rejects, the old version left). A
 * compile of several resources on one thread waits for their flushes together, which the file
 * system commits at once, instead of one after another. The bytes are written before it returns.
 */
export function writeFileAtomicLater(out: string, file: string, data: Data): Promise<void> {
  const { fd, temp, target } = writeTemporary(out, file, data);
  return new Promise((resolve, reject) => {
    fsync(fd, (error) => {
      closeSync(fd);
      try {
        if (error) throw error;
        renameSync(temp, target);
        resolve();
      } catch (failure) {
        rmSync(temp, { force: true });
        reject(failure instanceof Error ? failure : new Error(String(failure)));
      }
    });
  });
}

/** The parts in one writev where the kernel takes them whole (the manifest's hundred runs: one call, not a hundred). */
function writeParts(fd: number, parts: readonly Uint8Array[]): void {
  if (parts.length === 1) {
    writeAll(fd, parts[0]!);
    return;
  }
  let written = writevSync(fd, parts);
  for (const part of parts) {
    if (written >= part.length) written -= part.length;
    else {
      writeAll(fd, part.subarray(written));
      written = 0;
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
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

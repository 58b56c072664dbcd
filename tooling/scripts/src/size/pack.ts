// Packed size: the bytes of the tarball `pnpm pack` makes, the file `pnpm publish` uploads
// (workspace: ranges replaced, publishConfig applied), which `npm pack --dry-run` would not give
// exactly for packages with workspace dependencies.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PublishablePackage } from '../publishable.ts';

const run = promisify(execFile);

/** Packed bytes by package name; packs two at a time (2-core machines). */
export async function packedBytes(packages: PublishablePackage[]): Promise<Map<string, number>> {
  const dest = mkdtempSync(join(tmpdir(), 'cuttle-size-pack-'));
  const sizes = new Map<string, number>();
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < packages.length) {
        const p = packages[next++]!;
        const { stdout } = await run('pnpm', ['pack', '--pack-destination', dest], { cwd: p.dir, maxBuffer: 16 * 1024 * 1024 });
        const file = /([^\s/]+\.tgz)\s*$/.exec(stdout.trim());
        if (file === null) throw new Error(`pnpm pack printed no tarball for ${p.manifest.name}:\n${stdout}`);
        sizes.set(p.manifest.name, statSync(join(dest, file[1]!)).size);
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
  return sizes;
}

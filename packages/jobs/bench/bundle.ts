// Workers load JavaScript only: the benchmarks (and the tests) bundle the job worker, the kernels and the
// peers' workers with esbuild into plain .mjs files first, as a user's build would.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;

/**
 * Bundles `entries` (name to source path) into `outDir` (default: a temp folder); returns the
 * folder. `external` packages are left as imports (the caller puts them beside the bundle).
 */
export async function bundleEntries(entries: Record<string, string>, outDir?: string, external: string[] = []): Promise<string> {
  const dir = outDir ?? mkdtempSync(join(tmpdir(), 'cuttle-jobs-bench-'));
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: entries,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cuttle/source'],
    // workerpool is CommonJS: give its bundled require() calls a real require.
    banner: { js: "import { createRequire as __cuttleRequire } from 'node:module'; const require = __cuttleRequire(import.meta.url);" },
    external,
    logLevel: 'error',
  });
  return dir;
}

export const benchSources = {
  worker: join(here, '../src/worker.ts'),
  kernels: join(here, 'kernels.ts'),
  'piscina-worker': join(here, 'peers/piscina-worker.ts'),
  'workerpool-worker': join(here, 'peers/workerpool-worker.ts'),
};

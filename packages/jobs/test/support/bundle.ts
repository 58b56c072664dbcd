// Workers cannot import TypeScript, so the tests bundle the worker entry and the kernel
// modules with esbuild into plain .mjs files, as a user's build would.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleEntries } from '../../bench/bundle.ts';

const here = import.meta.dirname;

export interface Bundled {
  dir: string;
  worker: string;
  kernels: string;
  url(name: string): string;
}

export async function bundle(extra: Record<string, string> = {}): Promise<Bundled> {
  const dir = await bundleEntries({
    worker: join(here, '../../src/worker.ts'),
    kernels: join(here, '../fixtures/kernels.ts'),
    ...extra,
  });
  const url = (name: string): string => pathToFileURL(join(dir, `${name}.mjs`)).href;
  return { dir, worker: url('worker'), kernels: url('kernels'), url };
}

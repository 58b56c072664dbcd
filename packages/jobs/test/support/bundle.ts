// Workers cannot import TypeScript, so the tests bundle the worker entry and the kernel
// modules with esbuild into plain .mjs files, as a user's build would.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleEntries } from '../../bench/bundle.ts';
import { JobSystem, type JobSystemOptions } from '../../src/index.ts';
import type * as KernelModule from '../fixtures/kernels.ts';

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

export type Kernels = typeof KernelModule;

/** The bundled test kernels, imported here, and a JobSystem over them (workerUrl and kernels filled in). */
export async function startJobs(options: Omit<JobSystemOptions, 'kernels' | 'workerUrl'>): Promise<{ jobs: JobSystem; k: Kernels; files: Bundled }> {
  const files = await bundle();
  const k = (await import(files.kernels)) as Kernels;
  const jobs = await JobSystem.initialize({ kernels: [files.kernels], workerUrl: files.worker, ...options });
  return { jobs, k, files };
}

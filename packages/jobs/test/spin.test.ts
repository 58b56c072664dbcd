// The optional spin before sleeping: workers (and wait) poll for a while, then still sleep.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { JobSystem, JobsError } from '../src/index.ts';
import { bundle, type Bundled } from './support/bundle.ts';
import { poolOf } from './support/internals.ts';
import type * as KernelModule from './fixtures/kernels.ts';

let files: Bundled;
let k: typeof KernelModule;
const open: JobSystem[] = [];

beforeAll(async () => {
  files = await bundle();
  k = (await import(files.kernels)) as typeof KernelModule;
});

afterAll(async () => {
  await Promise.all(open.map((jobs) => jobs.shutdown()));
});

/** Workers asleep on WORK_SEQ (header field SLEEPERS). */
function sleepers(jobs: JobSystem): number {
  return Atomics.load(poolOf(jobs).scheduler.i32, 2);
}

async function settle(jobs: JobSystem, count: number, ms: number): Promise<number> {
  const end = performance.now() + ms;
  while (sleepers(jobs) < count && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 1));
  return sleepers(jobs);
}

test('spinning workers and a spinning wait run jobs as usual, then the workers sleep', async () => {
  const jobs = await JobSystem.initialize({ kernels: [files.kernels], workerUrl: files.worker, workerCount: 2, spinMicroseconds: 300_000, waitSpinMicroseconds: 500 });
  open.push(jobs);
  const data = new Float32Array(new SharedArrayBuffer(5000 * 16 * 4));
  for (let round = 0; round < 20; round++) {
    jobs.at('streaming').dispatch(5000, 250, k.compute, data);
    jobs.wait();
  }
  expect(data[4999 * 16]).toBe(4999 * 20);
  // Spinning 300 ms after the last job, then asleep: the spin is bounded.
  expect(sleepers(jobs)).toBeLessThan(2);
  expect(await settle(jobs, 2, 2000)).toBe(2);
});

test('without a spin idle workers go to sleep at once', async () => {
  const jobs = await JobSystem.initialize({ kernels: [files.kernels], workerUrl: files.worker, workerCount: 2, spinMicroseconds: 0 });
  open.push(jobs);
  jobs.at('streaming').execute(k.empty);
  jobs.wait();
  expect(await settle(jobs, 2, 100)).toBe(2);
});

test('bad spin options throw JobsError', async () => {
  for (const options of [{ spinMicroseconds: -1 }, { spinMicroseconds: Number.NaN }, { waitSpinMicroseconds: 2_000_000 }]) {
    await expect(JobSystem.initialize({ kernels: [files.kernels], workerUrl: files.worker, workerCount: 1, ...options })).rejects.toThrow(JobsError);
  }
});

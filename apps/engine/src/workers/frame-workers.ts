// The engine's frame workers: a @cuttle/jobs pool over the frame kernels (the walkers'
// animation), with the main thread helping inside each frame's wait, so `threads` counts it.
import { JobSystem } from '@cuttle/jobs';
import { EngineError } from '../errors.ts';
import { compileKernelUrls, type KernelUrls } from './kernel-bundle.ts';

export async function startFrameWorkers(threads: number, kernels?: KernelUrls): Promise<JobSystem | undefined> {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new EngineError(`frame threads must be a whole number from 1 to 256, got ${threads}.`);
  if (threads === 1) return undefined;
  const urls = kernels ?? (await compileKernelUrls());
  if (urls.frame === undefined) throw new EngineError('the kernel bundle has no frame kernels; bundle runtime/parallel/frame-kernels.ts with the others.');
  return JobSystem.initialize({ kernels: [urls.frame], workerUrl: urls.worker, workerCount: threads - 1 });
}

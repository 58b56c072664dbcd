// The engine's frame workers: a @cuttle/jobs pool over the frame kernels (the walkers'
// animation) and the texture kernels (KTX2 transcoding at load, each worker with its own Basis
// transcoder), with the main thread helping inside each wait, so `threads` counts it.
import { JobSystem } from '@cuttle/jobs';
import { EngineError } from '../errors.ts';
import { compileKernelUrls, type KernelUrls } from './kernel-bundle.ts';

export async function startFrameWorkers(threads: number, kernels?: KernelUrls): Promise<JobSystem | undefined> {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new EngineError(`frame threads must be a whole number from 1 to 256, got ${threads}.`);
  if (threads === 1) return undefined;
  const urls = kernels ?? (await compileKernelUrls());
  if (urls.frame === undefined || urls.textures === undefined) throw new EngineError('the kernel bundle has no frame or texture kernels; bundle runtime/parallel/frame-kernels.ts and texture-kernels.ts with the others (pnpm --filter @cuttle/engine bundle:kernels <dir>).');
  return JobSystem.initialize({ kernels: [urls.frame, urls.textures], workerUrl: urls.worker, workerCount: threads - 1 });
}

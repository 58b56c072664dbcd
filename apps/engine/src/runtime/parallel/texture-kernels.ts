// The texture kernel module the engine's frame workers load (bundled by workers/kernel-bundle.ts
// beside frame-kernels.ts). Its top-level await loads the Basis transcoder (WebAssembly) once per
// thread when the pool starts (a replaced worker loads it again), so a Dispatch's kernel, which
// must be synchronous, always finds it.
import type { JobDispatchArgs } from '@cuttle/jobs';
import { basisModule } from '../../textures/basis-module.ts';
import { transcodeRecord } from './texture-records.ts';

const basis = await basisModule();

/** Texture record `job.jobIndex` of `table` (texture-records.ts) transcoded into `output`; its outcome into `outcomes`. */
export function transcodeTextures(job: JobDispatchArgs, files: Uint8Array, table: Float64Array, stride: number, output: Uint8Array, outcomes: Int32Array): void {
  outcomes[job.jobIndex] = transcodeRecord(basis, files, table, stride, output, job.jobIndex);
}

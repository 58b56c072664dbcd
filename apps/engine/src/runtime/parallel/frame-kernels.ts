// The kernel module the engine's frame workers load (bundled by workers/kernel-bundle.ts).
// Every export is a kernel.
import { createPaletteScratch, createPose } from '@cuttle/gpu-skinning';
import type { JobDispatchArgs } from '@cuttle/jobs';
import { characterClipOf } from '../character-clip.ts';
import { readContainer } from '../container.ts';
import type { MeshMeta } from '../formats.ts';
import { walkCharacter, type WalkCycle } from '../walk-cycle.ts';

export { updateFlow } from './flow-kernel.ts';

// One character set's skeleton, clip and scratch pose per worker, made the first time the set's
// mesh (the same shared buffer every frame) reaches this worker.
const cycles = new WeakMap<ArrayBufferLike, WalkCycle>();

function cycleOf(mesh: Uint8Array): WalkCycle {
  let cycle = cycles.get(mesh.buffer);
  if (cycle) return cycle;
  // A private copy: the container's header is text, and TextDecoder refuses shared memory.
  const { skeleton, clip } = characterClipOf(readContainer<MeshMeta>(mesh.slice(), 'mesh'), 'walker');
  cycle = { skeleton, clip, pose: createPose(skeleton), scratch: createPaletteScratch(skeleton) };
  cycles.set(mesh.buffer, cycle);
  return cycle;
}

/**
 * Character `job.jobIndex`'s palette into `palettes` (12 floats per joint, `paletteFloats` per
 * character) and its bounding sphere into `bounds` (4 floats per character; `sphere`: the bind
 * pose's).
 */
export function walkCharacters(job: JobDispatchArgs, mesh: Uint8Array, paths: Float32Array, palettes: Float32Array, paletteFloats: number, time: number, walkScale: number, sphere: Float64Array, bounds: Float32Array): void {
  const k = job.jobIndex;
  walkCharacter(cycleOf(mesh), paths, k, time, walkScale, palettes.subarray(k * paletteFloats, (k + 1) * paletteFloats), sphere, bounds);
}

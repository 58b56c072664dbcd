// A skinned mesh's skeleton and walk clip, read from its compiled container: the same code for
// the world (one thread) and the frame workers (parallel/frame-kernels.ts), so both animate
// from the same numbers.
import { createAnimationClip, createSkeleton, type AnimationClip, type Skeleton } from '@cuttle/gpu-skinning';
import { EngineError } from '../errors.ts';
import { section, writeContainer, type Container, type SectionArray } from './container.ts';
import type { MeshMeta } from './formats.ts';

export function characterClipOf(c: Container<MeshMeta>, meshName: string): { skeleton: Skeleton; clip: AnimationClip } {
  if (c.meta.kind !== 'skinned') throw new EngineError(`${meshName}.glb is not skinned, but a character unit uses it.`);
  const skeleton = createSkeleton({ parents: section(c, 'parents', Int32Array), translations: section(c, 'translations', Float32Array), rotations: section(c, 'rotations', Float32Array), scales: section(c, 'scales', Float32Array), joints: section(c, 'joints', Uint32Array), inverseBindMatrices: section(c, 'inverseBind', Float32Array) });
  const clipMeta = c.meta.clips[0];
  if (!clipMeta) throw new EngineError(`${meshName}.glb has no animation for its characters to play.`);
  const clip = createAnimationClip(skeleton, clipMeta.channels.map((ch) => ({ node: ch.node, path: ch.path, interpolation: ch.interpolation, times: section(c, ch.times, Float32Array), values: section(c, ch.values, Float32Array) })), clipMeta.name);
  return { skeleton, clip };
}

/**
 * The sections characterClipOf reads, as a container of their own: what the frame workers get
 * (a few kilobytes, not the mesh's vertex streams).
 */
export function characterClipBytes(c: Container<MeshMeta>): Uint8Array {
  const clip = c.meta.kind === 'skinned' ? c.meta.clips[0] : undefined;
  const names = ['parents', 'translations', 'rotations', 'scales', 'joints', 'inverseBind', ...(clip?.channels.flatMap((ch) => [ch.times, ch.values]) ?? [])];
  const sections: Record<string, SectionArray> = {};
  for (const name of names) {
    const array = c.sections.get(name);
    if (array) sections[name] = array;
  }
  return writeContainer({ type: c.type, meta: c.meta, sections });
}

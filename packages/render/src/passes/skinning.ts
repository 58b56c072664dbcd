// Compute skinning first: every later pass draws its output. It writes the characters'
// GpuSkinning vertex buffers, which the graph does not hold, so it runs for its side effects.
import { PASSES } from '../api.ts';
import type { FrameState } from '../frame/frame-state.ts';
import type { PassDecl } from '../graph/pass.ts';

export function skinningPass(frame: FrameState): PassDecl | undefined {
  const skinnings = [...new Set(frame.scene.skinned.map((draw) => draw.skinning))];
  if (skinnings.length === 0) return undefined;
  return {
    name: 'skinning',
    sideEffects: true,
    execute: ({ encoder }) => {
      const { timestamps } = frame;
      const index = PASSES.indexOf('skinning') * 2;
      if (timestamps) frame.timed.add('skinning');
      skinnings.forEach((skinning, k) => {
        skinning.skin(encoder, timestamps ? { querySet: timestamps, ...(k === 0 ? { beginIndex: index } : {}), ...(k === skinnings.length - 1 ? { endIndex: index + 1 } : {}) } : undefined);
      });
    },
  };
}

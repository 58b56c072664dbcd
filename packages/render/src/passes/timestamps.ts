// Last: the frame's timestamp queries resolved and copied out for Renderer.readTimings.
import { PASSES } from '../api.ts';
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import type { PassDecl } from '../graph/pass.ts';

export function timestampsPass(core: RendererCore, frame: FrameState): PassDecl | undefined {
  const timing = core.timing;
  if (!frame.timestamps || !timing) return undefined;
  return {
    name: 'timestamps',
    sideEffects: true,
    execute: ({ encoder }) => {
      encoder.resolveQuerySet(timing.querySet, 0, PASSES.length * 2, timing.resolve, 0);
      encoder.copyBufferToBuffer(timing.resolve, 0, timing.readback, 0, PASSES.length * 16);
    },
  };
}

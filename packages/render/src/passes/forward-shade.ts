// The forward+ path's opaque pass: each surface lit in its fragment shader from its tile's culled
// lights where the prepass kept it, into cleared HDR and motion targets.
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';
import { LIT_INPUTS } from './lit-inputs.ts';

export function forwardShadePass(core: RendererCore, frame: FrameState): PassDecl {
  const { scene, lists, computed } = frame;
  return {
    name: 'forward-shade',
    reads: [{ resource: RESOURCES.depth, use: 'attachment' }, ...LIT_INPUTS],
    writes: [{ resource: RESOURCES.hdr, use: 'attachment', discard: true }, { resource: RESOURCES.motion, use: 'attachment', discard: true }],
    execute: ({ encoder }) => {
      const skinned = { hardware: scene.skinned.filter((draw) => !computed.includes(draw)), computed, raster: core.skinnedRaster };
      core.forward.shade(encoder, scene, lists.groups, frame.targets!, skinned, { frame: core.frameGroup(), cull: core.culledGroup() }, frame.stamp('opaque', true, true));
    },
  };
}

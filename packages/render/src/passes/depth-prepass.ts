// The forward+ path's depth prepass: the compute-rasterized characters' camera depths, then the
// opaque surfaces' depths (masked ones cut by their alpha), timed as 'depth' with the fluid's
// splat after it.
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function depthPrepassPass(core: RendererCore, frame: FrameState): PassDecl {
  const { scene, lists, computed, reversed, stamp, fluids } = frame;
  return {
    name: 'depth-prepass',
    writes: [{ resource: RESOURCES.depth, use: 'attachment', discard: true }],
    execute: ({ encoder }) => {
      if (computed.length > 0) core.skinnedRaster.camera(encoder, stamp('depth', true, false));
      const skinned = { hardware: scene.skinned.filter((draw) => !computed.includes(draw)), computed, raster: core.skinnedRaster };
      core.forward.prepass(encoder, scene, lists.groups, frame.targets!, reversed, skinned, { frame: core.frameGroup(), empty: core.emptyGroup }, stamp('depth', computed.length === 0, fluids.length === 0));
    },
  };
}

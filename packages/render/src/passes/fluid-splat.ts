// The fluids' particles as sphere impostors into the depth (and their motion cleared), after the
// opaque depths: a compute splat keeps each pixel's nearest sphere and its particle, then a draw
// over the fluids' bounds writes the depths nearer than the scene's. Timed as 'depth'; on the
// forward path it ends the prepass's time slot, which the prepass began.
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function fluidSplatPass(core: RendererCore, frame: FrameState, afterPrepass: boolean): PassDecl | undefined {
  const { fluids, stamp } = frame;
  if (fluids.length === 0) return undefined;
  return {
    name: 'fluid-splat',
    writes: [{ resource: RESOURCES.depth, use: 'attachment' }, { resource: RESOURCES.motion, use: 'attachment' }],
    execute: ({ encoder }) => {
      core.fluids.splat(encoder, fluids, frame.targets!, core.frameGroup(), frame.reversed, afterPrepass ? {} : stamp('depth', true, false), stamp('depth', false, true));
    },
  };
}

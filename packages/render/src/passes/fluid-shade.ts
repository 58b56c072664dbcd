// Where a particle won the splat, the pixel holds the surface behind it (the splat came after
// the opaque pass): the fluid's shading lights those pixels over what the lighting wrote.
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';
import { LIT_INPUTS } from './lit-inputs.ts';

export function fluidShadePass(core: RendererCore, frame: FrameState): PassDecl | undefined {
  if (frame.fluids.length === 0) return undefined;
  return {
    name: 'fluid-shade',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }, ...LIT_INPUTS],
    writes: [{ resource: RESOURCES.hdr, use: 'storage' }],
    execute: ({ encoder }) => {
      core.fluids.shade(encoder, frame.fluids, frame.targets!, core.frameGroup(), core.culledGroup(), frame.stamp('fluid', true, true));
    },
  };
}

// The deferred path's lighting: a compute pass over every pixel of the G-buffer, lit from its
// tile's culled lights, the shadow maps and the ambient occlusion, into the HDR target.
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';
import { LIT_INPUTS } from './lit-inputs.ts';

export function lightingPass(core: RendererCore, frame: FrameState): PassDecl {
  return {
    name: 'lighting',
    reads: [
      { resource: RESOURCES.depth, use: 'sampled' },
      { resource: RESOURCES.gbufferSurfaces, use: 'sampled' },
      { resource: RESOURCES.gbufferEmissive, use: 'sampled' },
      ...LIT_INPUTS,
    ],
    writes: [{ resource: RESOURCES.hdr, use: 'storage' }],
    execute: ({ encoder }) => {
      const pass = encoder.beginComputePass({ label: 'cuttle.render.deferred_shade', ...frame.stamp('lighting', true, true) });
      pass.setPipeline(core.pixelPipeline('deferred_shade'));
      pass.setBindGroup(0, core.frameGroup());
      pass.setBindGroup(1, core.culledGroup());
      pass.setBindGroup(2, core.deferredGroup(frame.targets!));
      pass.dispatchWorkgroups(Math.ceil(frame.width / 8), Math.ceil(frame.height / 8));
      pass.end();
    },
  };
}

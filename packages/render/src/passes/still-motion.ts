// Right after the G-buffer: the motion vectors of the still surfaces, which the G-buffer pass
// left alone, from the depth and the camera's previous view (forward.wgsl's still_motion).
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function stillMotionPass(core: RendererCore, frame: FrameState): PassDecl {
  return {
    name: 'still-motion',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }, { resource: RESOURCES.gbufferSurfaces, use: 'sampled' }, { resource: RESOURCES.gbufferEmissive, use: 'sampled' }],
    // hdr is in the deferred group this pass binds (write-only storage), though it writes only motion.
    writes: [{ resource: RESOURCES.motion, use: 'storage' }, { resource: RESOURCES.hdr, use: 'storage' }],
    execute: ({ encoder }) => {
      const pass = encoder.beginComputePass({ label: 'cuttle.render.still_motion', ...frame.stamp('opaque', false, true) });
      pass.setPipeline(core.pixelPipeline('still_motion'));
      pass.setBindGroup(0, core.frameGroup());
      pass.setBindGroup(1, core.emptyGroup);
      pass.setBindGroup(2, core.deferredGroup(frame.targets!));
      pass.dispatchWorkgroups(Math.ceil(frame.width / 8), Math.ceil(frame.height / 8));
      pass.end();
    },
  };
}

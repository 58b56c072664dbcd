// Ambient occlusion from the camera's depth, normals reconstructed the improved way (SsaoPass).
import { PASSES } from '../api.ts';
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function ssaoPass(core: RendererCore, frame: FrameState): PassDecl {
  return {
    name: 'ssao',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }],
    writes: [{ resource: RESOURCES.ambientOcclusion, use: 'storage', discard: true }],
    execute: ({ encoder, texture }) => {
      const { timestamps } = frame;
      const index = PASSES.indexOf('ssao') * 2;
      frame.timed.add('ssao');
      core.ssaoPass.run(encoder, { depth: texture(RESOURCES.depth), camera: frame.camera, output: texture(RESOURCES.ambientOcclusion), ...(timestamps ? { timestamps: { querySet: timestamps, beginIndex: index, endIndex: index + 1 } } : {}) });
    },
  };
}

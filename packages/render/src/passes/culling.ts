// Tiled light, decal and probe culling against the frame's depth (@cuttle/gpu-culling): the
// lit passes read each tile's list.
import { PASSES } from '../api.ts';
import type { RendererCore } from '../frame/core.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function cullingPass(core: RendererCore, frame: FrameState): PassDecl {
  return {
    name: 'culling',
    reads: [{ resource: RESOURCES.depth, use: 'sampled' }],
    writes: [{ resource: RESOURCES.lightTiles, use: 'storage', discard: true }],
    execute: ({ encoder, texture }) => {
      const { timestamps } = frame;
      const index = PASSES.indexOf('culling') * 2;
      frame.timed.add('culling');
      core.culler.cull(encoder, texture(RESOURCES.depth), timestamps ? { querySet: timestamps, beginIndex: index, endIndex: index + 1 } : undefined);
    },
  };
}

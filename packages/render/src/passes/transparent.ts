// Transparents, sorted back to front, lit forward+ over the lit opaque frame (depth tested, not written).
import type { RendererCore } from '../frame/core.ts';
import { drawGroup } from '../frame/draws.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';
import { LIT_INPUTS } from './lit-inputs.ts';

export function transparentPass(core: RendererCore, frame: FrameState): PassDecl {
  const { scene, lists, transparent, reversed } = frame;
  return {
    name: 'transparent',
    reads: [{ resource: RESOURCES.depth, use: 'attachment' }, ...LIT_INPUTS],
    writes: [{ resource: RESOURCES.hdr, use: 'attachment' }],
    execute: ({ encoder, texture }) => {
      const blended = encoder.beginRenderPass({
        label: 'cuttle.render.transparent',
        colorAttachments: [{ view: texture(RESOURCES.hdr).createView(), loadOp: 'load', storeOp: 'store' }],
        depthStencilAttachment: { view: texture(RESOURCES.depth).createView(), depthReadOnly: true },
        ...frame.stamp('transparent', true, true),
      });
      blended.setBindGroup(0, core.frameGroup());
      blended.setBindGroup(1, core.culledGroup());
      transparent.forEach((instance, k) => {
        const material = scene.material(scene.instanceMaterial(instance));
        blended.setPipeline(core.pipeline(`transparent${material.doubleSided ? '-double' : ''}${reversed ? '-reversed' : ''}`));
        drawGroup(blended, scene, { mesh: scene.instanceMesh(instance), material: material.id, first: lists.order.length + k, count: 1 }, material.group, true);
      });
      blended.end();
    },
  };
}

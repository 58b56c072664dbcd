// The deferred path's opaque pass: the compute-rasterized characters' camera depths first, then
// the opaque surfaces' G-buffer and the camera's depth in one render pass (no depth prepass:
// the lighting runs per pixel in compute, so overdraw only costs G-buffer writes, cheaper on the
// H100 than rasterizing the scene twice).
import type { RendererCore } from '../frame/core.ts';
import { drawGroup, drawSkinned } from '../frame/draws.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function gbufferPass(core: RendererCore, frame: FrameState): PassDecl {
  const { scene, lists, computed, reversed, stamp } = frame;
  return {
    name: 'gbuffer',
    writes: [
      { resource: RESOURCES.depth, use: 'attachment', discard: true },
      { resource: RESOURCES.motion, use: 'attachment' },
      { resource: RESOURCES.gbufferSurfaces, use: 'attachment' },
      { resource: RESOURCES.gbufferEmissive, use: 'attachment' },
    ],
    execute: ({ encoder, texture }) => {
      if (computed.length > 0) core.skinnedRaster.camera(encoder, stamp('opaque', true, false));
      // No target but the depth is cleared: on the H100 a clear through the raster hardware costs
      // about as much as writing the pixels. Where the depth stays clear (the sky) the G-buffer
      // holds whatever an earlier frame left, and the passes after read the depth first;
      // still_motion writes the motion of every pixel the pass did not.
      const kept = (name: string): GPURenderPassColorAttachment => ({ view: texture(name).createView(), loadOp: 'load', storeOp: 'store' });
      // The emissive target carries emitted light and, in alpha, the materials' occlusion.
      const glow = scene.hasGlowTarget;
      const opaque = encoder.beginRenderPass({
        label: 'cuttle.render.opaque',
        colorAttachments: (glow ? [RESOURCES.gbufferSurfaces, RESOURCES.motion, RESOURCES.gbufferEmissive] : [RESOURCES.gbufferSurfaces, RESOURCES.motion]).map(kept),
        depthStencilAttachment: { view: texture(RESOURCES.depth).createView(), depthLoadOp: 'clear', depthClearValue: reversed ? 0 : 1, depthStoreOp: 'store' },
        ...stamp('opaque', computed.length === 0, false),
      });
      // Before culling: the G-buffer needs no lights (its pipelines leave group 1 empty).
      opaque.setBindGroup(0, core.frameGroup());
      opaque.setBindGroup(1, core.emptyGroup);
      // Characters first: they stand on the floor, so the depth test then spares the floor's writes under them.
      drawSkinned(core, opaque, scene, 'opaque', reversed, 0, computed, glow);
      computed.forEach((draw, d) => {
        opaque.setBindGroup(2, scene.material(draw.material).group);
        core.skinnedRaster.resolveCamera(opaque, d, glow, reversed);
      });
      const variant = `${glow ? '-glow' : ''}${reversed ? '-reversed' : ''}`;
      for (const group of lists.groups) {
        const material = scene.material(group.material);
        let moving = false;
        for (let k = group.first; k < group.first + group.count && !moving; k++) moving = scene.instanceMoved(lists.order[k]!);
        opaque.setPipeline(core.pipeline(`opaque${material.doubleSided ? '-double' : ''}${moving ? '' : '-still'}${variant}`));
        drawGroup(opaque, scene, group, material.group, true);
      }
      opaque.end();
    },
  };
}

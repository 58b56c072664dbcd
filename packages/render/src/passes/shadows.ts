// The shadow layers the shading reads (the sun's, each shadow spot's): the compute-rasterized
// characters' depths first, the colour filters cleared to white, then per layer the casters'
// depth, the transparents' own depth (with 'separate-depth') and the transparents multiplied
// into the colour filter.
import type { RendererCore } from '../frame/core.ts';
import { VIEW_SLOT_BYTES } from '../frame/core.ts';
import { drawEach, drawShadowCasters, drawSkinned } from '../frame/draws.ts';
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';

export function shadowsPass(core: RendererCore, frame: FrameState): PassDecl | undefined {
  const { layers, computed, scene, lists, transparent, stamp } = frame;
  if (layers.length === 0) return undefined;
  return {
    name: 'shadows',
    writes: [
      { resource: RESOURCES.shadowMaps, use: 'attachment', discard: true },
      { resource: RESOURCES.shadowFilters, use: 'storage', discard: true },
      { resource: RESOURCES.transparentShadowMaps, use: 'attachment', discard: true },
    ],
    execute: ({ encoder }) => {
      if (computed.length > 0) core.skinnedRaster.shadows(encoder, stamp('shadows', true, false));
      const clear = core.filterClear();
      const pass = encoder.beginComputePass({ label: 'cuttle.render.filter-clear', ...(computed.length === 0 ? stamp('shadows', true, false) : {}) });
      pass.setPipeline(clear.pipeline);
      pass.setBindGroup(0, clear.group);
      pass.dispatchWorkgroups(Math.ceil(core.shadowMapSize / 8), Math.ceil(core.shadowMapSize / 8), Math.max(...layers) + 1);
      pass.end();
      layers.forEach((layer, k) => {
        const viewOffset = layer * VIEW_SLOT_BYTES;
        const depthView = core.shadowMaps.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 });
        const depth = encoder.beginRenderPass({
          label: `cuttle.render.shadow${layer}`,
          colorAttachments: [],
          depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' },
        });
        drawShadowCasters(core, depth, scene, lists.groups, viewOffset);
        drawSkinned(core, depth, scene, 'shadow', false, viewOffset, computed);
        if (computed.length > 0) core.skinnedRaster.resolveShadow(depth, k);
        depth.end();
        if (core.transparentShadows === 'separate-depth') {
          const transparentDepth = encoder.beginRenderPass({
            label: `cuttle.render.transparent-shadow${layer}`,
            colorAttachments: [],
            depthStencilAttachment: { view: core.transparentShadowMaps.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 }), depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'store' },
          });
          drawEach(core, transparentDepth, scene, transparent, lists.order.length, core.pipeline('transparent-shadow-depth'), viewOffset);
          transparentDepth.end();
        }
        // The colour filter: white (cleared in compute: all light through), transparents multiplied in.
        const filter = encoder.beginRenderPass({
          label: `cuttle.render.shadow-filter${layer}`,
          colorAttachments: [{ view: core.shadowFilters.createView({ dimension: '2d', baseArrayLayer: layer, arrayLayerCount: 1 }), loadOp: 'load', storeOp: 'store' }],
          depthStencilAttachment: { view: depthView, depthReadOnly: true },
          ...(k === layers.length - 1 ? stamp('shadows', false, true) : {}),
        });
        drawEach(core, filter, scene, transparent, lists.order.length, core.pipeline('shadow-filter'), viewOffset);
        filter.end();
      });
    },
  };
}

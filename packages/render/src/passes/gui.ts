// @cuttle/gui overlays over the tone-mapped frame, in their own pass (no depth).
import type { FrameState } from '../frame/frame-state.ts';
import { RESOURCES } from '../frame/targets.ts';
import type { PassDecl } from '../graph/pass.ts';
import type { GuiOverlay, RenderTarget } from '../render-target.ts';

export function guiPass(frame: FrameState, target: RenderTarget, overlays: readonly GuiOverlay[]): PassDecl | undefined {
  if (overlays.length === 0) return undefined;
  return {
    name: 'gui',
    writes: [{ resource: RESOURCES.target, use: 'attachment' }],
    execute: ({ encoder }) => {
      const gui = encoder.beginRenderPass({ label: 'cuttle.render.gui', colorAttachments: [{ view: target.view, loadOp: 'load', storeOp: 'store' }] });
      for (const overlay of overlays) overlay.renderer.draw(gui, overlay.gui, frame.width, frame.height);
      gui.end();
    },
  };
}

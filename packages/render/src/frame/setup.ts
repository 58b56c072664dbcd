// A frame as a graph: the resources (the caller's target, the renderer's shadow maps, occlusion
// and culled tiles imported; the frame-sized targets declared), then the built-in passes in
// order with the user's passes at their points. The configurations are set-ups of this list:
// the deferred or forward+ opaque stage, SSAO or not, fluids or not, characters rasterized in
// compute or by the hardware (inside the passes that draw them).
import type { RenderCamera } from '../api.ts';
import { FrameGraph } from '../graph/frame-graph.ts';
import type { PassDecl } from '../graph/pass.ts';
import { cullingPass } from '../passes/culling.ts';
import { depthPrepassPass } from '../passes/depth-prepass.ts';
import { fluidShadePass } from '../passes/fluid-shade.ts';
import { fluidSplatPass } from '../passes/fluid-splat.ts';
import { forwardShadePass } from '../passes/forward-shade.ts';
import { gbufferPass } from '../passes/gbuffer.ts';
import { guiPass } from '../passes/gui.ts';
import { lightingPass } from '../passes/lighting.ts';
import { shadowsPass } from '../passes/shadows.ts';
import { skinningPass } from '../passes/skinning.ts';
import { ssaoPass } from '../passes/ssao.ts';
import { stillMotionPass } from '../passes/still-motion.ts';
import { timestampsPass } from '../passes/timestamps.ts';
import { tonemapPass } from '../passes/tonemap.ts';
import { transparentPass } from '../passes/transparent.ts';
import type { GuiOverlay, RenderTarget } from '../render-target.ts';
import type { RendererCore } from './core.ts';
import type { FrameState } from './frame-state.ts';
import { DEPTH_FORMAT, frameTexture, MOTION_FORMAT, RESOURCES } from './targets.ts';
import type { RenderPoint, UserPass } from './user-pass.ts';

/** The deferred path: G-buffer and depth, still surfaces' motion, fluid splat; lit after culling. */
function deferredOpaque(core: RendererCore, frame: FrameState): (PassDecl | undefined)[] {
  return [gbufferPass(core, frame), stillMotionPass(core, frame), fluidSplatPass(core, frame, false)];
}

/** The forward+ path: the depth prepass and the fluid splat; shaded after culling. */
function forwardDepth(core: RendererCore, frame: FrameState): (PassDecl | undefined)[] {
  return [depthPrepassPass(core, frame), fluidSplatPass(core, frame, true)];
}

function imports(graph: FrameGraph, core: RendererCore, frame: FrameState, target: RenderTarget): void {
  if (target.texture) graph.importTexture(RESOURCES.target, target.texture);
  else graph.importExternal(RESOURCES.target, frameTexture(frame.width, frame.height, core.format), ['attachment']);
  graph.importTexture(RESOURCES.shadowMaps, core.shadowMaps);
  graph.importTexture(RESOURCES.shadowFilters, core.shadowFilters);
  graph.importTexture(RESOURCES.transparentShadowMaps, core.transparentShadowMaps);
  graph.importTexture(RESOURCES.ambientOcclusion, core.ambientOcclusion(frame.width, frame.height));
  // The culler sizes its tile buffer at its first cull: the culling and lit passes reach it through the culler.
  graph.importExternal(RESOURCES.lightTiles, { kind: 'buffer', size: 4 }, ['storage']);
}

function declarations(graph: FrameGraph, frame: FrameState, deferred: boolean): void {
  const { width, height } = frame;
  graph.declare(RESOURCES.depth, frameTexture(width, height, DEPTH_FORMAT));
  graph.declare(RESOURCES.hdr, frameTexture(width, height, 'rgba16float'));
  graph.declare(RESOURCES.motion, frameTexture(width, height, MOTION_FORMAT));
  if (deferred) {
    graph.declare(RESOURCES.gbufferSurfaces, frameTexture(width, height, 'rg32uint'));
    graph.declare(RESOURCES.gbufferEmissive, frameTexture(width, height, 'rgba16float'));
  }
  // Read after the frame: the depth and motion vectors (reprojection, tests), the HDR colour.
  graph.output(RESOURCES.depth, ['copy-src', 'sampled']);
  graph.output(RESOURCES.motion, ['copy-src', 'sampled']);
  graph.output(RESOURCES.hdr, ['copy-src', 'sampled']);
}

/** A user pass as a graph pass: its context gets the frame's size, camera and target. */
function userPass(pass: UserPass, frame: FrameState, target: RenderTarget, format: GPUTextureFormat, camera: RenderCamera): PassDecl {
  return {
    ...pass,
    execute: (context) => { pass.execute({ ...context, width: frame.width, height: frame.height, camera, targetView: target.view, format }); },
  };
}

export function buildFrameGraph(core: RendererCore, frame: FrameState, target: RenderTarget, overlays: readonly GuiOverlay[], userPasses: readonly UserPass[]): FrameGraph {
  const graph = new FrameGraph();
  const deferred = frame.settings.opaqueShading === 'deferred';
  imports(graph, core, frame, target);
  declarations(graph, frame, deferred);
  const add = (passes: readonly (PassDecl | undefined)[]): void => {
    for (const pass of passes) if (pass) graph.addPass(pass);
  };
  const at = (point: RenderPoint): void => {
    for (const pass of userPasses) if (pass.point === point) graph.addPass(userPass(pass, frame, target, core.format, frame.camera));
  };
  add([skinningPass(frame), shadowsPass(core, frame)]);
  add(deferred ? deferredOpaque(core, frame) : forwardDepth(core, frame));
  at('after-opaque');
  add([cullingPass(core, frame), frame.settings.ssao ? ssaoPass(core, frame) : undefined]);
  add([deferred ? lightingPass(core, frame) : forwardShadePass(core, frame), fluidShadePass(core, frame)]);
  at('after-lighting');
  add([transparentPass(core, frame)]);
  at('before-tonemap');
  add([tonemapPass(core, frame, target)]);
  at('after-tonemap');
  add([guiPass(frame, target, overlays)]);
  at('overlay');
  add([timestampsPass(core, frame)]);
  return graph;
}

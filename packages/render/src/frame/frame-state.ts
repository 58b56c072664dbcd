// One frame's data, made before its graph is built: the camera and shadow views uploaded, the
// instances and draw slots, the draw lists, the skinned draws the compute raster takes, the
// fluids on screen, and the timestamp bookkeeping the passes share.
import { resolveCamera } from '@cuttle/gpu-culling';
import { PASSES, type PassName, type RenderCamera, type Vec3 } from '../api.ts';
import { sortBackToFront } from '../draw-lists.ts';
import { selectLods, selectSkinnedLods } from './lod-select.ts';
import { autoSkinnedRaster } from './skinned-raster-auto.ts';
import type { FluidFrame } from '../fluid-passes.ts';
import { packFrame } from '../frame-uniform.ts';
import type { RenderScene, SkinnedDraw } from '../scene/render-scene.ts';
import { multiplyMat4, spotClipFromWorld, sunClipFromWorld } from '../shadow-views.ts';
import { IDENTITY, invert4 } from '../ssao/matrix.ts';
import { SHADOW_LAYERS, VIEW_SLOT_BYTES, WORD, type DrawLists, type RendererCore } from './core.ts';
import type { Targets } from './targets.ts';

/** The Renderer's settings a frame reads (switchable between frames). */
export interface FrameSettings {
  skinnedRaster: 'compute' | 'hardware' | 'auto';
  /** 'auto' draws a skinned draw on the raster hardware above this many pixels a triangle. */
  skinnedRasterAutoPixels: number;
  opaqueShading: 'deferred' | 'forward';
  ssao: boolean;
  caustics: number;
  ambient: Vec3;
  exposure: number;
  /** Largest screen error, in pixels, a level of detail may show (0: always the full mesh). */
  lodErrorPixels: number;
}

/** Timestamp writes of a pass: the beginning and/or end of one of PASSES' time slots. */
export type Stamp = (pass: PassName, begin: boolean, end: boolean) => { timestampWrites?: GPURenderPassTimestampWrites };

export interface FrameState {
  readonly scene: RenderScene;
  readonly camera: RenderCamera;
  readonly settings: FrameSettings;
  readonly width: number;
  readonly height: number;
  readonly reversed: boolean;
  /** The draw lists, opaque groups split by the level of detail each instance draws this frame. */
  readonly lists: DrawLists;
  /** Indices the opaque groups draw this frame (vertex shader invocations, before the post-transform cache). */
  readonly opaqueIndices: number;
  /** Indices the skinned instances draw this frame, each at its level of detail (once each, not per pass). */
  readonly skinnedIndices: number;
  /** Transparent instances, back to front (their draw slots follow the opaque order). */
  readonly transparent: number[];
  /** Skinned draws the compute raster takes this frame; the rest are drawn as meshes. */
  readonly computed: SkinnedDraw[];
  /** Shadow layers the shading reads: 0 for the sun (when it casts shadows), 1 + s for each shadow spot. */
  readonly layers: number[];
  readonly views: Float32Array<ArrayBuffer>;
  readonly clipFromWorld: Float32Array;
  readonly fluids: FluidFrame[];
  /** The query set this frame writes timestamps into, when it is timed. */
  readonly timestamps: GPUQuerySet | undefined;
  /** The time slots this frame's passes wrote (the others read 0). */
  readonly timed: Set<PassName>;
  readonly stamp: Stamp;
  /** The frame-sized textures, once the graph has its objects (set by the Renderer before recording). */
  targets: Targets | undefined;
}

/** Uploads what the frame's passes read and returns its state. */
export function prepareFrame(core: RendererCore, settings: FrameSettings, scene: RenderScene, camera: RenderCamera, width: number, height: number, timed: boolean, previousClipFromWorld: Float32Array | undefined): FrameState {
  const device = core.device;
  const resolved = resolveCamera(camera);
  core.culler.setCamera(camera);
  core.culler.setEntities(scene.lights);
  const reversed = resolved.reversedZ;

  // Instances and draw order.
  core.upload(scene);
  const structure = core.drawLists(scene);
  const lod = selectLods(scene, structure.groups, structure.order, resolved.position, camera, height, settings.lodErrorPixels);
  const lists: DrawLists = { ...structure, groups: lod.groups, order: lod.order };
  const skinnedIndices = selectSkinnedLods(scene, resolved.position, camera, height, settings.lodErrorPixels);
  const transparent = sortBackToFront(scene, lists.transparent, resolved.position);
  const slots = new Uint32Array(lists.order.length + transparent.length);
  slots.set(lod.order);
  slots.set(transparent, lists.order.length);
  core.uploadSlots(slots);
  core.ambientOcclusion(width, height);

  // Cameras: the main view and every shadow layer's view.
  const clipFromWorld = multiplyMat4(camera.projection, camera.view);
  const previous = previousClipFromWorld ?? clipFromWorld;
  const bounds = scene.shadowBounds ?? sceneBounds(scene);
  const sun = scene.sun;
  const sunView = sun ? sunClipFromWorld(sun.direction, [bounds[0], bounds[1], bounds[2]], bounds[3]) : clipFromWorld;
  const spotViews = scene.shadowSpots.map((spot) => spotClipFromWorld(spot.position, spot.direction, spot.range, spot.outerAngle));
  const views = new Float32Array((VIEW_SLOT_BYTES / WORD) * SHADOW_LAYERS);
  views.set(sunView, 0);
  spotViews.forEach((view, s) => { views.set(view, (VIEW_SLOT_BYTES / WORD) * (1 + s)); });
  device.queue.writeBuffer(core.viewUniform, 0, views);
  packFrame(scene, {
    clipFromWorld, previousClipFromWorld: previous, sunClipFromWorld: sunView, spotClipFromWorld: spotViews,
    cameraPosition: resolved.position, exposure: settings.exposure, ambient: settings.ambient, ambientOcclusion: settings.ssao,
    width, height, shadowTexel: 1 / core.shadowMapSize, caustics: settings.caustics, transparentShadows: core.transparentShadows === 'simple' ? 0 : 1, reversedZ: reversed,
    cameraRight: [camera.view[0]!, camera.view[4]!, camera.view[8]!, 0], cameraUp: [camera.view[1]!, camera.view[5]!, camera.view[9]!, 0],
    worldFromClip: invert4(clipFromWorld) ?? IDENTITY, emissive: scene.hasGlowTarget,
  }, core.frameData);
  device.queue.writeBuffer(core.frameUniform, 0, core.frameData);

  const timestamps = timed ? core.timing?.querySet : undefined;
  const timedPasses = new Set<PassName>();
  const stamp: Stamp = (pass, begin, end) => {
    if (!timestamps || (!begin && !end)) return {};
    timedPasses.add(pass);
    const index = PASSES.indexOf(pass) * 2;
    return { timestampWrites: { querySet: timestamps, ...(begin ? { beginningOfPassWriteIndex: index } : {}), ...(end ? { endOfPassWriteIndex: index + 1 } : {}) } };
  };

  // Only the shadow layers the shading reads: the sun's (when it casts shadows) and each shadow spot's.
  const layers: number[] = [];
  if (sun?.shadows) layers.push(0);
  scene.shadowSpots.forEach((_, s) => layers.push(1 + s));
  const computed = settings.skinnedRaster !== 'hardware' && core.skinnedRaster.fits(width, height, core.shadowMapSize)
    ? scene.skinned.filter((draw) => !scene.material(draw.material).mask && (settings.skinnedRaster === 'compute' || autoSkinnedRaster(draw, camera, width, height, settings.skinnedRasterAutoPixels) === 'compute'))
    : [];
  if (computed.length > 0) {
    const cullBack = computed.map((draw) => !scene.material(draw.material).doubleSided);
    const layerViews = layers.map((layer) => views.subarray(layer * (VIEW_SLOT_BYTES / WORD), layer * (VIEW_SLOT_BYTES / WORD) + 16));
    core.skinnedRaster.prepare(computed, cullBack, { clipFromWorld, width, height, reversed }, layerViews, core.shadowMapSize);
  }
  const fluids = core.fluids.prepare(scene, clipFromWorld, width, height);
  return { scene, camera, settings, width, height, reversed, lists, opaqueIndices: lod.indices, skinnedIndices, transparent, computed, layers, views, clipFromWorld, fluids, timestamps, timed: timedPasses, stamp, targets: undefined };
}

/** Centre and radius of a sphere around every visible instance (what the sun's shadow map covers). */
function sceneBounds(scene: RenderScene): [number, number, number, number] {
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < scene.instanceCount; i++) {
    if (!scene.isVisible(i)) continue;
    const [x, y, z, r] = scene.instanceBounds(i);
    low[0] = Math.min(low[0]!, x - r); low[1] = Math.min(low[1]!, y - r); low[2] = Math.min(low[2]!, z - r);
    high[0] = Math.max(high[0]!, x + r); high[1] = Math.max(high[1]!, y + r); high[2] = Math.max(high[2]!, z + r);
  }
  if (low[0] === Infinity) return [0, 0, 0, 1];
  const center = [0, 1, 2].map((k) => (low[k]! + high[k]!) / 2);
  return [center[0]!, center[1]!, center[2]!, Math.hypot(high[0]! - center[0]!, high[1]! - center[1]!, high[2]! - center[2]!)];
}

// The Renderer: settings, a RendererCore of what frames share, and each frame built as a frame
// graph (frame/setup.ts) of the built-in passes (src/passes) and the user's own.
import { CULL_WALKS, type CullWalk, type Technique, type TileSize } from '@cuttle/gpu-culling';
import { PASSES, type PassName, type RenderCamera, type Vec3 } from './api.ts';
import { RenderError } from './errors.ts';
import { RendererCore } from './frame/core.ts';
import { prepareFrame, type FrameSettings } from './frame/frame-state.ts';
import { buildFrameGraph } from './frame/setup.ts';
import { SKINNED_RASTER_AUTO_PIXELS } from './frame/skinned-raster-auto.ts';
import type { Targets } from './frame/targets.ts';
import { RENDER_POINTS, type UserPass } from './frame/user-pass.ts';
import type { FrameGraph } from './graph/frame-graph.ts';
import type { GuiOverlay, RenderTarget } from './render-target.ts';
import type { RenderScene } from './scene/render-scene.ts';
import type { NormalMethod, SsaoOptions } from './ssao/api.ts';
import type { SsaoPass } from './ssao/ssao-pass.ts';

export type { GuiOverlay, RenderTarget } from './render-target.ts';

/** Options of a {@link Renderer}: only `format` is required. */
export interface RendererOptions {
  /** Format of the targets `render` draws into (a canvas's preferred format, or rgba8unorm offscreen). */
  format: GPUTextureFormat;
  /** Most culled lights, decals and probes per frame (default 4096). */
  maxLights?: number;
  /** Tile culling storage (default 'flat-bits') and tile size (default 16). */
  technique?: Technique;
  /** Side of a culling tile in pixels (default 16). */
  tileSize?: TileSize;
  /**
   * How lighting walks flat-bit tiles (gpu-culling's `walk` option): 'dense' (default), 'sparse'
   * or 'auto' (sparse up to 8,192 maxLights). Same lights in the same order, so the same frame.
   * Render's lighting is heavy enough that the dense walk was as fast or faster at every light
   * count measured (an H200 at 4K: 1% with 3 lights a pixel, 3% with 80; BENCHMARKS.md).
   */
  tileWalk?: CullWalk;
  /** Side of every shadow map in texels (default 2048). */
  shadowMapSize?: number;
  /**
   * 'simple': the post's colour filter, transparents receive no coloured shadow (default);
   * 'separate-depth': a transparent shadow depth map too, so transparents tint transparents.
   */
  transparentShadows?: 'simple' | 'separate-depth';
  /** Strength of the water's caustics (default 1). */
  caustics?: number;
  /** Linear light where no probe reaches (default 0.03, 0.03, 0.04). */
  ambient?: Vec3;
  /** Multiplies the lit colour before tone mapping (default 1). */
  exposure?: number;
  /** Time every pass with timestamp queries when the device has `timestamp-query` (default true). */
  timestamps?: boolean;
  /**
   * Ambient occlusion from the camera's depth (normals reconstructed the post's improved way by
   * default): false to leave it out, or SsaoPass options. Switchable later through `ssao`.
   */
  ssao?: boolean | Partial<SsaoOptions>;
  /**
   * How skinned meshes reach the shadow maps and the G-buffer. 'compute': rasterized in compute,
   * a workgroup per instance, then one rectangle per draw writes the pixels they won (on an H100
   * the courtyard's 1,000 characters cost 1.1 ms of the 4K frame this way, 4.5 through the raster
   * hardware), but large triangles are slow (a crowd 10 m away: 47 against 7.8 ms on an H200).
   * 'hardware': drawn like any mesh. 'auto' (default): each draw, each frame, takes the compute
   * raster while its triangles are small on screen and the hardware once they are large
   * (`skinnedRasterAutoPixels`; a draw without bounding spheres keeps the compute raster).
   * Masked materials always take the hardware path.
   */
  skinnedRaster?: 'compute' | 'hardware' | 'auto';
  /**
   * With `skinnedRaster: 'auto'`, the mean screen area per triangle, in pixels, above which a
   * skinned draw takes the raster hardware (default SKINNED_RASTER_AUTO_PIXELS, measured on an
   * H200; see `skinnedTrianglePixels`). Switchable through `skinnedRasterAutoPixels`.
   */
  skinnedRasterAutoPixels?: number;
  /**
   * How opaque surfaces are lit. 'deferred' (default): the opaque pass writes a G-buffer and a
   * compute pass lights every pixel of it. 'forward': a depth prepass, then forward+ (each
   * surface lit in its fragment shader from its tile's culled lights, where the prepass kept it);
   * on an H100 the deferred path is much faster (BENCHMARKS.md).
   */
  opaqueShading?: 'deferred' | 'forward';
  /**
   * Meshes with levels of detail (`MeshInput.lods`) draw, per instance, the coarsest level whose
   * geometric error covers at most this many pixels of the target's height at the instance's
   * nearest point (default 1); 0 always draws the full mesh. Switchable through `lodErrorPixels`.
   */
  lodErrorPixels?: number;
}

/**
 * A small renderer: shadow maps (sun and spots, with transparent colour filters and caustics),
 * a G-buffer pass that also writes the depth, tiled culling (`@cuttle/gpu-culling`), the opaque
 * surfaces lit in compute (tiled deferred) with motion vectors, sorted forward+ transparents,
 * tone mapping; each frame a frame graph that user passes join at named points. Renders into
 * any view of `format`: a canvas in the browser, an offscreen texture in Node.
 */
export class Renderer {
  /** The tile culler of the lights, decals and probes (`@cuttle/gpu-culling`'s TileCuller). */
  readonly culler: RendererCore['culler'];
  /** Format of the targets `render` draws into. */
  readonly format: GPUTextureFormat;
  /** Side of every shadow map in texels (default 2048). */
  readonly shadowMapSize: number;
  /** How transparents shadow (RendererOptions.transparentShadows), fixed at construction. */
  readonly transparentShadows: 'simple' | 'separate-depth';
  /** How skinned meshes are rasterized (RendererOptions.skinnedRaster); switchable between frames. */
  skinnedRaster: 'compute' | 'hardware' | 'auto';
  /** How opaque surfaces are lit (RendererOptions.opaqueShading); switchable between frames. */
  opaqueShading: 'deferred' | 'forward';
  /** Strength of the water's caustics (default 1); switchable between frames. */
  caustics: number;
  /** Linear light where no probe reaches (default 0.03, 0.03, 0.04); switchable between frames. */
  ambient: Vec3;
  /** Multiplies the lit colour before tone mapping (default 1); switchable between frames. */
  exposure: number;
  /** Whether frames compute and apply ambient occlusion. */
  ssao: boolean;
  #lodErrorPixels: number;
  #skinnedRasterAutoPixels: number;
  readonly #skinnedRasterChosen: ('compute' | 'hardware')[] = [];
  #drawnIndices = 0;
  #drawnSkinnedIndices = 0;
  readonly #core: RendererCore;
  readonly #userPasses: UserPass[] = [];
  #timingState: 'idle' | 'copied' | 'mapping' = 'idle';
  #timings: Partial<Record<PassName, number>> = {};
  /** The passes the frame whose timestamps were copied ran. */
  #timedPasses: ReadonlySet<PassName> = new Set();
  #pendingTimings: Promise<void> | undefined;
  #previousClipFromWorld: Float32Array | undefined;
  #lastGraph: FrameGraph | undefined;
  #destroyed = false;

  /** Largest screen error of a level of detail, in pixels (RendererOptions.lodErrorPixels); switchable between frames. Throws a RenderError for a negative or non-finite value. */
  get lodErrorPixels(): number {
    return this.#lodErrorPixels;
  }

  set lodErrorPixels(pixels: number) {
    this.#lodErrorPixels = checkLodError(pixels);
  }

  /**
   * 'auto''s threshold: mean pixels per triangle above which a skinned draw takes the raster
   * hardware (RendererOptions.skinnedRasterAutoPixels); switchable between frames. Throws a
   * RenderError for a value that is not a finite number above 0.
   */
  get skinnedRasterAutoPixels(): number {
    return this.#skinnedRasterAutoPixels;
  }

  set skinnedRasterAutoPixels(pixels: number) {
    this.#skinnedRasterAutoPixels = checkAutoPixels(pixels);
  }

  /**
   * The raster each skinned draw of the last frame's scene took, by draw index: with 'auto' the
   * one chosen; 'hardware' also where the compute raster does not fit the device's storage
   * bindings, and for masked materials.
   */
  get skinnedRasterChosen(): readonly ('compute' | 'hardware')[] {
    return this.#skinnedRasterChosen;
  }

  /**
   * Indices the last frame's opaque mesh draws drew (each instance times its level's index
   * count): the vertex shader work levels of detail save, before the post-transform cache.
   */
  get drawnIndices(): number {
    return this.#drawnIndices;
  }

  /**
   * Indices the last frame's skinned instances drew (each instance's level of detail's index
   * count, once per instance: the shadow passes draw the same levels again), whether the raster
   * hardware or the compute raster drew them.
   */
  get drawnSkinnedIndices(): number {
    return this.#drawnSkinnedIndices;
  }

  constructor(device: GPUDevice, options: RendererOptions) {
    const shadowMapSize = options.shadowMapSize ?? 2048;
    if (!Number.isInteger(shadowMapSize) || shadowMapSize < 16 || shadowMapSize > device.limits.maxTextureDimension2D) {
      throw new RenderError(`shadowMapSize must be an integer in 16..${device.limits.maxTextureDimension2D}, got ${shadowMapSize}.`);
    }
    const transparentShadows = options.transparentShadows ?? 'simple';
    const skinnedRaster = options.skinnedRaster ?? 'auto';
    if (!['compute', 'hardware', 'auto'].includes(skinnedRaster)) throw new RenderError(`skinnedRaster must be 'compute', 'hardware' or 'auto', got ${skinnedRaster}.`);
    this.#skinnedRasterAutoPixels = checkAutoPixels(options.skinnedRasterAutoPixels ?? SKINNED_RASTER_AUTO_PIXELS);
    const opaqueShading = options.opaqueShading ?? 'deferred';
    if (!['deferred', 'forward'].includes(opaqueShading)) throw new RenderError(`opaqueShading must be 'deferred' or 'forward', got ${opaqueShading}.`);
    if (!['simple', 'separate-depth'].includes(transparentShadows)) throw new RenderError(`transparentShadows must be 'simple' or 'separate-depth', got ${transparentShadows}.`);
    const tileWalk = options.tileWalk ?? 'dense';
    if (!(CULL_WALKS as readonly string[]).includes(tileWalk)) throw new RenderError(`tileWalk must be 'auto', 'sparse' or 'dense', got ${tileWalk}.`);
    this.format = options.format;
    this.shadowMapSize = shadowMapSize;
    this.transparentShadows = transparentShadows;
    this.skinnedRaster = skinnedRaster;
    this.opaqueShading = opaqueShading;
    this.caustics = options.caustics ?? 1;
    this.ambient = options.ambient ?? [0.03, 0.03, 0.04];
    this.exposure = options.exposure ?? 1;
    this.ssao = options.ssao !== false;
    this.#lodErrorPixels = checkLodError(options.lodErrorPixels ?? 1);
    this.#core = new RendererCore(device, {
      format: options.format,
      maxLights: options.maxLights ?? 4096,
      technique: options.technique ?? 'flat-bits',
      tileSize: options.tileSize ?? 16,
      tileWalk,
      shadowMapSize,
      transparentShadows,
      timestamps: options.timestamps ?? true,
      ssao: typeof options.ssao === 'object' ? options.ssao : {},
    });
    this.culler = this.#core.culler;
  }

  /** How SSAO reconstructs normals from depth: 'improved' (default) or 'naive' (the post's edge artifacts). */
  get ssaoNormals(): NormalMethod {
    return this.#core.ssaoPass.normals;
  }

  set ssaoNormals(method: NormalMethod) {
    this.#core.ssaoPass.normals = method;
  }

  /** The SSAO pass, for its other settings (radius, samples, strength) through `configure`. */
  get ssaoPass(): SsaoPass {
    return this.#core.ssaoPass;
  }

  /** GPU milliseconds per pass of the latest frame whose timings were read (empty without timestamp-query). */
  get timings(): Readonly<Partial<Record<PassName, number>>> {
    return this.#timings;
  }

  /** The last frame's depth, HDR colour, motion vectors, ambient occlusion and (deferred) G-buffer. */
  get targets(): Readonly<Targets> | undefined {
    return this.#core.targets.last;
  }

  /**
   * Adds a pass to every frame at `pass.point`, reading and writing the frame's resources by name
   * (RESOURCES: 'depth', 'hdr', 'motion', 'target', …) and creating its own. Its declarations are
   * checked when a frame is built: a FrameGraphError names what does not hold together.
   */
  addPass(pass: UserPass): void {
    if (!(RENDER_POINTS as readonly string[]).includes(pass.point)) throw new RenderError(`point must be one of ${RENDER_POINTS.join(', ')}; got ${pass.point}.`);
    if (this.#userPasses.some((other) => other.name === pass.name)) throw new RenderError(`a pass named "${pass.name}" was already added; remove it first.`);
    this.#userPasses.push(pass);
  }

  /** Removes the user pass named `name`; false when there is none. */
  removePass(name: string): boolean {
    const index = this.#userPasses.findIndex((pass) => pass.name === name);
    if (index < 0) return false;
    this.#userPasses.splice(index, 1);
    return true;
  }

  /** The user passes, in the order added. */
  get userPasses(): readonly UserPass[] {
    return this.#userPasses;
  }

  /** The last frame's graph as text: passes, culled passes, resources, lifetimes, shared textures, bytes. */
  describeFrame(): string {
    if (!this.#lastGraph) throw new RenderError('no frame was rendered yet.');
    return this.#lastGraph.describe();
  }

  /** The last frame's graph (compiled): its passes in order, resources and transient bytes. */
  get lastFrameGraph(): FrameGraph | undefined {
    return this.#lastGraph;
  }

  /**
   * Records one frame of `scene` seen by `camera` into `encoder`, tone-mapped into `target`. The
   * frame graph is built and checked before any command is recorded: a FrameGraphError (from a
   * user pass's declarations) leaves the encoder empty.
   */
  render(encoder: GPUCommandEncoder, scene: RenderScene, camera: RenderCamera, target: RenderTarget, overlays: readonly GuiOverlay[] = []): void {
    if (this.#destroyed) throw new RenderError('this Renderer was destroyed.');
    const core = this.#core;
    if (scene.device !== core.device) throw new RenderError('the scene was made for another device.');
    const { width, height } = target;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RenderError(`target size must be positive integers, got ${width}x${height}.`);
    if (target.texture && (target.texture.width !== width || target.texture.height !== height || target.texture.format !== this.format)) {
      throw new RenderError(`target.texture is ${target.texture.width}x${target.texture.height} ${target.texture.format}; it must be the ${width}x${height} ${this.format} texture of target.view (or leave it out).`);
    }
    const settings: FrameSettings = { skinnedRaster: this.skinnedRaster, skinnedRasterAutoPixels: this.#skinnedRasterAutoPixels, opaqueShading: this.opaqueShading, ssao: this.ssao, caustics: this.caustics, ambient: this.ambient, exposure: this.exposure, lodErrorPixels: this.#lodErrorPixels };
    const timed = core.timing !== undefined && this.#timingState === 'idle';
    const frame = prepareFrame(core, settings, scene, camera, width, height, timed, this.#previousClipFromWorld);
    this.#drawnIndices = frame.opaqueIndices;
    this.#drawnSkinnedIndices = frame.skinnedIndices;
    const chosen = this.#skinnedRasterChosen;
    chosen.length = scene.skinned.length;
    for (let d = 0; d < chosen.length; d++) chosen[d] = frame.computed.includes(scene.skinned[d]!) ? 'compute' : 'hardware';
    const graph = buildFrameGraph(core, frame, target, overlays, this.#userPasses);
    graph.compile();
    this.#previousClipFromWorld = frame.clipFromWorld;
    graph.prepare(core.pool);
    const texture = (name: string): GPUTexture => graph.objectOf(name) as GPUTexture;
    const deferred = settings.opaqueShading === 'deferred';
    frame.targets = core.targets.of({
      width, height, depth: texture('depth'), hdr: texture('hdr'), motion: texture('motion'), ambientOcclusion: texture('ambient-occlusion'),
      gbuffer: deferred ? { surfaces: texture('gbuffer-surfaces'), emissive: texture('gbuffer-emissive') } : undefined,
    });
    graph.record(encoder);
    this.#lastGraph = graph;
    if (frame.timestamps) {
      this.#timingState = 'copied';
      this.#timedPasses = frame.timed;
    }
    scene.settleMotion();
  }

  /**
   * After the frame's commands were submitted: reads its pass timings (ms). Passes a frame did
   * not run (no shadows, no SSAO) read 0. Resolves at once with the last timings when none are pending.
   */
  readTimings(): Promise<Readonly<Partial<Record<PassName, number>>>> {
    const timing = this.#core.timing;
    if (!timing || this.#timingState !== 'copied') return (this.#pendingTimings ?? Promise.resolve()).then(() => this.#timings);
    this.#timingState = 'mapping';
    this.#pendingTimings = timing.readback.mapAsync(GPUMapMode.READ).then(() => {
      const stamps = new BigUint64Array(timing.readback.getMappedRange());
      const timings: Partial<Record<PassName, number>> = {};
      PASSES.forEach((pass, p) => {
        const begin = stamps[p * 2]!, end = stamps[p * 2 + 1]!;
        timings[pass] = this.#timedPasses.has(pass) && end > begin ? Number(end - begin) / 1e6 : 0;
      });
      timing.readback.unmap();
      this.#timings = timings;
      this.#timingState = 'idle';
    });
    return this.#pendingTimings.then(() => this.#timings);
  }

  /** Destroys the GPU resources the renderer created (buffers, textures, query sets); later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#core.destroy();
  }
}

function checkAutoPixels(pixels: number): number {
  if (!Number.isFinite(pixels) || !(pixels > 0)) throw new RenderError(`skinnedRasterAutoPixels must be a finite number of pixels above 0, got ${pixels}.`);
  return pixels;
}

function checkLodError(pixels: number): number {
  if (!Number.isFinite(pixels) || pixels < 0) throw new RenderError(`lodErrorPixels must be a finite number of pixels, 0 or more, got ${pixels}.`);
  return pixels;
}

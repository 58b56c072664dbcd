// The engine of slave mode: one WebGPU device, one Renderer, the compiled data, the running
// world, and offscreen frames read back for streaming. Hot reload swaps the world only once
// the new one is built, so a failed load keeps the old resources and says why.
import { perspective } from '@cuttle/gpu-culling';
import { GuiRenderer } from '@cuttle/gui';
import { PASSES, Renderer, type PassName } from '@cuttle/render';
import { TimeStep } from '@cuttle/timestep';
import { EngineError, FlowUpdateError } from '../errors.ts';
import { checkCamera, viewMatrix, type CameraInput } from './camera.ts';
import type { PackageMeta } from './formats.ts';
import { requestEngineDevice, type EngineDevice } from './gpu.ts';
import { EngineMemory } from './memory.ts';
import type { MemoryNode } from './memory-tree.ts';
import { ResourceStore } from './resources.ts';
import { describeFlowReload, type FlowGraphReload } from './flow-scripts.ts';
import { World, type LogFn, type WorldShared } from './world.ts';
import type { JobSystem } from '@cuttle/jobs';
import { startFrameWorkers } from '../workers/frame-workers.ts';
import { basisModule, type BasisModule } from '../textures/basis-module.ts';
import { FlowParallelUpdate } from './flow-parallel.ts';
import { compressionSupport } from '../textures/transcode-ktx2.ts';
import { TextureLoader } from './texture-loader.ts';
import type { KernelUrls } from '../workers/kernel-bundle.ts';

export type { CameraInput } from './camera.ts';

export interface RenderedFrame {
  width: number;
  height: number;
  /** RGBA8, rows top first, `width * 4` bytes each. */
  pixels: Uint8Array;
  /** CPU milliseconds: update, record + submit, GPU wait and readback. */
  cpu: { update: number; record: number; readback: number };
  /** GPU milliseconds per pass of the previous frame (when the adapter has timestamps). */
  gpu: Partial<Record<PassName, number>>;
  /** Reload generation the frame shows. */
  generation: number;
  /** Flow graphs whose update failed this frame (the frame still shows every other update), or null. */
  flowFailure: string | null;
}

interface Target {
  texture: GPUTexture;
  buffers: GPUBuffer[];
  next: number;
}

export interface EngineOptions {
  data: string;
  /** Package to boot (default `boot`). */
  boot?: string;
  log: LogFn;
  /**
   * Threads for the frame's CPU work that grows with the level (the walkers' animation, the Flow
   * update from 8,192 ticking instances) and for transcoding a world's textures at load, this
   * one included (default 1: no workers).
   */
  frameThreads?: number;
  /** Bundled kernels for the frame workers (default: bundled from the engine's source). */
  kernels?: KernelUrls;
  /**
   * What textures are transcoded to: 'device' (default), the best block format the GPU has
   * (BC, ETC2 or ASTC), or 'rgba8', uncompressed (to compare, or on a device that misreads one).
   */
  textureFormats?: 'device' | 'rgba8';
}

const MATERIAL_SUFFIX = '.material';
const FLOW_SUFFIX = '.flow';

export class Engine {
  readonly store: ResourceStore;
  readonly renderer: Renderer;
  readonly guiRenderer: GuiRenderer;
  /** The allocators every world's buffers and the per-frame data come from (apps/engine/README.md, Memory). */
  readonly memory: EngineMemory;
  /** Transcodes compiled textures for this device, and counts what they take. */
  readonly textures: TextureLoader;
  world: World;
  #camera: CameraInput;
  generation = 0;
  readonly level: string;
  #timings: Partial<Record<PassName, number>> = {};
  #timingsPending = false;
  readonly #targets = new Map<string, Target>();
  #lastTick = performance.now();
  // BitSquid's smoothed step: frames are paced by the tools' requests and the GPU, so raw
  // deltas jitter; walkers and Flow timers advance by the filtered step (time debt keeps sync).
  readonly #clock = new TimeStep();

  private constructor(
    readonly gpu: EngineDevice,
    options: EngineOptions,
    /** The frame workers (undefined: one thread). */
    readonly jobs: JobSystem | undefined,
    basis: BasisModule,
  ) {
    const support = options.textureFormats === 'rgba8' ? { bc: false, etc2: false, astc: false } : compressionSupport(gpu.device);
    this.textures = new TextureLoader(basis, support);
    this.#flowUpdate = jobs ? new FlowParallelUpdate(jobs) : undefined;
    this.store = new ResourceStore(options.data);
    const boot = options.boot ?? 'boot';
    const pkg = this.store.get<PackageMeta>('package', boot).meta;
    const level = pkg.resources.find((r) => r.type === 'level');
    if (!level) throw new EngineError(`${boot}.package lists no level to load; add level = ["levels/<name>"].`);
    this.level = level.name;
    this.renderer = new Renderer(gpu.device, { format: 'rgba8unorm', maxLights: 1024, shadowMapSize: 1024, timestamps: gpu.timestamps });
    this.guiRenderer = new GuiRenderer(gpu.device, 'rgba8unorm');
    this.log = options.log;
    this.memory = new EngineMemory(gpu.device);
    this.world = new World(this.#worldShared(), this.level);
    this.memory.sample();
    this.#camera = checkCamera({ position: this.world.meta.camera.position, target: this.world.meta.camera.target });
  }

  /** The view camera. Setting it checks it first: a bad camera throws an EngineError and the old one stays. */
  get camera(): CameraInput {
    return this.#camera;
  }

  set camera(camera: CameraInput) {
    this.#camera = checkCamera(camera);
  }

  log: LogFn;

  /** The Flow update on the frame workers, one for every world (its shared buffers are reused). */
  readonly #flowUpdate: FlowParallelUpdate | undefined;

  #worldShared(): WorldShared {
    return { device: this.gpu.device, store: this.store, guiRenderer: this.guiRenderer, log: this.log, memory: this.memory, textures: this.textures, ...(this.jobs ? { jobs: this.jobs } : {}), ...(this.#flowUpdate ? { flowUpdate: this.#flowUpdate } : {}) };
  }

  /** The memory overview: every allocator with bytes in use, capacity, peak, count and fragmentation. */
  memoryTree(): MemoryNode {
    return this.memory.tree();
  }

  static async start(options: EngineOptions): Promise<Engine> {
    const [gpu, basis] = await Promise.all([requestEngineDevice(), basisModule()]);
    const jobs = await startFrameWorkers(options.frameThreads ?? 1, options.kernels);
    try {
      return new Engine(gpu, options, jobs, basis);
    } catch (error) {
      await jobs?.shutdown();
      throw error;
    }
  }

  /**
   * Reloads recompiled resources (source paths, e.g. `levels/courtyard.level`): materials alone,
   * Flow graphs alone (running instances switch, keeping their variables), and the running level
   * when only transforms, unit materials or light properties changed, are updated in place in
   * the running world; anything else rebuilds the world from the current
   * data. On failure the old world (or material) stays and the error is returned.
   */
  reload(paths: readonly string[]): { ok: true; generation: number; mode: 'in-place' | 'rebuilt'; flow?: FlowGraphReload[] } | { ok: false; error: string } {
    let undo: { restore(): void } | undefined;
    try {
      undo = this.store.invalidate(paths);
      for (const path of paths) if (!(path in this.store.manifest.resources)) throw new EngineError(`${path} is not in the compiled data; compile it first.`);
      // Materials alone change no structure: their render materials are updated in place.
      if (paths.every((path) => path.endsWith(MATERIAL_SUFFIX))) {
        this.world.updateMaterials(this.store, paths.map((path) => path.slice(0, -MATERIAL_SUFFIX.length)));
        this.generation++;
        return { ok: true, generation: this.generation, mode: 'in-place' };
      }
      // Flow graphs alone: the running instances switch to the new programs and keep their
      // variables and node state (level_loaded and unit_spawned do not fire again).
      if (paths.every((path) => path.endsWith(FLOW_SUFFIX))) {
        const flow = this.world.reloadFlow(paths.map((path) => path.slice(0, -FLOW_SUFFIX.length)));
        for (const entry of flow) this.log('info', 'reload', describeFlowReload(entry));
        this.generation++;
        return { ok: true, generation: this.generation, mode: 'in-place', flow };
      }
      // The running level with only moved units, other unit materials or relit lights: patched.
      if (paths.length === 1 && paths[0] === `${this.level}.level`) {
        const patched = this.world.patchLevel(this.store, this.level);
        if (patched.patched) {
          this.generation++;
          return { ok: true, generation: this.generation, mode: 'in-place' };
        }
        this.log('info', 'reload', `rebuilding the world: ${patched.reason}`);
      }
      const next = new World(this.#worldShared(), this.level, this.world);
      // The peak: both worlds hold their ranges until the old one is destroyed.
      this.memory.sample();
      next.time = this.world.time;
      this.world.destroy(next);
      this.world = next;
      this.generation++;
      return { ok: true, generation: this.generation, mode: 'rebuilt' };
    } catch (error) {
      undo?.restore();
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Advances the world to now by the smoothed time step (a stall is capped, then paid back). */
  tick(): number {
    const now = performance.now();
    const dt = this.#clock.advance(Math.min(0.25, (now - this.#lastTick) / 1000));
    this.#lastTick = now;
    // A new frame: last frame's upload data is gone, this one's is staged in the frame allocator.
    this.memory.frame.reset();
    this.world.stageFrame(this.memory.frame);
    this.world.update(dt);
    return dt;
  }

  #target(width: number, height: number): Target {
    const key = `${width}x${height}`;
    let target = this.#targets.get(key);
    if (!target) {
      for (const [k, t] of this.#targets) {
        t.texture.destroy();
        for (const b of t.buffers) b.destroy();
        this.#targets.delete(k);
      }
      const device = this.gpu.device;
      target = {
        // Storage too: the renderer tone-maps into it from compute (the GUI overlay still draws into it).
        texture: device.createTexture({ label: 'cuttle.engine.frame', size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC }),
        buffers: [0, 1].map(() => device.createBuffer({ label: 'cuttle.engine.readback', size: width * height * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ })),
        next: 0,
      };
      this.#targets.set(key, target);
    }
    return target;
  }

  /** Renders the world offscreen at `width` x `height` and reads the pixels back. */
  async renderFrame(width: number, height: number): Promise<RenderedFrame> {
    if (width % 64 !== 0 || width < 64 || height < 16 || width > 3840 || height > 2160) throw new EngineError(`frame size ${width}x${height}: width must be a multiple of 64 from 64 to 3840, height 16 to 2160.`);
    const t0 = performance.now();
    let flowFailure: string | null = null;
    try {
      this.tick();
    } catch (error) {
      // A failing graph (a loop the user just drew) must not freeze the view: the tick finished.
      if (!(error instanceof FlowUpdateError)) throw error;
      flowFailure = error.message;
    }
    const t1 = performance.now();
    const device = this.gpu.device;
    const target = this.#target(width, height);
    const buffer = target.buffers[target.next]!;
    target.next = (target.next + 1) % target.buffers.length;
    const { fovY } = this.#camera;
    const camera = { view: viewMatrix(this.#camera), projection: perspective({ fovY: fovY ?? 0.85, aspect: width / height, near: 0.1, far: Infinity, reversedZ: true }) };
    const encoder = device.createCommandEncoder();
    const generation = this.generation;
    this.world.record(encoder, this.renderer, camera, { view: target.texture.createView(), texture: target.texture, width, height }, true);
    encoder.copyTextureToBuffer({ texture: target.texture }, { buffer, bytesPerRow: width * 4 }, [width, height]);
    device.queue.submit([encoder.finish()]);
    this.world.render.settleMotion();
    this.memory.sample();
    if (this.gpu.timestamps && !this.#timingsPending) {
      this.#timingsPending = true;
      this.renderer.readTimings().then(
        (t) => {
          this.#timings = { ...t };
          this.#timingsPending = false;
        },
        () => {
          this.#timingsPending = false;
        },
      );
    }
    const t2 = performance.now();
    await buffer.mapAsync(GPUMapMode.READ);
    const pixels = new Uint8Array(buffer.getMappedRange().slice(0));
    buffer.unmap();
    const t3 = performance.now();
    const gpu: Partial<Record<PassName, number>> = {};
    for (const pass of PASSES) if (this.#timings[pass] !== undefined) gpu[pass] = this.#timings[pass];
    return { width, height, pixels, cpu: { update: t1 - t0, record: t2 - t1, readback: t3 - t2 }, gpu, generation, flowFailure };
  }

  destroy(): void {
    this.world.destroy();
    this.memory.destroy();
    this.renderer.destroy();
    for (const t of this.#targets.values()) {
      t.texture.destroy();
      for (const b of t.buffers) b.destroy();
    }
    this.gpu.device.destroy();
    // Joined in the background: nothing of theirs is used after this.
    void this.jobs?.shutdown();
  }
}

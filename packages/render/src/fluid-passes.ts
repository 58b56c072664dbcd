// The fluids' part of a frame (shaders/fluid.wgsl): each fluid's uniform, the compute splat of
// its particles into the camera's depth (after the opaque pass), and the compute pass that lights
// the pixels a particle won (after the lighting pass). The Renderer owns one.
import { computeDepth, computeHdrOut } from './layout-entries.ts';
import type { RenderScene } from './scene/render-scene.ts';
import { type PixelRect, screenRect, unionRect } from './screen-rect.ts';

const WORD = 4;
/** Bytes of a fluid's uniform (fluid.wgsl's Fluid). */
const FLUID_UNIFORM_BYTES = 32;
/** Words before the list in a fluid's big-particle buffer: the count. */
const BIG_HEADER_WORDS = 1;
const SPLAT_GROUP = 64;
const MAX_WORKGROUPS_PER_DIMENSION = 65535;
/** The splat's compute steps (fluid.wgsl's entry points, depths or ids by their SPLAT_IDS override). */
const SPLAT_STEPS = ['fluid_splat_depth', 'fluid_splat_count', 'fluid_splat_big_depth', 'fluid_splat_ids', 'fluid_splat_big_ids'] as const;
type SplatStep = (typeof SPLAT_STEPS)[number];

/** What the fluids draw into and read: the Renderer's targets (a new object when they are resized). */
export interface FluidTargets {
  readonly width: number;
  readonly height: number;
  readonly depth: GPUTexture;
  readonly hdr: GPUTexture;
  readonly motion: GPUTexture;
}

/** What the fluids share with the rest of the frame. */
export interface FluidPassesOptions {
  /** The forward module (common.wgsl, forward.wgsl and fluid.wgsl). */
  module: GPUShaderModule;
  /** The frame's group layout (group 0 of every fluid pipeline) and the culled tiles' (group 1 of the shading). */
  frameLayout: GPUBindGroupLayout;
  cullLayout: GPUBindGroupLayout;
  emptyLayout: GPUBindGroupLayout;
  emptyGroup: GPUBindGroup;
  depthFormat: GPUTextureFormat;
}

/** A fluid's GPU state, kept across frames: its uniform, its list of large particles, and groups. */
interface FluidState {
  uniform: GPUBuffer;
  group: GPUBindGroup;
  /** [count, particles...]: the particles too large on screen for one invocation (fluid.wgsl). */
  big: GPUBuffer;
  /** Their indirect dispatch, and the group fluid_splat_count writes it through. */
  bigDispatch: GPUBuffer;
  bigDispatchGroup: GPUBindGroup;
  /** The splat's and the shading pass's groups, rebuilt with the targets. */
  perTargets?: { targets: FluidTargets; splat: GPUBindGroup; shade: GPUBindGroup };
}

/** The splat's per-pixel buffers (the nearest depth's key, its particle's id) and the targets they are for. */
interface SplatBuffers {
  targets: FluidTargets;
  keys: GPUBuffer;
  ids: GPUBuffer;
  resolveGroup: GPUBindGroup;
}

/** A fluid drawn this frame: its state, particle count and positions, and the pixels its bounds cover. */
export interface FluidFrame {
  readonly state: FluidState;
  readonly count: number;
  readonly positions: GPUBuffer;
  readonly rect: PixelRect;
}

export class FluidPasses {
  readonly #device: GPUDevice;
  readonly #options: FluidPassesOptions;
  readonly #layouts: { fluid: GPUBindGroupLayout; shade: GPUBindGroupLayout; splat: GPUBindGroupLayout; resolve: GPUBindGroupLayout; dispatch: GPUBindGroupLayout };
  /** Per fluid simulation. */
  readonly #states = new Map<object, FluidState>();
  /** One fluid's uniform as it is written: float and u32 views of the same bytes. */
  readonly #floats = new Float32Array(FLUID_UNIFORM_BYTES / WORD);
  readonly #words = new Uint32Array(this.#floats.buffer);
  #splat: SplatBuffers | undefined;
  #splatPipelines: Record<SplatStep, GPUComputePipeline> | undefined;
  #shadePipeline: GPUComputePipeline | undefined;
  readonly #resolvePipelines = new Map<boolean, GPURenderPipeline>();

  constructor(device: GPUDevice, options: FluidPassesOptions) {
    this.#device = device;
    this.#options = options;
    const compute = GPUShaderStage.COMPUTE;
    const fluidEntries: GPUBindGroupLayoutEntry[] = [
      { binding: 0, visibility: compute, buffer: { type: 'uniform' } },
      { binding: 1, visibility: compute, buffer: { type: 'read-only-storage' } },
    ];
    this.#layouts = {
      fluid: device.createBindGroupLayout({ label: 'cuttle.render.fluid', entries: fluidEntries }),
      // The shading pass reads the depth and the splat and writes the HDR target.
      shade: device.createBindGroupLayout({
        label: 'cuttle.render.fluid-shade',
        entries: [
          ...fluidEntries,
          computeDepth(2),
          ...[3, 4].map((binding) => ({ binding, visibility: compute, buffer: { type: 'read-only-storage' as const } })),
          computeHdrOut(5),
        ],
      }),
      splat: device.createBindGroupLayout({
        label: 'cuttle.render.fluid-splat',
        entries: [5, 6, 7].map((binding) => ({ binding, visibility: compute, buffer: { type: 'storage' as const } })),
      }),
      resolve: device.createBindGroupLayout({
        label: 'cuttle.render.fluid-resolve',
        entries: [{ binding: 8, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'read-only-storage' } }],
      }),
      dispatch: device.createBindGroupLayout({
        label: 'cuttle.render.fluid-dispatch',
        entries: [{ binding: 9, visibility: compute, buffer: { type: 'storage' } }],
      }),
    };
  }

  /**
   * Each of the scene's fluids with particles, its uniform written for this frame (colour,
   * radius, roughness, its index in the ids, its particle count). RenderScene.addFluid keeps
   * fluids and their particles within what the ids can name.
   */
  prepare(scene: RenderScene, clipFromWorld: ArrayLike<number>, width: number, height: number): FluidFrame[] {
    const fluids: FluidFrame[] = [];
    scene.fluids.forEach((draw, index) => {
      const count = draw.fluid.count;
      if (count === 0) return;
      const state = this.#state(draw.fluid.positionBuffer, draw.fluid.capacity, draw.fluid);
      this.#floats.set(draw.color, 0);
      this.#floats.set([1, draw.radius, draw.roughness], 3);
      this.#words[6] = index;
      this.#words[7] = count;
      this.#device.queue.writeBuffer(state.uniform, 0, this.#floats);
      // Particles stay in the simulation's bounds (give or take its smoothing radius).
      const { bounds, h } = draw.fluid.parameters;
      fluids.push({ state, count, positions: draw.fluid.positionBuffer, rect: screenRect(clipFromWorld, bounds.min, bounds.max, draw.radius + h, width, height) });
    });
    return fluids;
  }

  /**
   * The fluids' particles as sphere impostors into the depth, after the opaque pass: a compute
   * splat keeps each pixel's nearest sphere depth and its particle, then a draw over the pixels
   * the fluids' bounds cover writes that depth where it is nearer than the scene's (and clears
   * the motion vectors there).
   */
  splat(encoder: GPUCommandEncoder, fluids: readonly FluidFrame[], targets: FluidTargets, frameGroup: GPUBindGroup, reversed: boolean, beginWrites: object, endWrites: object): void {
    const splat = this.#splatBuffers(targets);
    const pipelines = this.#splatPipelineSet();
    encoder.clearBuffer(splat.keys);
    encoder.clearBuffer(splat.ids);
    for (const { state } of fluids) encoder.clearBuffer(state.big, 0, BIG_HEADER_WORDS * WORD);
    const pass = encoder.beginComputePass({ label: 'cuttle.render.fluid-splat', ...beginWrites });
    pass.setBindGroup(0, frameGroup);
    // Every fluid's depths before any fluid's ids: an id is written where its depth is the nearest of all.
    for (const steps of [['fluid_splat_depth', 'fluid_splat_count', 'fluid_splat_big_depth'], ['fluid_splat_ids', 'fluid_splat_big_ids']] as const) {
      for (const fluid of fluids) {
        pass.setBindGroup(2, this.#targetGroups(fluid, targets).splat);
        pass.setBindGroup(3, fluid.state.group);
        for (const step of steps) {
          pass.setPipeline(pipelines[step]);
          pass.setBindGroup(1, step === 'fluid_splat_count' ? fluid.state.bigDispatchGroup : this.#options.emptyGroup);
          if (step === 'fluid_splat_count') pass.dispatchWorkgroups(1);
          else if (step === 'fluid_splat_big_depth' || step === 'fluid_splat_big_ids') pass.dispatchWorkgroupsIndirect(fluid.state.bigDispatch, 0);
          else {
            const workgroups = Math.ceil(fluid.count / SPLAT_GROUP);
            const x = Math.min(workgroups, MAX_WORKGROUPS_PER_DIMENSION);
            pass.dispatchWorkgroups(x, Math.ceil(workgroups / x));
          }
        }
      }
    }
    pass.end();
    const resolve = encoder.beginRenderPass({
      label: 'cuttle.render.fluid-resolve',
      colorAttachments: [{ view: targets.motion.createView(), loadOp: 'load', storeOp: 'store' }],
      depthStencilAttachment: { view: targets.depth.createView(), depthLoadOp: 'load', depthStoreOp: 'store' },
      ...endWrites,
    });
    resolve.setPipeline(this.#resolvePipeline(reversed));
    resolve.setBindGroup(0, frameGroup);
    resolve.setBindGroup(1, this.#options.emptyGroup);
    resolve.setBindGroup(2, splat.resolveGroup);
    // Only the pixels the fluids' bounds cover: a full-screen draw costs 1.4 ms at 4K on an H100.
    const rect = fluids.reduce<PixelRect>((union, fluid) => unionRect(union, fluid.rect), [0, 0, 0, 0]);
    if (rect[2] > 0 && rect[3] > 0) {
      resolve.setScissorRect(...rect);
      resolve.draw(3);
    }
    resolve.end();
  }

  /** Lights the pixels each fluid won in the splat, into the HDR target (one compute dispatch per fluid). */
  shade(encoder: GPUCommandEncoder, fluids: readonly FluidFrame[], targets: FluidTargets, frameGroup: GPUBindGroup, cullGroup: GPUBindGroup, timestampWrites: object): void {
    this.#shadePipeline ??= this.#device.createComputePipeline({
      label: 'cuttle.render.fluid-shade',
      layout: this.#device.createPipelineLayout({ bindGroupLayouts: [this.#options.frameLayout, this.#options.cullLayout, this.#options.emptyLayout, this.#layouts.shade] }),
      compute: { module: this.#options.module, entryPoint: 'fluid_shade' },
    });
    const pass = encoder.beginComputePass({ label: 'cuttle.render.fluid', ...timestampWrites });
    pass.setPipeline(this.#shadePipeline);
    pass.setBindGroup(0, frameGroup);
    pass.setBindGroup(1, cullGroup);
    pass.setBindGroup(2, this.#options.emptyGroup);
    for (const fluid of fluids) {
      pass.setBindGroup(3, this.#targetGroups(fluid, targets).shade);
      pass.dispatchWorkgroups(Math.ceil(targets.width / 8), Math.ceil(targets.height / 8));
    }
    pass.end();
  }

  /** Lets go of everything made for the current targets (they are being replaced). */
  releaseTargets(): void {
    this.#splat?.keys.destroy();
    this.#splat?.ids.destroy();
    this.#splat = undefined;
    for (const state of this.#states.values()) delete state.perTargets;
  }

  destroy(): void {
    this.releaseTargets();
    for (const { uniform, big, bigDispatch } of this.#states.values()) {
      for (const buffer of [uniform, big, bigDispatch]) buffer.destroy();
    }
    this.#states.clear();
  }

  /** A fluid simulation's state, made the first frame it is drawn. */
  #state(positions: GPUBuffer, capacity: number, key: object): FluidState {
    let state = this.#states.get(key);
    if (!state) {
      const device = this.#device;
      const uniform = device.createBuffer({ label: 'cuttle.render.fluid', size: FLUID_UNIFORM_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      const big = device.createBuffer({ label: 'cuttle.render.fluid-big-particles', size: (BIG_HEADER_WORDS + capacity) * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      const bigDispatch = device.createBuffer({ label: 'cuttle.render.fluid-big-dispatch', size: 3 * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT });
      state = {
        uniform,
        big,
        bigDispatch,
        bigDispatchGroup: device.createBindGroup({ label: 'cuttle.render.fluid-dispatch', layout: this.#layouts.dispatch, entries: [{ binding: 9, resource: { buffer: bigDispatch } }] }),
        group: device.createBindGroup({ label: 'cuttle.render.fluid', layout: this.#layouts.fluid, entries: [{ binding: 0, resource: { buffer: uniform } }, { binding: 1, resource: { buffer: positions } }] }),
      };
      this.#states.set(key, state);
    }
    return state;
  }

  /** The splat's per-pixel buffers for these targets, made on the first frame with a fluid. */
  #splatBuffers(targets: FluidTargets): SplatBuffers {
    if (this.#splat?.targets !== targets) {
      this.releaseTargets();
      const size = targets.width * targets.height * WORD;
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
      const keys = this.#device.createBuffer({ label: 'cuttle.render.fluid-splat-keys', size, usage });
      const ids = this.#device.createBuffer({ label: 'cuttle.render.fluid-splat-ids', size, usage });
      const resolveGroup = this.#device.createBindGroup({ label: 'cuttle.render.fluid-resolve', layout: this.#layouts.resolve, entries: [{ binding: 8, resource: { buffer: keys } }] });
      this.#splat = { targets, keys, ids, resolveGroup };
    }
    return this.#splat;
  }

  #splatPipelineSet(): Record<SplatStep, GPUComputePipeline> {
    if (!this.#splatPipelines) {
      const { frameLayout, emptyLayout, module } = this.#options;
      const layout = (second: GPUBindGroupLayout): GPUPipelineLayout => this.#device.createPipelineLayout({ bindGroupLayouts: [frameLayout, second, this.#layouts.splat, this.#layouts.fluid] });
      const plain = layout(emptyLayout);
      const counting = layout(this.#layouts.dispatch);
      // The two passes share their entry points: the override SPLAT_IDS picks depths or ids.
      const make = (step: SplatStep): GPUComputePipeline => {
        const entryPoint = step === 'fluid_splat_count' ? step : step.startsWith('fluid_splat_big') ? 'fluid_splat_big' : 'fluid_splat';
        const constants: Record<string, number> = step === 'fluid_splat_count' ? {} : { SPLAT_IDS: step.endsWith('_ids') ? 1 : 0 };
        return this.#device.createComputePipeline({ label: `cuttle.render.${step}`, layout: step === 'fluid_splat_count' ? counting : plain, compute: { module, entryPoint, constants } });
      };
      this.#splatPipelines = Object.fromEntries(SPLAT_STEPS.map((step) => [step, make(step)])) as Record<SplatStep, GPUComputePipeline>;
    }
    return this.#splatPipelines;
  }

  /** The draw that moves the splat's depths into the depth buffer (depth-tested against the scene's). */
  #resolvePipeline(reversed: boolean): GPURenderPipeline {
    let pipeline = this.#resolvePipelines.get(reversed);
    if (!pipeline) {
      const { frameLayout, emptyLayout, module, depthFormat } = this.#options;
      pipeline = this.#device.createRenderPipeline({
        label: `cuttle.render.fluid-resolve${reversed ? '-reversed' : ''}`,
        layout: this.#device.createPipelineLayout({ bindGroupLayouts: [frameLayout, emptyLayout, this.#layouts.resolve] }),
        vertex: { module, entryPoint: 'fluid_resolve_vertex' },
        fragment: { module, entryPoint: 'fluid_resolve', targets: [{ format: 'rgba16float' }] },
        depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: reversed ? 'greater' : 'less' },
      });
      this.#resolvePipelines.set(reversed, pipeline);
    }
    return pipeline;
  }

  /** A fluid's splat and shading groups for `targets` (rebuilt when the targets change). */
  #targetGroups({ state, positions }: FluidFrame, targets: FluidTargets): NonNullable<FluidState['perTargets']> {
    if (state.perTargets?.targets !== targets) {
      const splat = this.#splatBuffers(targets);
      state.perTargets = {
        targets,
        splat: this.#device.createBindGroup({
          label: 'cuttle.render.fluid-splat',
          layout: this.#layouts.splat,
          entries: [
            { binding: 5, resource: { buffer: splat.keys } },
            { binding: 6, resource: { buffer: splat.ids } },
            { binding: 7, resource: { buffer: state.big } },
          ],
        }),
        shade: this.#device.createBindGroup({
          label: 'cuttle.render.fluid-shade',
          layout: this.#layouts.shade,
          entries: [
            { binding: 0, resource: { buffer: state.uniform } },
            { binding: 1, resource: { buffer: positions } },
            { binding: 2, resource: targets.depth.createView() },
            { binding: 3, resource: { buffer: splat.keys } },
            { binding: 4, resource: { buffer: splat.ids } },
            { binding: 5, resource: targets.hdr.createView() },
          ],
        }),
      };
    }
    return state.perTargets;
  }
}

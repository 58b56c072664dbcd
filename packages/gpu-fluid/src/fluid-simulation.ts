import commonWgsl from './shaders/common.wgsl?raw';
import nbodyWgsl from './shaders/nbody.wgsl?raw';
import gridBuildWgsl from './shaders/grid-build.wgsl?raw';
import gridSphWgsl from './shaders/grid-sph.wgsl?raw';
import integrateWgsl from './shaders/integrate.wgsl?raw';
import hashedBuildWgsl from './shaders/hashed-build.wgsl?raw';
import hashedSphWgsl from './shaders/hashed-sph.wgsl?raw';
import { GpuRadixSort, GpuScan, type RadixPlan } from '@cuttle/gpu-primitives';
import { passTimestampWrites, type StepTimestamps } from './timestamps.ts';
import { NEIGHBOUR_MODES, VEC4_BYTES, WORKGROUP_SIZE, type FluidParameters, type NeighbourMode } from './api.ts';
import { GpuFluidError } from './errors.ts';
import { gridDimensions, kernelConstants, resolveParameters } from './parameters.ts';

/** Options of {@link FluidSimulation}'s constructor; only `capacity` is required. */
export interface FluidSimulationOptions {
  /** The most particles this simulation will hold; sizes every buffer. */
  capacity: number;
  /** Neighbour search (default 'counting-sort'); can be changed later through `mode`. */
  mode?: NeighbourMode;
  /** Starting parameters over DEFAULT_PARAMETERS. */
  parameters?: Partial<FluidParameters>;
  /**
   * Cells the counting-sort grid may use (default: what the starting bounds and h need).
   * Reserve more if `setParameters` will later shrink h or grow the bounds.
   */
  maxCells?: number;
  /**
   * Entries of the hashed grid's table (mode 'hashed-grid'; default: the next power of two at
   * or above capacity). More entries, fewer unrelated cells sharing one.
   */
  hashTableSize?: number;
  /**
   * The radix sort the hashed grid uses (default 'count-scan'): 'onesweep' runs
   * `@cuttle/gpu-primitives`' one-sweep kernel where the device has subgroups. `kernels.sort`
   * says which one runs.
   */
  sortAlgorithm?: 'onesweep' | 'count-scan';
  /** Called once if the device is lost while this simulation is alive. */
  onDeviceLost?: (info: GPUDeviceLostInfo) => void;
}

/** Host-side particle data as read back: xyz triplets, the ids carried through reordering, densities. */
export interface FluidSnapshot {
  /** Positions, xyz per particle (3 x count floats), in world units, in the GPU's current (cell-sorted) order. */
  positions: Float32Array;
  /** Velocities, xyz per particle (3 x count floats), in world units per second, same order as `positions`. */
  velocities: Float32Array;
  /** Each particle's number in the order it was added (0 for the first), same order as `positions`. */
  ids: Uint32Array;
  /** Each particle's density from the last step (count floats), same order as `positions`. */
  densities: Float32Array;
}

const PARAMS_BYTES = 128;
const WORD = 4;
/** Workgroups of the grid-stride table clear: plenty to saturate memory, far below any dispatch limit. */
const CLEAR_TABLE_GROUPS = 4096;

// Binding numbers shared by all kernel files (see shaders/*.wgsl).
const B_PARAMS = 0, B_POS = 1, B_VEL = 2, B_IDS = 3, B_WPOS = 4, B_WVEL = 5, B_WIDS = 6, B_RHO = 7, B_ACC = 8, B_SLOTS = 9, B_COUNTS = 11, B_STARTS = 12, B_KEYS = 13, B_VALUES = 14, B_TABLE = 15;

/**
 * SPH fluid on the GPU. You own the device; the simulation creates its pipelines and buffers
 * once, and `step(encoder)` records one whole step (neighbour search, density, forces,
 * integration) into your encoder. Render straight from `positionBuffer` (vec4 per particle,
 * w = 1; usable as a vertex buffer).
 */
export class FluidSimulation {
  /** The most particles this simulation holds, as given in the options. */
  readonly capacity: number;
  /** Cells the counting-sort grid can use; `setParameters` throws when the bounds and h need more. */
  readonly maxCells: number;
  /** Whether the device can time passes (the `timestamp-query` feature). */
  readonly hasTimestamps: boolean;
  /** Resolves with the loss information if the device is lost. */
  readonly lost: Promise<GPUDeviceLostInfo>;
  readonly #device: GPUDevice;
  readonly #buffers: Record<number, GPUBuffer>;
  /** Entries of the hashed grid's table (mode `'hashed-grid'`), a power of two unless set in the options. */
  readonly hashTableSize: number;
  readonly #scan: GpuScan;
  readonly #sort: GpuRadixSort;
  readonly #pipelines: Record<
    'densityNbody' | 'forcesNbody' | 'countCells' | 'scatter' | 'densityGrid' | 'forcesGrid' | 'integrate' | 'hashParticles' | 'clearTable' | 'cellOffsets' | 'gather' | 'densityHashed' | 'forcesHashed',
    Kernel
  >;
  #parameters: FluidParameters;
  #mode: NeighbourMode;
  #count = 0;
  #cells: number;
  #paramsDirty = true;
  #lostInfo: GPUDeviceLostInfo | undefined;
  #destroyed = false;

  constructor(device: GPUDevice, options: FluidSimulationOptions) {
    const limits = device.limits;
    const capacity = options.capacity;
    if (!Number.isInteger(capacity) || capacity < 1) throw new GpuFluidError(`capacity must be a positive integer, got ${capacity}.`);
    const vec4Bytes = capacity * VEC4_BYTES;
    if (vec4Bytes > limits.maxStorageBufferBindingSize || vec4Bytes > limits.maxBufferSize) {
      const most = Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / VEC4_BYTES);
      throw new GpuFluidError(`capacity ${capacity} needs ${vec4Bytes} bytes per particle array, above this device's buffer limits; the most it can hold is ${most} particles (request a device with higher maxStorageBufferBindingSize and maxBufferSize for more).`);
    }
    if (Math.ceil(capacity / WORKGROUP_SIZE) > limits.maxComputeWorkgroupsPerDimension) {
      throw new GpuFluidError(`capacity ${capacity} needs more than maxComputeWorkgroupsPerDimension (${limits.maxComputeWorkgroupsPerDimension}) workgroups of ${WORKGROUP_SIZE}.`);
    }
    const mode = options.mode ?? 'counting-sort';
    requireMode(mode);
    this.#parameters = resolveParameters(options.parameters);
    this.#cells = cellCount(this.#parameters);
    const maxCells = options.maxCells ?? this.#cells;
    if (!Number.isInteger(maxCells) || maxCells < 1) throw new GpuFluidError(`maxCells must be a positive integer, got ${maxCells}.`);
    if (maxCells * WORD > limits.maxStorageBufferBindingSize) {
      throw new GpuFluidError(`maxCells ${maxCells} is above what one storage buffer of this device holds (${Math.floor(limits.maxStorageBufferBindingSize / WORD)}); use a larger h or smaller bounds.`);
    }
    requireCells(this.#cells, maxCells);
    const hashTableSize = options.hashTableSize ?? Math.max(WORKGROUP_SIZE, 2 ** Math.ceil(Math.log2(capacity)));
    if (!Number.isInteger(hashTableSize) || hashTableSize < 1 || hashTableSize * WORD > limits.maxStorageBufferBindingSize) {
      throw new GpuFluidError(`hashTableSize must be a positive integer that one storage buffer of this device can hold, got ${hashTableSize}.`);
    }
    this.hashTableSize = hashTableSize;

    this.capacity = capacity;
    this.maxCells = maxCells;
    this.#mode = mode;
    this.#device = device;
    this.hasTimestamps = device.features.has('timestamp-query');
    this.lost = device.lost;
    void device.lost.then((info) => {
      if (this.#destroyed) return;
      this.#lostInfo = info;
      options.onDeviceLost?.(info);
    });

    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const make = (label: string, size: number, usage = storage): GPUBuffer => device.createBuffer({ label: `cuttle.fluid.${label}`, size: Math.max(size, WORD), usage });
    this.#buffers = {
      [B_PARAMS]: make('params', PARAMS_BYTES, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
      [B_POS]: make('positions', vec4Bytes, storage | GPUBufferUsage.VERTEX),
      [B_VEL]: make('velocities', vec4Bytes),
      [B_IDS]: make('ids', capacity * WORD),
      [B_WPOS]: make('work-positions', vec4Bytes),
      [B_WVEL]: make('work-velocities', vec4Bytes),
      [B_WIDS]: make('work-ids', capacity * WORD),
      [B_RHO]: make('densities', capacity * WORD),
      [B_ACC]: make('accelerations', vec4Bytes),
      [B_SLOTS]: make('cell-slots', capacity * 2 * WORD),
      [B_COUNTS]: make('cell-counts', maxCells * WORD),
      [B_STARTS]: make('cell-starts', maxCells * WORD),
      [B_KEYS]: make('sort-keys', capacity * WORD),
      [B_VALUES]: make('sort-values', capacity * WORD),
      [B_TABLE]: make('hash-table', hashTableSize * WORD),
    };
    this.#scan = new GpuScan(device, { maxCount: maxCells, slots: 1 });
    // Only the bits a table index can have take part in the sort: fewer radix passes.
    const keyBits = Math.max(4, Math.ceil(Math.ceil(Math.log2(Math.max(2, hashTableSize))) / 4) * 4);
    this.#sort = new GpuRadixSort(device, { maxCount: capacity, keyBits, slots: 1, algorithm: options.sortAlgorithm ?? 'count-scan' });

    const pipeline = (code: string, entryPoint: string, bindings: number[]): Kernel => {
      const module = device.createShaderModule({ label: `cuttle.fluid.${entryPoint}`, code: commonWgsl + code });
      const computePipeline = device.createComputePipeline({ label: `cuttle.fluid.${entryPoint}`, layout: 'auto', compute: { module, entryPoint } });
      const group = device.createBindGroup({
        label: `cuttle.fluid.${entryPoint}`,
        layout: computePipeline.getBindGroupLayout(0),
        entries: bindings.map((binding) => ({ binding, resource: { buffer: this.#buffers[binding]! } })),
      });
      return { pipeline: computePipeline, group };
    };
    this.#pipelines = {
      densityNbody: pipeline(nbodyWgsl, 'density_nbody', [B_PARAMS, B_WPOS, B_RHO]),
      forcesNbody: pipeline(nbodyWgsl, 'forces_nbody', [B_PARAMS, B_WPOS, B_WVEL, B_RHO, B_ACC]),
      countCells: pipeline(gridBuildWgsl, 'count_cells', [B_PARAMS, B_POS, B_SLOTS, B_COUNTS]),
      scatter: pipeline(gridBuildWgsl, 'scatter', [B_PARAMS, B_POS, B_VEL, B_IDS, B_WPOS, B_WVEL, B_WIDS, B_SLOTS, B_STARTS]),
      densityGrid: pipeline(gridSphWgsl, 'density_grid', [B_PARAMS, B_WPOS, B_RHO, B_COUNTS, B_STARTS]),
      forcesGrid: pipeline(gridSphWgsl, 'forces_grid', [B_PARAMS, B_WPOS, B_WVEL, B_RHO, B_ACC, B_COUNTS, B_STARTS]),
      integrate: pipeline(integrateWgsl, 'integrate', [B_PARAMS, B_POS, B_VEL, B_IDS, B_WPOS, B_WVEL, B_WIDS, B_ACC]),
      hashParticles: pipeline(hashedBuildWgsl, 'hash_particles', [B_PARAMS, B_POS, B_KEYS, B_VALUES]),
      clearTable: pipeline(hashedBuildWgsl, 'clear_table', [B_PARAMS, B_TABLE]),
      cellOffsets: pipeline(hashedBuildWgsl, 'cell_offsets', [B_PARAMS, B_KEYS, B_TABLE]),
      gather: pipeline(hashedBuildWgsl, 'gather', [B_PARAMS, B_POS, B_VEL, B_IDS, B_WPOS, B_WVEL, B_WIDS, B_VALUES]),
      densityHashed: pipeline(hashedSphWgsl, 'density_hashed', [B_PARAMS, B_WPOS, B_RHO, B_KEYS, B_TABLE]),
      forcesHashed: pipeline(hashedSphWgsl, 'forces_hashed', [B_PARAMS, B_WPOS, B_WVEL, B_RHO, B_ACC, B_KEYS, B_TABLE]),
    };
  }

  /** Particles alive now. */
  get count(): number {
    return this.#count;
  }

  /** The current solver parameters (change them with `setParameters`). */
  get parameters(): FluidParameters {
    return this.#parameters;
  }

  /** The neighbour search the next step uses; settable between steps. */
  get mode(): NeighbourMode {
    return this.#mode;
  }

  set mode(mode: NeighbourMode) {
    requireMode(mode);
    this.#mode = mode;
  }

  /** vec4<f32> per particle (xyz, w = 1), STORAGE | VERTEX | COPY_SRC | COPY_DST. Order changes from step to step in 'counting-sort' mode. */
  get positionBuffer(): GPUBuffer {
    return this.#buffers[B_POS]!;
  }

  /** vec4<f32> per particle (xyz, w = 0), in the same order as `positionBuffer`. */
  get velocityBuffer(): GPUBuffer {
    return this.#buffers[B_VEL]!;
  }

  /** u32 per particle: the emission index of the particle at each slot, carried through reordering. */
  get idBuffer(): GPUBuffer {
    return this.#buffers[B_IDS]!;
  }

  /** f32 per particle: the densities of the latest step, in the order of `positionBuffer`. */
  get densityBuffer(): GPUBuffer {
    return this.#buffers[B_RHO]!;
  }

  /**
   * Which kernels of `@cuttle/gpu-primitives` the grids use: `'subgroups'` when the device was
   * created with the `subgroups` feature (faster), `'portable'` otherwise.
   */
  get kernels(): { scan: 'subgroups' | 'portable'; sort: RadixPlan['kind'] } {
    return { scan: this.#scan.variant, sort: this.#sort.plan.kind };
  }

  /** Device loss information once the device is lost, else undefined. */
  get deviceLost(): GPUDeviceLostInfo | undefined {
    return this.#lostInfo;
  }

  /**
   * Changes some parameters; all are checked first (GpuFluidError, nothing changes on error).
   * Takes effect at the next submit for every step recorded before it.
   */
  setParameters(changes: Partial<FluidParameters>): void {
    this.#assertUsable();
    const next = resolveParameters(changes, this.#parameters);
    const cells = cellCount(next);
    requireCells(cells, this.maxCells);
    this.#parameters = next;
    this.#cells = cells;
    this.#paramsDirty = true;
  }

  /**
   * Adds particles after the live ones: `positions` (and optional `velocities`, default 0) as xyz
   * triplets. Throws GpuFluidError if they would pass `capacity` or hold a non-finite number.
   * The data is written through the queue, so it lands before the next submitted commands.
   */
  emit(positions: Float32Array, velocities?: Float32Array): void {
    this.#assertUsable();
    if (!(positions instanceof Float32Array) || positions.length % 3 !== 0) throw new GpuFluidError('positions must be a Float32Array of xyz triplets.');
    const added = positions.length / 3;
    if (velocities !== undefined && (!(velocities instanceof Float32Array) || velocities.length !== positions.length)) {
      throw new GpuFluidError(`velocities must be a Float32Array as long as positions (${positions.length}).`);
    }
    if (this.#count + added > this.capacity) {
      throw new GpuFluidError(`emitting ${added} particles would make ${this.#count + added}, above capacity ${this.capacity}.`);
    }
    if (added === 0) return;
    const pos4 = new Float32Array(added * 4);
    const vel4 = new Float32Array(added * 4);
    const ids = new Uint32Array(added);
    for (let i = 0; i < added; i++) {
      for (let axis = 0; axis < 3; axis++) {
        const x = positions[i * 3 + axis]!;
        const v = velocities ? velocities[i * 3 + axis]! : 0;
        if (!Number.isFinite(x) || !Number.isFinite(v)) throw new GpuFluidError(`particle ${i} has a non-finite position or velocity.`);
        pos4[i * 4 + axis] = x;
        vel4[i * 4 + axis] = v;
      }
      pos4[i * 4 + 3] = 1;
      ids[i] = this.#count + i;
    }
    const queue = this.#device.queue;
    queue.writeBuffer(this.#buffers[B_POS]!, this.#count * VEC4_BYTES, pos4);
    queue.writeBuffer(this.#buffers[B_VEL]!, this.#count * VEC4_BYTES, vel4);
    queue.writeBuffer(this.#buffers[B_IDS]!, this.#count * WORD, ids);
    this.#count += added;
    this.#paramsDirty = true;
  }

  /** Forgets every particle (the buffers keep their bytes; emit writes over them). */
  clear(): void {
    this.#assertUsable();
    this.#count = 0;
    this.#paramsDirty = true;
  }

  /**
   * Records one whole step into `encoder`. `timestamps` (GPU timing) are written at the start of
   * the first compute pass and the end of the last. Records nothing when there are no particles.
   */
  step(encoder: GPUCommandEncoder, timestamps?: StepTimestamps): void {
    this.#assertUsable();
    if (this.#count === 0) return;
    const stages = this.#prepare(encoder);
    const querySet = timestamps?.querySet;
    const last = stages.length - 1;
    let pass: GPUComputePassEncoder | undefined;
    for (let i = 0; i <= last; i++) {
      const stage = stages[i]!;
      const begin = i === 0 ? timestamps?.beginIndex : undefined;
      if (stage.encode) {
        pass?.end();
        pass = undefined;
        const end = i === last ? timestamps?.endIndex : undefined;
        stage.encode(encoder, querySet && { querySet, ...(begin === undefined ? {} : { beginIndex: begin }), ...(end === undefined ? {} : { endIndex: end }) });
        continue;
      }
      if (!pass) {
        // Consecutive dispatches share one pass; it ends the step if no encoded stage follows.
        let j = i;
        while (j < last && !stages[j + 1]!.encode) j++;
        pass = encoder.beginComputePass({ label: `cuttle.fluid.${stage.name}`, ...passTimestampWrites(querySet, begin, j === last ? timestamps?.endIndex : undefined) });
      }
      dispatch(pass, stage.pipeline!, stage.groups!);
    }
    pass?.end();
  }

  /**
   * Times every stage of a step on the GPU: runs `steps` steps (1 to 64) in one submit with each
   * stage in its own timed pass, and resolves to the mean milliseconds per stage, keyed by stage
   * name ('density', 'forces', 'scan', 'sort', ...). The particles advance by `steps` steps.
   * Needs the `timestamp-query` feature (see `hasTimestamps`).
   */
  async profile(steps = 10): Promise<Record<string, number>> {
    this.#assertUsable();
    if (!this.hasTimestamps) throw new GpuFluidError('profile() needs a device created with the timestamp-query feature.');
    if (!Number.isInteger(steps) || steps < 1 || steps > 64) throw new GpuFluidError(`steps must be an integer from 1 to 64, got ${steps}.`);
    if (this.#count === 0) return {};
    const device = this.#device;
    const queries = 2 * 8 * steps;
    const querySet = device.createQuerySet({ label: 'cuttle.fluid.profile', type: 'timestamp', count: queries });
    const resolve = device.createBuffer({ size: queries * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: queries * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = device.createCommandEncoder({ label: 'cuttle.fluid.profile' });
      const names: string[] = [];
      for (let s = 0; s < steps; s++) {
        for (const stage of this.#prepare(encoder)) {
          const index = names.length * 2;
          names.push(stage.name);
          if (stage.encode) {
            stage.encode(encoder, { querySet, beginIndex: index, endIndex: index + 1 });
          } else {
            const pass = encoder.beginComputePass({ label: `cuttle.fluid.${stage.name}`, ...passTimestampWrites(querySet, index, index + 1) });
            dispatch(pass, stage.pipeline!, stage.groups!);
            pass.end();
          }
        }
      }
      encoder.resolveQuerySet(querySet, 0, names.length * 2, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, readback, 0, names.length * 16);
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(GPUMapMode.READ);
      const ticks = new BigUint64Array(readback.getMappedRange().slice(0, names.length * 16));
      readback.unmap();
      const ms: Record<string, number> = {};
      names.forEach((name, k) => {
        ms[name] = (ms[name] ?? 0) + Number(ticks[2 * k + 1]! - ticks[2 * k]!) / 1e6 / steps;
      });
      return ms;
    } finally {
      querySet.destroy();
      resolve.destroy();
      readback.destroy();
    }
  }

  /**
   * Writes the parameters if they changed, records the commands that come before any pass
   * (copies, clears), and lists the step's stages in order: single dispatches, or whole
   * primitives (scan, sort) that record their own passes.
   */
  #prepare(encoder: GPUCommandEncoder): Stage[] {
    const count = this.#count;
    if (this.#paramsDirty) this.#writeParams();
    const groups = Math.ceil(count / WORKGROUP_SIZE);
    const p = this.#pipelines;
    const b = this.#buffers;
    if (this.#mode === 'nbody') {
      // N-body keeps particle order; the kernels read the work copies in every mode.
      encoder.copyBufferToBuffer(b[B_POS]!, 0, b[B_WPOS]!, 0, count * VEC4_BYTES);
      encoder.copyBufferToBuffer(b[B_VEL]!, 0, b[B_WVEL]!, 0, count * VEC4_BYTES);
      encoder.copyBufferToBuffer(b[B_IDS]!, 0, b[B_WIDS]!, 0, count * WORD);
      return [
        { name: 'density', pipeline: p.densityNbody, groups },
        { name: 'forces', pipeline: p.forcesNbody, groups },
        { name: 'integrate', pipeline: p.integrate, groups },
      ];
    }
    if (this.#mode === 'hashed-grid') {
      return [
        { name: 'hash', pipeline: p.hashParticles, groups },
        { name: 'sort', encode: (e, t) => { this.#sort.encode(e, b[B_KEYS]!, b[B_VALUES]!, count, t); } },
        // clear_table is grid-stride: cap the dispatch, any table size fits.
        { name: 'clear-table', pipeline: p.clearTable, groups: Math.min(CLEAR_TABLE_GROUPS, Math.ceil(this.hashTableSize / WORKGROUP_SIZE)) },
        { name: 'cell-offsets', pipeline: p.cellOffsets, groups },
        { name: 'gather', pipeline: p.gather, groups },
        { name: 'density', pipeline: p.densityHashed, groups },
        { name: 'forces', pipeline: p.forcesHashed, groups },
        { name: 'integrate', pipeline: p.integrate, groups },
      ];
    }
    const cells = this.#cells;
    encoder.clearBuffer(b[B_COUNTS]!, 0, cells * WORD);
    return [
      { name: 'count-cells', pipeline: p.countCells, groups },
      { name: 'scan', encode: (e, t) => { this.#scan.encode(e, b[B_COUNTS]!, b[B_STARTS]!, cells, t); } },
      { name: 'scatter', pipeline: p.scatter, groups },
      { name: 'density', pipeline: p.densityGrid, groups },
      { name: 'forces', pipeline: p.forcesGrid, groups },
      { name: 'integrate', pipeline: p.integrate, groups },
    ];
  }

  /** Reads the particle data back (xyz triplets). Convenient for tests and tools, not per frame. */
  async read(): Promise<FluidSnapshot> {
    this.#assertUsable();
    const count = this.#count;
    const vec4 = count * VEC4_BYTES;
    const words = count * WORD;
    const staging = this.#device.createBuffer({ size: Math.max(WORD, 2 * vec4 + 2 * words), usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = this.#device.createCommandEncoder({ label: 'cuttle.fluid.read' });
      if (count > 0) {
        encoder.copyBufferToBuffer(this.#buffers[B_POS]!, 0, staging, 0, vec4);
        encoder.copyBufferToBuffer(this.#buffers[B_VEL]!, 0, staging, vec4, vec4);
        encoder.copyBufferToBuffer(this.#buffers[B_IDS]!, 0, staging, 2 * vec4, words);
        encoder.copyBufferToBuffer(this.#buffers[B_RHO]!, 0, staging, 2 * vec4 + words, words);
      }
      this.#device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const bytes = staging.getMappedRange().slice(0);
      staging.unmap();
      const pos4 = new Float32Array(bytes, 0, count * 4);
      const vel4 = new Float32Array(bytes, vec4, count * 4);
      const snapshot: FluidSnapshot = {
        positions: new Float32Array(count * 3),
        velocities: new Float32Array(count * 3),
        ids: new Uint32Array(bytes, 2 * vec4, count).slice(),
        densities: new Float32Array(bytes, 2 * vec4 + words, count).slice(),
      };
      for (let i = 0; i < count; i++) {
        for (let axis = 0; axis < 3; axis++) {
          snapshot.positions[i * 3 + axis] = pos4[i * 4 + axis]!;
          snapshot.velocities[i * 3 + axis] = vel4[i * 4 + axis]!;
        }
      }
      return snapshot;
    } finally {
      staging.destroy();
    }
  }

  /** Frees the simulation's GPU buffers and its sort and scan; later calls do nothing. The device stays yours. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#scan.destroy();
    this.#sort.destroy();
    for (const buffer of Object.values(this.#buffers)) buffer.destroy();
  }

  #writeParams(): void {
    const p = this.#parameters;
    const { poly6, spiky, viscosityLaplacian } = kernelConstants(p.h);
    const dims = gridDimensions(p);
    const data = new ArrayBuffer(PARAMS_BYTES);
    const f = new Float32Array(data);
    const u = new Uint32Array(data);
    f.set(p.bounds.min, 0);
    f[3] = p.h;
    f.set(p.bounds.max, 4);
    f[7] = p.h * p.h;
    f.set(p.gravity, 8);
    f[11] = p.dt;
    u.set(dims, 12);
    u[15] = this.#count;
    f[16] = poly6;
    f[17] = spiky;
    f[18] = p.k;
    f[19] = p.rho0;
    f[20] = p.mass;
    f[21] = p.viscosity;
    f[22] = p.restitution;
    f[23] = 1 / p.h;
    f[24] = viscosityLaplacian;
    u[25] = this.hashTableSize;
    this.#device.queue.writeBuffer(this.#buffers[B_PARAMS]!, 0, data);
    this.#paramsDirty = false;
  }

  #assertUsable(): void {
    if (this.#destroyed) throw new GpuFluidError('This FluidSimulation was destroyed; create a new one.');
    if (this.#lostInfo) throw new GpuFluidError(`The GPU device was lost (${this.#lostInfo.reason}: ${this.#lostInfo.message}); create a new device and simulation.`);
  }
}

interface Kernel {
  pipeline: GPUComputePipeline;
  group: GPUBindGroup;
}

/** One stage of a step: a kernel dispatched over `groups` workgroups, or a primitive that records its own passes. */
interface Stage {
  name: string;
  pipeline?: Kernel;
  groups?: number;
  encode?: (encoder: GPUCommandEncoder, timestamps: StepTimestamps | undefined) => void;
}

function dispatch(pass: GPUComputePassEncoder, stage: Kernel, groups: number): void {
  pass.setPipeline(stage.pipeline);
  pass.setBindGroup(0, stage.group);
  pass.dispatchWorkgroups(groups);
}

function cellCount(p: FluidParameters): number {
  const [x, y, z] = gridDimensions(p);
  return x * y * z;
}

function requireCells(cells: number, maxCells: number): void {
  if (cells > maxCells) {
    throw new GpuFluidError(`the bounds cut into cells of side h need ${cells} grid cells, above maxCells ${maxCells}; use a larger h, smaller bounds, or a simulation created with a larger maxCells.`);
  }
}

function requireMode(mode: NeighbourMode): void {
  if (!NEIGHBOUR_MODES.includes(mode)) throw new GpuFluidError(`mode must be one of ${NEIGHBOUR_MODES.join(', ')}, got ${mode}.`);
}

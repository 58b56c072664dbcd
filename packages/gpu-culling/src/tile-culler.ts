import { ENTITY_BYTES, ENTITY_WORDS, TECHNIQUES, TILE_SIZES, type CameraInput, type CullMethod, type CullWalk, type EntityCounts, type Technique, type TileSize } from './api.ts';
import { resolveCamera, type CullCamera } from './camera.ts';
import { cullingShaderModule, resolveWalk, type CullingModuleOptions } from './culling-module.ts';
import type { EntityList } from './entity-list.ts';
import { GpuCullingError } from './errors.ts';
import { coarseSource, cullSource, depthSource, FLAT_HEADER_WORDS, maskWords, prepareSource, STATS_HEADER, type ShaderPlan } from './shader-source.ts';
import { buildTileGrid, CORNER_FLOATS, PLANE_FLOATS, type TileGrid } from './tile-grid.ts';
import { passTimestampWrites, type CullTimestamps } from './timestamps.ts';

/** Options of {@link TileCuller}'s constructor; every one has a default. */
export interface TileCullerOptions {
  /** Most entities in view at once (default 4096); rounded up to a multiple of 32. Flat bit arrays keep maxEntities / 32 words per tile. */
  maxEntities?: number;
  /** Pixels per tile side: 8, 16 (default) or 32. */
  tileSize?: TileSize;
  /** 'flat-bits' (default) or 'compaction'. Fixed for the culler's life: the shading module depends on it. */
  technique?: Technique;
  /** Compaction: most entities per tile (default 255, at most 1023); more are dropped and counted. */
  maxPerTile?: number;
  /** 'gather', 'scatter' or 'auto' (default): settable later through `method`. */
  method?: CullMethod;
  /** Entities above which 'auto' scatters (default 1024). */
  scatterThreshold?: number;
  /** Harada's 2.5D depth mask test (default true); settable later through `depthMask`. */
  depthMask?: boolean;
  /** Use subgroup operations when the device has the `subgroups` feature (default true). */
  subgroups?: boolean;
  /** Invocations per tile in the culling pass: 64, 128 or 256 (default by maxEntities: 64 up to 8192, 128 up to 32768, else 256; see BENCHMARKS.md). */
  cullThreads?: 64 | 128 | 256;
  /**
   * Flat bits: write each tile whose entities fit in its words (with at most 1023 decals, 1023
   * probes and 2047 lights) as a sorted list of indices instead of bits (default true). Shading then reads one word per entity, as over a
   * compaction list, yet nothing is dropped: a tile with more entities keeps its bits. False
   * writes bits everywhere (the same entities, walked in the same order).
   */
  tileLists?: boolean;
}

/** What `read()` returns: the culling result on the host, for tests, tools and statistics. */
export interface CullReadback {
  /** Per tile: center xyz, min depth, extent xyz, max depth (floats 0-7), then mask and pixel count as u32 (words 8-9), 12 words a tile. */
  tileInfo: Float32Array;
  /** The same words as `tileInfo`, as u32 (for the mask and pixel count). */
  tileInfoWords: Uint32Array;
  /** Flat bits (bucketsPerTile words a tile) or lists (statistics word, then up to maxPerTile indices: maxPerTile + 1 words a tile). */
  tiles: Uint32Array;
  /** Entities kept per tile. */
  entitiesPerTile: Uint32Array;
  /** Compaction: entities dropped by full tiles, and how many tiles overflowed. */
  droppedEntities: number;
  /** Compaction: tiles that had more entities than `maxPerTile`. */
  overflowedTiles: number;
}

/** Words per tile of `tileInfo` in CullReadback. */
export const TILE_INFO_WORDS = 12;

const DEPTH_FORMATS = new Set<GPUTextureFormat>(['depth16unorm', 'depth24plus', 'depth24plus-stencil8', 'depth32float', 'depth32float-stencil8']);
const FRAME_BYTES = 256;
/** The uniform the shading module reads (see culling-module.ts). */
export const VIEW_BYTES = 128;
const WORD = 4;
const MAX_LIST_CAPACITY = 1023;
const STAGE_GROUP = 64;

// Binding numbers shared by every pass (see shaders/*.wgsl).
const B_FRAME = 0, B_ENTITIES = 1, B_RECTS = 2, B_SPHERES = 3, B_SHAPES = 4, B_PLANES = 5, B_CORNERS = 6, B_TILE_INFO = 7, B_TILE_OUT = 8, B_STATS = 9, B_COARSE_INFO = 10, B_COARSE_BITS = 11, B_DEPTH = 12;

type Stage = 'prepare' | 'depth' | 'coarseBounds' | 'scatter' | 'gather' | 'fromCoarse';

// Sized for the largest grid culled so far: a smaller resolution reuses them, so their capacity
// (tiles, coarseTiles, corners) can exceed the current grid's.
type SizedBuffers = Record<'planes' | 'corners' | 'tileInfo' | 'tileOut' | 'stats' | 'coarseInfo' | 'coarseBits', GPUBuffer> & {
  tiles: number;
  coarseTiles: number;
  cornerCount: number;
};

/**
 * Tiled culling of lights, decals and environment probes against a depth buffer you rendered.
 * You own the device and the depth texture; `cull(encoder, depth)` records the passes into
 * your encoder, and your shading reads `tileBuffer` through the WGSL of `cullingShaderModule`.
 */
export class TileCuller {
  /** How tiles hold their entities, as given in the options. */
  readonly technique: Technique;
  /** Pixels per tile side, as given in the options. */
  readonly tileSize: TileSize;
  /** Most entities per cull (a multiple of 32). */
  readonly maxEntities: number;
  /** Words of entity bits per tile of the flat bit arrays: `maxEntities / 32`. */
  readonly bucketsPerTile: number;
  /** Compaction: most entities kept per tile. */
  readonly maxPerTile: number;
  /**
   * u32 words per tile in `tileBuffer`. Flat bits: a header word, then `maskWords` words of
   * bucket mask and the buckets (bits form, header 0), or a sorted list of indices (list form,
   * header `0x80000000 | decals | probes << 10 | lights << 20`). Compaction: a statistics word and `maxPerTile` entries.
   */
  readonly wordsPerTile: number;
  /** Flat bits: whether tiles whose entities fit are written as lists (the `tileLists` option). */
  readonly tileLists: boolean;
  /** Flat bits: words of the bucket mask in front of each tile's buckets (one bit per non-empty bucket). */
  readonly maskWords: number;
  /** Whether the compaction append uses subgroup ballots. */
  readonly subgroups: boolean;
  /** Whether the depth pass reduces over subgroups before its workgroup atomics. */
  readonly depthSubgroups: boolean;
  /** Invocations per workgroup of the cull pass: 64, 128 or 256. */
  readonly cullThreads: number;
  /** With method `'auto'`: culls of more entities than this scatter, others gather. Settable. */
  scatterThreshold: number;
  readonly #device: GPUDevice;
  readonly #pipelines: Record<Stage, GPUComputePipeline>;
  readonly #frame: GPUBuffer;
  readonly #view: GPUBuffer;
  readonly #entities: GPUBuffer;
  readonly #rects: GPUBuffer;
  readonly #spheres: GPUBuffer;
  readonly #shapes: GPUBuffer;
  readonly #frameData = new Float32Array(FRAME_BYTES / WORD);
  readonly #frameWords = new Uint32Array(this.#frameData.buffer);
  readonly #viewData = new Float32Array(VIEW_BYTES / WORD);
  readonly #viewWords = new Uint32Array(this.#viewData.buffer);
  #method: CullMethod;
  #depthMask: boolean;
  #camera: CullCamera | undefined;
  #projection = new Float64Array(16).fill(NaN);
  #grid: TileGrid | undefined;
  #gridDirty = true;
  #counts: EntityCounts = { decals: 0, probes: 0, lights: 0 };
  #sized: SizedBuffers | undefined;
  #groups: Partial<Record<Stage, GPUBindGroup>> = {};
  #depthTexture: GPUTexture | undefined;
  #destroyed = false;

  constructor(device: GPUDevice, options: TileCullerOptions = {}) {
    const tileSize = options.tileSize ?? 16;
    if (!TILE_SIZES.includes(tileSize)) throw new GpuCullingError(`tileSize must be 8, 16 or 32, got ${String(tileSize)}.`);
    const technique = options.technique ?? 'flat-bits';
    if (!(TECHNIQUES as readonly string[]).includes(technique)) throw new GpuCullingError(`technique must be 'flat-bits' or 'compaction', got ${technique}.`);
    const requested = options.maxEntities ?? 4096;
    if (!Number.isInteger(requested) || requested < 1) throw new GpuCullingError(`maxEntities must be a positive integer, got ${requested}.`);
    const maxEntities = Math.ceil(requested / 32) * 32;
    const bucketsPerTile = maxEntities / 32;
    // Measured on an H100 (BENCHMARKS.md): few entities per coarse tile favour small groups, many favour large.
    const cullThreads = options.cullThreads ?? (maxEntities <= 8192 ? 64 : maxEntities <= 32_768 ? 128 : 256);
    if (![64, 128, 256].includes(cullThreads)) throw new GpuCullingError(`cullThreads must be 64, 128 or 256, got ${cullThreads}.`);
    // Flat bits keep one workgroup-memory word per bucket and per mask word, and one per
    // invocation for the scan that places each tile's list.
    const workgroupWords = Math.floor(device.limits.maxComputeWorkgroupStorageSize / WORD) - 8 - (technique === 'flat-bits' ? cullThreads : 0);
    if (bucketsPerTile + maskWords(bucketsPerTile) > workgroupWords) {
      throw new GpuCullingError(`maxEntities ${maxEntities} needs ${(bucketsPerTile + maskWords(bucketsPerTile)) * WORD} bytes of workgroup memory, above this device's maxComputeWorkgroupStorageSize (${device.limits.maxComputeWorkgroupStorageSize}) with ${cullThreads} cullThreads; the most is ${Math.floor((workgroupWords * 32 * 32) / 33 / 32) * 32}.`);
    }
    const maxPerTile = options.maxPerTile ?? 255;
    if (!Number.isInteger(maxPerTile) || maxPerTile < 1 || maxPerTile > MAX_LIST_CAPACITY) throw new GpuCullingError(`maxPerTile must be an integer in 1..${MAX_LIST_CAPACITY}, got ${maxPerTile}.`);
    const threshold = options.scatterThreshold ?? 1024;
    if (!Number.isInteger(threshold) || threshold < 0) throw new GpuCullingError(`scatterThreshold must be a non-negative integer, got ${threshold}.`);
    this.#method = requireMethod(options.method ?? 'auto');
    this.#depthMask = options.depthMask ?? true;
    this.technique = technique;
    this.tileSize = tileSize;
    this.maxEntities = maxEntities;
    this.bucketsPerTile = bucketsPerTile;
    this.maxPerTile = maxPerTile;
    this.maskWords = maskWords(bucketsPerTile);
    this.wordsPerTile = technique === 'flat-bits' ? FLAT_HEADER_WORDS + this.maskWords + bucketsPerTile : maxPerTile + 1;
    this.tileLists = (options.tileLists ?? true) && technique === 'flat-bits';
    const subgroups = (options.subgroups ?? true) && device.features.has('subgroups');
    this.subgroups = subgroups && technique === 'compaction';
    this.depthSubgroups = subgroups;
    this.cullThreads = cullThreads;
    this.scatterThreshold = threshold;
    this.#device = device;

    const plan: ShaderPlan = { tileSize, technique, bucketsPerTile, listCapacity: maxPerTile, tileLists: this.tileLists, cullThreads, subgroups: this.subgroups, depthSubgroups: this.depthSubgroups };
    const pipeline = (label: string, code: string, entryPoint: string): GPUComputePipeline =>
      device.createComputePipeline({ label: `cuttle.culling.${label}`, layout: 'auto', compute: { module: device.createShaderModule({ label: `cuttle.culling.${label}`, code }), entryPoint } });
    const cull = cullSource(plan);
    const coarse = coarseSource(plan);
    this.#pipelines = {
      prepare: pipeline('prepare', prepareSource(plan), 'prepare'),
      depth: pipeline('depth', depthSource(plan), 'depth_tiles'),
      coarseBounds: pipeline('coarse-bounds', coarse, 'coarse_bounds'),
      scatter: pipeline('scatter', coarse, 'scatter'),
      gather: pipeline('cull-gather', cull, 'cull_gather'),
      fromCoarse: pipeline('cull-coarse', cull, 'cull_coarse'),
    };
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.#frame = device.createBuffer({ label: 'cuttle.culling.frame', size: FRAME_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#view = device.createBuffer({ label: 'cuttle.culling.view', size: VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#entities = device.createBuffer({ label: 'cuttle.culling.entities', size: maxEntities * ENTITY_BYTES, usage: storage });
    this.#rects = device.createBuffer({ label: 'cuttle.culling.rects', size: maxEntities * 8, usage: storage });
    this.#spheres = device.createBuffer({ label: 'cuttle.culling.spheres', size: maxEntities * 16, usage: storage });
    this.#shapes = device.createBuffer({ label: 'cuttle.culling.shapes', size: maxEntities * 96, usage: storage });
  }

  /** 'gather', 'scatter' or 'auto'. */
  get method(): CullMethod {
    return this.#method;
  }

  set method(method: CullMethod) {
    this.#method = requireMethod(method);
  }

  /** The method the next `cull` runs with the entities set now. */
  get resolvedMethod(): 'gather' | 'scatter' {
    if (this.#method !== 'auto') return this.#method;
    return this.entityCount > this.scatterThreshold ? 'scatter' : 'gather';
  }

  /** Whether the 2.5D depth mask test runs; settable between culls. */
  get depthMask(): boolean {
    return this.#depthMask;
  }

  set depthMask(on: boolean) {
    this.#depthMask = on;
  }

  /** Entity counts of the last uploaded entity array (a copy). */
  get entityCounts(): EntityCounts {
    return { ...this.#counts };
  }

  /** Entities in the last uploaded entity array. */
  get entityCount(): number {
    return this.#counts.decals + this.#counts.probes + this.#counts.lights;
  }

  /** The tile grid of the last `cull` (undefined before the first). */
  get grid(): TileGrid | undefined {
    return this.#grid;
  }

  /** The camera of the last `setCamera`, as culling sees it. */
  get camera(): CullCamera | undefined {
    return this.#camera;
  }

  /** The entities as uploaded (64 bytes each): bind it for shading. */
  get entityBuffer(): GPUBuffer {
    return this.#entities;
  }

  /** Flat bits or compaction lists, `wordsPerTile` u32 per tile (created by the first `cull`). */
  get tileBuffer(): GPUBuffer {
    return this.#requireSized().tileOut;
  }

  /** Statistics: dropped entities, overflowed tiles, 2 spare words, then the entity count of every tile (created by the first `cull`). */
  get countBuffer(): GPUBuffer {
    return this.#requireSized().stats;
  }

  /** The uniform block of the shading module (camera, tile grid, counts). */
  get viewBuffer(): GPUBuffer {
    return this.#view;
  }

  /**
   * The WGSL that walks this culler's tiles in your shader (see cullingShaderModule). The
   * default walk, `'auto'`, chooses by this culler's maxEntities.
   */
  shaderModule(options: Omit<CullingModuleOptions, 'technique' | 'maxEntities'> = {}): string {
    if (options.scalarize && !this.#device.features.has('subgroups')) throw new GpuCullingError('scalarize needs a device created with the subgroups feature.');
    return cullingShaderModule({ ...options, technique: this.technique, maxEntities: this.maxEntities });
  }

  /** The flat-bit walk `shaderModule({ walk })` gives this culler (`'auto'` resolved); compaction has one walk. */
  resolvedWalk(walk: CullWalk = 'auto'): 'sparse' | 'dense' {
    return resolveWalk(walk, this.maxEntities);
  }

  /** Layout entries of the module's three bindings, from `binding` on, for your bind group layout. */
  bindGroupLayoutEntries(binding = 0, visibility: GPUShaderStageFlags = GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE): GPUBindGroupLayoutEntry[] {
    return [
      { binding, visibility, buffer: { type: 'uniform' } },
      { binding: binding + 1, visibility, buffer: { type: 'read-only-storage' } },
      { binding: binding + 2, visibility, buffer: { type: 'read-only-storage' } },
    ];
  }

  /** Bind group entries of the module's three bindings (after the first `cull`: the tile buffer follows the resolution). */
  bindGroupEntries(binding = 0): GPUBindGroupEntry[] {
    return [
      { binding, resource: { buffer: this.#view } },
      { binding: binding + 1, resource: { buffer: this.#entities } },
      { binding: binding + 2, resource: { buffer: this.tileBuffer } },
    ];
  }

  /** Sets the camera the next `cull` uses; checked before anything changes. */
  setCamera(camera: CameraInput): void {
    this.#requireAlive();
    const resolved = resolveCamera(camera);
    for (let i = 0; i < 16; i++) {
      if (this.#projection[i] !== camera.projection[i]) {
        this.#gridDirty = true;
        this.#projection[i] = camera.projection[i]!;
      }
    }
    this.#camera = resolved;
  }

  /**
   * Uploads the entities (an EntityList, or its packed words and counts). Checks the count
   * against maxEntities and every number for NaN first; on error nothing changes.
   */
  setEntities(entities: EntityList | { words: Uint32Array; counts: EntityCounts }): void {
    this.#requireAlive();
    const counts = entities.counts;
    const total = counts.decals + counts.probes + counts.lights;
    for (const [name, value] of Object.entries(counts)) {
      if (!Number.isInteger(value) || value < 0) throw new GpuCullingError(`counts.${name} must be a non-negative integer, got ${String(value)}.`);
    }
    if (total > this.maxEntities) {
      throw new GpuCullingError(`${total} entities are more than maxEntities (${this.maxEntities}); create the culler with a larger maxEntities or cull entities outside the view first.`);
    }
    const words = 'words' in entities ? entities.words : entities.pack();
    if (words.length < total * ENTITY_WORDS) throw new GpuCullingError(`words holds ${Math.floor(words.length / ENTITY_WORDS)} entities, counts say ${total}.`);
    checkEntities(words, counts);
    if (total > 0) this.#device.queue.writeBuffer(this.#entities, 0, words.buffer, words.byteOffset, total * ENTITY_BYTES);
    this.#counts = { ...counts };
  }

  /**
   * Records the culling passes into `encoder` against `depth` (a depth texture you rendered,
   * with TEXTURE_BINDING usage, single-sampled). The tile grid follows the texture's size.
   */
  cull(encoder: GPUCommandEncoder, depth: GPUTexture, timestamps?: CullTimestamps): void {
    this.#prepareFrame(depth);
    const stages = this.#stages();
    if (this.resolvedMethod === 'scatter') encoder.clearBuffer(this.#sized!.coarseBits);
    encoder.clearBuffer(this.#sized!.stats, 0, STATS_HEADER * WORD);
    const pass = encoder.beginComputePass({ label: 'cuttle.culling', ...passTimestampWrites(timestamps, true, true) });
    for (const stage of stages) this.#dispatch(pass, stage);
    pass.end();
  }

  /**
   * Runs the culling `iterations` times with each stage in its own timed pass and resolves to
   * the mean milliseconds per stage (`prepare`, `depth`, and `coarseBounds` + `scatter` or
   * `gather`, or `fromCoarse`). Needs the `timestamp-query` feature.
   */
  async profile(depth: GPUTexture, iterations = 1): Promise<Partial<Record<Stage, number>>> {
    if (!this.#device.features.has('timestamp-query')) throw new GpuCullingError('profile needs a device created with the timestamp-query feature.');
    this.#prepareFrame(depth);
    const stages = this.#stages();
    const device = this.#device;
    const querySet = device.createQuerySet({ type: 'timestamp', count: stages.length * 2 });
    const resolve = device.createBuffer({ size: stages.length * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: stages.length * 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const totals = new Float64Array(stages.length);
    try {
      for (let i = 0; i < iterations; i++) {
        const encoder = device.createCommandEncoder();
        if (this.resolvedMethod === 'scatter') encoder.clearBuffer(this.#sized!.coarseBits);
        encoder.clearBuffer(this.#sized!.stats, 0, STATS_HEADER * WORD);
        stages.forEach((stage, s) => {
          const pass = encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: s * 2, endOfPassWriteIndex: s * 2 + 1 } });
          this.#dispatch(pass, stage);
          pass.end();
        });
        encoder.resolveQuerySet(querySet, 0, stages.length * 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, readback, 0, stages.length * 16);
        device.queue.submit([encoder.finish()]);
        await readback.mapAsync(GPUMapMode.READ);
        const stamps = new BigUint64Array(readback.getMappedRange());
        stages.forEach((_, s) => { totals[s]! += Number(stamps[s * 2 + 1]! - stamps[s * 2]!) / 1e6; });
        readback.unmap();
      }
    } finally {
      querySet.destroy();
      resolve.destroy();
      readback.destroy();
    }
    return Object.fromEntries(stages.map((stage, s) => [stage, totals[s]! / iterations]));
  }

  /** Reads the last culling result back (tests and tools, not every frame). */
  async read(): Promise<CullReadback> {
    const sized = this.#requireSized();
    // The last cull's grid, not the buffers' capacity: after a larger resolution the tail of
    // each buffer still holds that resolution's tiles.
    const tiles = this.#grid!.tilesX * this.#grid!.tilesY;
    const [info, out, stats] = await Promise.all([
      this.#readBuffer(sized.tileInfo, tiles * TILE_INFO_WORDS * WORD),
      this.#readBuffer(sized.tileOut, tiles * this.wordsPerTile * WORD),
      this.#readBuffer(sized.stats, (STATS_HEADER + tiles) * WORD),
    ]);
    const statWords = new Uint32Array(stats);
    return {
      tileInfo: new Float32Array(info),
      tileInfoWords: new Uint32Array(info),
      tiles: new Uint32Array(out),
      entitiesPerTile: statWords.slice(STATS_HEADER),
      droppedEntities: statWords[0]!,
      overflowedTiles: statWords[1]!,
    };
  }

  /** Frees the culler's GPU buffers; later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const buffer of [this.#frame, this.#view, this.#entities, this.#rects, this.#spheres, this.#shapes]) buffer.destroy();
    this.#destroySized();
  }

  #stages(): Stage[] {
    return this.resolvedMethod === 'scatter' ? ['prepare', 'depth', 'coarseBounds', 'scatter', 'fromCoarse'] : ['prepare', 'depth', 'gather'];
  }

  #dispatch(pass: GPUComputePassEncoder, stage: Stage): void {
    const grid = this.#grid!;
    const groups: Record<Stage, [number, number]> = {
      prepare: [Math.ceil(this.entityCount / STAGE_GROUP), 1],
      depth: [grid.tilesX, grid.tilesY],
      coarseBounds: [grid.coarseX, grid.coarseY],
      scatter: [Math.ceil(this.entityCount / STAGE_GROUP), 1],
      gather: [grid.tilesX, grid.tilesY],
      fromCoarse: [grid.tilesX, grid.tilesY],
    };
    const [x, y] = groups[stage];
    if (x === 0 || y === 0) return;
    pass.setPipeline(this.#pipelines[stage]);
    pass.setBindGroup(0, this.#group(stage));
    pass.dispatchWorkgroups(x, y);
  }

  #prepareFrame(depth: GPUTexture): void {
    this.#requireAlive();
    if (!this.#camera) throw new GpuCullingError('call setCamera before cull.');
    checkDepthTexture(depth);
    const camera = this.#camera;
    if (!this.#grid || this.#gridDirty || this.#grid.width !== depth.width || this.#grid.height !== depth.height) {
      this.#grid = buildTileGrid(depth.width, depth.height, this.tileSize, camera);
      this.#gridDirty = false;
      this.#allocate(this.#grid);
      this.#device.queue.writeBuffer(this.#sized!.planes, 0, this.#grid.planes);
      this.#device.queue.writeBuffer(this.#sized!.corners, 0, this.#grid.corners);
    }
    if (this.#depthTexture !== depth) {
      this.#depthTexture = depth;
      delete this.#groups.depth;
    }
    this.#writeUniforms(camera, this.#grid);
  }

  #writeUniforms(camera: CullCamera, grid: TileGrid): void {
    const f = this.#frameData;
    const u = this.#frameWords;
    f.set(camera.cullFromWorld, 0);
    f.set(camera.worldFromCull, 16);
    f.set(camera.clipFromCull, 32);
    f.set(camera.depthCoefficients, 48);
    f[52] = grid.width;
    f[53] = grid.height;
    f[54] = camera.farDepth;
    u[55] = this.#depthMask ? 1 : 0;
    u.set([grid.tilesX, grid.tilesY, grid.coarseX, grid.coarseY, this.#counts.decals, this.#counts.probes, this.#counts.lights, this.entityCount], 56);
    this.#device.queue.writeBuffer(this.#frame, 0, f);
    const v = this.#viewData;
    const w = this.#viewWords;
    v.set(camera.worldFromClip, 0);
    v.set(camera.position, 16);
    w[19] = this.tileSize;
    v[20] = grid.width;
    v[21] = grid.height;
    w.set([grid.tilesX, this.wordsPerTile, this.#counts.decals, this.#counts.probes, this.#counts.lights, this.technique === 'flat-bits' ? 0 : 1, this.maskWords], 22);
    this.#device.queue.writeBuffer(this.#view, 0, v);
  }

  #allocate(grid: TileGrid): void {
    const tiles = grid.tilesX * grid.tilesY;
    const coarseTiles = grid.coarseX * grid.coarseY;
    const limits = this.#device.limits;
    if (grid.tilesX > limits.maxComputeWorkgroupsPerDimension || grid.tilesY > limits.maxComputeWorkgroupsPerDimension) {
      throw new GpuCullingError(`${grid.width}x${grid.height} needs ${grid.tilesX}x${grid.tilesY} tiles, above maxComputeWorkgroupsPerDimension (${limits.maxComputeWorkgroupsPerDimension}); use a larger tileSize.`);
    }
    const outBytes = tiles * this.wordsPerTile * WORD;
    const coarseBytes = coarseTiles * (this.maskWords + this.bucketsPerTile) * WORD;
    const most = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    if (outBytes > most || coarseBytes > most) {
      throw new GpuCullingError(`${grid.width}x${grid.height} with ${tiles} tiles of ${this.wordsPerTile} words needs ${outBytes} bytes, above this device's storage buffer limit (${most}); use a larger tileSize, a smaller maxEntities, or the 'compaction' technique, or request a device with higher maxStorageBufferBindingSize and maxBufferSize.`);
    }
    const corners = (grid.tilesX + 1) * (grid.tilesY + 1);
    // The same tile count in another aspect can need more corners: check all three.
    if (this.#sized && this.#sized.tiles >= tiles && this.#sized.coarseTiles >= coarseTiles && this.#sized.cornerCount >= corners) return;
    this.#destroySized();
    const device = this.#device;
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const make = (label: string, size: number): GPUBuffer => device.createBuffer({ label: `cuttle.culling.${label}`, size: Math.max(16, size), usage: storage });
    this.#sized = {
      tiles,
      coarseTiles,
      planes: make('planes', tiles * PLANE_FLOATS * WORD),
      cornerCount: corners,
      corners: make('corners', corners * CORNER_FLOATS * WORD),
      tileInfo: make('tile-info', tiles * TILE_INFO_WORDS * WORD),
      tileOut: make('tiles', outBytes),
      stats: make('statistics', (STATS_HEADER + tiles) * WORD),
      coarseInfo: make('coarse-info', coarseTiles * TILE_INFO_WORDS * WORD),
      coarseBits: make('coarse-bits', coarseBytes),
    };
    this.#groups = {};
  }

  #group(stage: Stage): GPUBindGroup {
    const cached = this.#groups[stage];
    if (cached) return cached;
    const sized = this.#sized!;
    const buffers: Record<number, GPUBuffer> = {
      [B_FRAME]: this.#frame, [B_ENTITIES]: this.#entities, [B_RECTS]: this.#rects, [B_SPHERES]: this.#spheres, [B_SHAPES]: this.#shapes,
      [B_PLANES]: sized.planes, [B_CORNERS]: sized.corners, [B_TILE_INFO]: sized.tileInfo, [B_TILE_OUT]: sized.tileOut, [B_STATS]: sized.stats,
      [B_COARSE_INFO]: sized.coarseInfo, [B_COARSE_BITS]: sized.coarseBits,
    };
    const bindings: Record<Stage, number[]> = {
      prepare: [B_FRAME, B_ENTITIES, B_RECTS, B_SPHERES, B_SHAPES],
      depth: [B_FRAME, B_CORNERS, B_TILE_INFO],
      coarseBounds: [B_FRAME, B_CORNERS, B_TILE_INFO, B_COARSE_INFO],
      scatter: [B_FRAME, B_RECTS, B_SPHERES, B_COARSE_INFO, B_COARSE_BITS],
      gather: [B_FRAME, B_RECTS, B_SPHERES, B_SHAPES, B_PLANES, B_TILE_INFO, B_TILE_OUT, B_STATS],
      fromCoarse: [B_FRAME, B_RECTS, B_SPHERES, B_SHAPES, B_PLANES, B_TILE_INFO, B_TILE_OUT, B_STATS, B_COARSE_BITS],
    };
    const entries: GPUBindGroupEntry[] = bindings[stage].map((binding) => ({ binding, resource: { buffer: buffers[binding]! } }));
    if (stage === 'depth') {
      const texture = this.#depthTexture!;
      entries.push({ binding: B_DEPTH, resource: texture.createView({ aspect: 'depth-only' }) });
    }
    const group = this.#device.createBindGroup({ label: `cuttle.culling.${stage}`, layout: this.#pipelines[stage].getBindGroupLayout(0), entries });
    this.#groups[stage] = group;
    return group;
  }

  async #readBuffer(source: GPUBuffer, size: number): Promise<ArrayBuffer> {
    const staging = this.#device.createBuffer({ size: Math.max(4, size), usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = this.#device.createCommandEncoder();
      encoder.copyBufferToBuffer(source, 0, staging, 0, size);
      this.#device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      return staging.getMappedRange().slice(0);
    } finally {
      staging.destroy();
    }
  }

  #requireSized(): SizedBuffers {
    if (!this.#sized) throw new GpuCullingError('the tile buffers exist after the first cull: call cull first.');
    return this.#sized;
  }

  #requireAlive(): void {
    if (this.#destroyed) throw new GpuCullingError('this TileCuller was destroyed.');
  }

  #destroySized(): void {
    if (!this.#sized) return;
    for (const buffer of [this.#sized.planes, this.#sized.corners, this.#sized.tileInfo, this.#sized.tileOut, this.#sized.stats, this.#sized.coarseInfo, this.#sized.coarseBits]) buffer.destroy();
    this.#sized = undefined;
  }
}

function requireMethod(method: CullMethod): CullMethod {
  if (!['gather', 'scatter', 'auto'].includes(method)) throw new GpuCullingError(`method must be 'gather', 'scatter' or 'auto', got ${method}.`);
  return method;
}

function checkDepthTexture(depth: GPUTexture): void {
  if (!DEPTH_FORMATS.has(depth.format)) {
    throw new GpuCullingError(`the depth texture's format ${depth.format} is not a depth format; give the depth buffer you rendered (depth16unorm, depth24plus, depth24plus-stencil8, depth32float or depth32float-stencil8).`);
  }
  if ((depth.usage & GPUTextureUsage.TEXTURE_BINDING) === 0) throw new GpuCullingError('the depth texture needs TEXTURE_BINDING usage: add it where you create the texture.');
  if (depth.sampleCount !== 1) throw new GpuCullingError(`the depth texture has ${depth.sampleCount} samples; resolve it to a single-sampled depth texture first.`);
  if (depth.dimension !== '2d' || depth.depthOrArrayLayers !== 1) throw new GpuCullingError('the depth texture must be a single 2D texture.');
  if (depth.width < 1 || depth.height < 1) throw new GpuCullingError(`the depth texture is ${depth.width}x${depth.height}; it needs pixels.`);
}

/** NaN or infinite numbers in the float fields of entities, and kinds out of their ranges, are refused. */
function checkEntities(words: Uint32Array, counts: EntityCounts): void {
  const floats = new Float32Array(words.buffer, words.byteOffset, words.length);
  const total = counts.decals + counts.probes + counts.lights;
  for (let e = 0; e < total; e++) {
    const o = e * ENTITY_WORDS;
    for (let k = 0; k < 12; k++) {
      if (!Number.isFinite(floats[o + k])) throw new GpuCullingError(`entity ${e} has a non-finite number (${floats[o + k]}) at word ${k}; every position, range and matrix must be finite.`);
    }
    const kind = words[o + 12]!;
    const expected = e < counts.decals ? [0] : e < counts.decals + counts.probes ? [1] : [2, 3];
    if (!expected.includes(kind)) throw new GpuCullingError(`entity ${e} has kind ${kind} where the counts put a ${e < counts.decals ? 'decal (0)' : e < counts.decals + counts.probes ? 'probe (1)' : 'light (2 or 3)'}: decals, then probes, then lights.`);
    if (kind >= 2 && !(floats[o + 3]! > 0)) throw new GpuCullingError(`light entity ${e} has range ${floats[o + 3]}; ranges must be positive.`);
  }
}


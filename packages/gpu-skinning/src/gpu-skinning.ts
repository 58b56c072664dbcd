// Compute skinning for many meshes and instances in one dispatch. Meshes go into shared input
// streams, palettes into one bone buffer, instances into a table; each frame `skin` records one
// compute pass whose workgroups each take a chunk of one instance, skin it with the chosen
// kernel (bones from LDS or from global memory) and write the previous positions beside the
// new ones. Everything later in the frame draws the output with a plain vertex shader.
import {
  BONE_BYTES,
  BONE_FLOATS,
  F32_SKINNED_WORDS,
  F32_VERTEX_WORDS,
  MAX_LDS_BONES,
  PACKED_BONES_WORDS,
  PACKED_POSITION_NORMAL_WORDS,
  PREVIOUS_POSITION_FLOATS,
  SKINNING_KERNELS,
  VERTEX_FORMATS,
  type SkinnedOutput,
  type SkinnedVertices,
  type SkinningKernel,
  type VertexFormat,
} from './api.ts';
import { DispatchTable, INSTANCE_WORDS, MAX_INSTANCES, WORK_WORDS, type FrameWork } from './dispatch-table.ts';
import { GpuSkinningError } from './errors.ts';
import { skinningKernelSource, STORAGE_BUFFERS } from './kernel-source.ts';
import { passTimestampWrites, type PassTimestamps } from './timestamps.ts';

/** Threads per workgroup and vertices each thread skins; a workgroup takes their product. */
export interface KernelTuning {
  /** Threads per workgroup. */
  workgroupSize: number;
  /** Vertices each thread skins. */
  verticesPerThread: number;
}

/** Defaults: the post's 64 threads for global bones; for LDS, 256 threads (the post's 256-bone, 256-thread case), one vertex each. */
export const DEFAULT_TUNING: Readonly<Record<SkinningKernel, KernelTuning>> = {
  lds: { workgroupSize: 256, verticesPerThread: 1 },
  global: { workgroupSize: 64, verticesPerThread: 1 },
};

/** Options of {@link GpuSkinning}'s constructor; every one has a default. */
export interface GpuSkinningOptions {
  /** Vertex format of every mesh and of the output (default 'packed'). */
  format?: VertexFormat;
  /** Initial kernel (default 'lds'); switchable between frames through `kernel`. */
  kernel?: SkinningKernel;
  /** Room for input vertices, all meshes together. */
  maxVertices: number;
  /** Room for skinned vertices, all instances together. */
  maxOutputVertices: number;
  /** Room for bones, all palettes together. */
  maxBones: number;
  /** Room for instances (default 1024). */
  maxInstances?: number;
  /** Far instances are skinned every this many frames (default 4; 1 skins them every frame). */
  lodInterval?: number;
  /** Per kernel, threads per workgroup and vertices per thread over the defaults (for benchmarks). */
  tuning?: Partial<Record<SkinningKernel, Partial<KernelTuning>>>;
  /** Called once if the device is lost while the skinning is alive. */
  onDeviceLost?: (info: GPUDeviceLostInfo) => void;
}

/** A mesh in the shared input streams. */
export interface SkinnedMesh {
  /** Index of the mesh, in the order added. */
  readonly index: number;
  /** First vertex of the mesh in the shared input streams. */
  readonly firstVertex: number;
  /** Vertices of the mesh. */
  readonly vertexCount: number;
  /** Highest bone index the mesh uses, plus one: the smallest palette that skins it. */
  readonly bonesUsed: number;
}

/** A range of the bone buffer; one or more instances (one skeleton, several meshes) skin with it. */
export interface SkinPalette {
  /** Index of the palette, in the order added. */
  readonly index: number;
  /** First bone in the bone buffer. */
  readonly offset: number;
  /** Bones in the palette. */
  readonly boneCount: number;
}

/** One skinned copy of a mesh: its output vertices are `outputVertex .. outputVertex + vertexCount`. */
export interface SkinnedInstance {
  /** Index of the instance, in the order added. */
  readonly index: number;
  /** The mesh skinned. */
  readonly mesh: SkinnedMesh;
  /** The palette it is skinned with. */
  readonly palette: SkinPalette;
  /** First vertex of its output in the output buffers. */
  readonly outputVertex: number;
  /** Vertices of its output (the mesh's). */
  readonly vertexCount: number;
}

function positiveInteger(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new GpuSkinningError(`${name} must be an integer from 1 to ${max}, got ${value}.`);
  return value;
}

/** Compute-shader skinning of many meshes and instances in one dispatch: add meshes (input vertices), palettes (bones) and instances (a mesh skinned by a palette), write bones each frame, and `skin(encoder)` records the work into your encoder; draw from `vertexBuffers`. You own the device. */
export class GpuSkinning {
  /** The device everything lives on. */
  readonly device: GPUDevice;
  /** The vertex format of every mesh and of the output. */
  readonly format: VertexFormat;
  /** Room for input vertices over all meshes. */
  readonly maxVertices: number;
  /** Room for output vertices over all instances. */
  readonly maxOutputVertices: number;
  /** Room for bones over all palettes. */
  readonly maxBones: number;
  /** Room for instances. */
  readonly maxInstances: number;
  /** Resolves when the device is lost. */
  readonly lost: Promise<GPUDeviceLostInfo>;
  /** Per kernel: threads per workgroup and vertices per thread. */
  readonly tuning: Readonly<Record<SkinningKernel, KernelTuning>>;

  /** Packed: [position + normal, tangent, previous]; f32: [vertices, previous]. Order of skinnedVertexLayouts. */
  readonly vertexBuffers: readonly GPUBuffer[];
  /** Previous positions, f32x3 per output vertex. */
  readonly previousBuffer: GPUBuffer;
  /** The bones of every palette, {@link BONE_FLOATS} floats (a 3x4 matrix) per bone. */
  readonly paletteBuffer: GPUBuffer;

  #kernel: SkinningKernel;
  #lodInterval: number;
  #frame = 0;
  #deviceLost = false;
  #destroyed = false;
  readonly #inputBuffers: GPUBuffer[];
  readonly #paramsBuffer: GPUBuffer;
  readonly #tableBuffer: GPUBuffer;
  readonly #globalPipeline: GPUComputePipeline;
  /** LDS pipelines by workgroup-memory capacity in bones (32, 64, 128, 256), made when first needed. */
  readonly #ldsPipelines = new Map<number, GPUComputePipeline>();
  readonly #pipelineLayout: GPUPipelineLayout;
  readonly #bindGroup: GPUBindGroup;
  #largestPalette = 0;
  readonly #table: DispatchTable;
  readonly #workWordsOffset: number;
  readonly #maxWorkItems: number;
  readonly #work: Uint32Array<ArrayBuffer>;
  readonly #uploadedWork: Uint32Array;
  #uploadedWorkItems = -1;
  #recordsDirtyFrom = Number.POSITIVE_INFINITY;
  #recordsDirtyTo = 0;
  readonly #paletteStaging: Float32Array<ArrayBuffer>;
  #paletteDirtyFrom = Number.POSITIVE_INFINITY;
  #paletteDirtyTo = 0;
  readonly #params = new Uint32Array(4);
  readonly #meshes: SkinnedMesh[] = [];
  readonly #palettes: SkinPalette[] = [];
  readonly #instances: SkinnedInstance[] = [];
  #vertexCount = 0;
  #boneCount = 0;
  #outputCount = 0;
  #lastEncoder: GPUCommandEncoder | undefined;
  #lastFrame: FrameWork = { workItems: 0, skinned: 0, held: 0, skipped: 0, vertices: 0 };

  constructor(device: GPUDevice, options: GpuSkinningOptions) {
    const format = options.format ?? 'packed';
    const kernel = options.kernel ?? 'lds';
    if (!VERTEX_FORMATS.includes(format)) throw new GpuSkinningError(`format must be 'packed' or 'f32', got ${format as string}.`);
    if (!SKINNING_KERNELS.includes(kernel)) throw new GpuSkinningError(`kernel must be 'lds' or 'global', got ${kernel as string}.`);
    this.device = device;
    this.format = format;
    this.maxVertices = positiveInteger('maxVertices', options.maxVertices);
    this.maxOutputVertices = positiveInteger('maxOutputVertices', options.maxOutputVertices);
    this.maxBones = positiveInteger('maxBones', options.maxBones);
    this.maxInstances = positiveInteger('maxInstances', options.maxInstances ?? 1024, MAX_INSTANCES);
    this.#lodInterval = positiveInteger('lodInterval', options.lodInterval ?? 4);
    const limits = device.limits;
    const tuning = {} as Record<SkinningKernel, KernelTuning>;
    for (const k of SKINNING_KERNELS) {
      const t = { ...DEFAULT_TUNING[k], ...options.tuning?.[k] };
      positiveInteger(`tuning.${k}.workgroupSize`, t.workgroupSize, Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX));
      positiveInteger(`tuning.${k}.verticesPerThread`, t.verticesPerThread, 64);
      tuning[k] = t;
    }
    this.tuning = tuning;
    if (limits.maxStorageBuffersPerShaderStage < STORAGE_BUFFERS[format]) {
      throw new GpuSkinningError(`the ${format} kernels bind ${STORAGE_BUFFERS[format]} storage buffers; this device allows ${limits.maxStorageBuffersPerShaderStage} per stage.`);
    }
    if (limits.maxComputeWorkgroupStorageSize < MAX_LDS_BONES * BONE_BYTES) {
      throw new GpuSkinningError(`the LDS kernel needs ${MAX_LDS_BONES * BONE_BYTES} bytes of workgroup memory; this device allows ${limits.maxComputeWorkgroupStorageSize}.`);
    }

    const minChunk = Math.min(...SKINNING_KERNELS.map((k) => tuning[k].workgroupSize * tuning[k].verticesPerThread));
    this.#maxWorkItems = Math.ceil(this.maxOutputVertices / minChunk) + this.maxInstances;
    this.#workWordsOffset = this.maxInstances * INSTANCE_WORDS;
    this.#table = new DispatchTable(this.maxInstances);
    this.#work = new Uint32Array(this.#maxWorkItems * WORK_WORDS);
    this.#uploadedWork = new Uint32Array(this.#maxWorkItems * WORK_WORDS);
    this.#paletteStaging = new Float32Array(this.maxBones * BONE_FLOATS);

    const sizes: [string, number][] =
      format === 'packed'
        ? [
            ['input positions and normals', this.maxVertices * PACKED_POSITION_NORMAL_WORDS * 4],
            ['input tangents', this.maxVertices * 4],
            ['input bones', this.maxVertices * PACKED_BONES_WORDS * 4],
            ['output positions and normals', this.maxOutputVertices * PACKED_POSITION_NORMAL_WORDS * 4],
            ['output tangents', this.maxOutputVertices * 4],
          ]
        : [
            ['input vertices', this.maxVertices * F32_VERTEX_WORDS * 4],
            ['output vertices', this.maxOutputVertices * F32_SKINNED_WORDS * 4],
          ];
    sizes.push(['previous positions', this.maxOutputVertices * PREVIOUS_POSITION_FLOATS * 4]);
    sizes.push(['palette', this.maxBones * BONE_BYTES]);
    sizes.push(['dispatch table', (this.#workWordsOffset + this.#maxWorkItems * WORK_WORDS) * 4]);
    const bindingLimit = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    for (const [name, size] of sizes) {
      if (size > bindingLimit) throw new GpuSkinningError(`the ${name} buffer would be ${size} bytes; this device binds at most ${bindingLimit} (maxStorageBufferBindingSize). Lower the capacities or split the work over several GpuSkinning objects.`);
    }

    // Usage flags are read here, not at import: in Node the GPU globals arrive with Dawn.
    const INPUT_USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const OUTPUT_USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const buffer = (label: string, size: number, usage: number): GPUBuffer => device.createBuffer({ label: `gpu-skinning ${label}`, size: Math.max(16, Math.ceil(size / 16) * 16), usage });
    this.#paramsBuffer = buffer('params', 16, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    this.#tableBuffer = buffer('table', sizes[sizes.length - 1]![1], INPUT_USAGE);
    this.paletteBuffer = buffer('palette', this.maxBones * BONE_BYTES, INPUT_USAGE);
    this.previousBuffer = buffer('previous positions', this.maxOutputVertices * PREVIOUS_POSITION_FLOATS * 4, OUTPUT_USAGE);
    if (format === 'packed') {
      this.#inputBuffers = [
        buffer('input position+normal', sizes[0]![1], INPUT_USAGE),
        buffer('input tangent', sizes[1]![1], INPUT_USAGE),
        buffer('input bones', sizes[2]![1], INPUT_USAGE),
      ];
      this.vertexBuffers = [buffer('output position+normal', sizes[3]![1], OUTPUT_USAGE), buffer('output tangent', sizes[4]![1], OUTPUT_USAGE), this.previousBuffer];
    } else {
      this.#inputBuffers = [buffer('input vertices', sizes[0]![1], INPUT_USAGE)];
      this.vertexBuffers = [buffer('output vertices', sizes[1]![1], OUTPUT_USAGE), this.previousBuffer];
    }

    const bindings = [this.#paramsBuffer, this.#tableBuffer, this.paletteBuffer, ...this.#inputBuffers, ...this.vertexBuffers];
    const layout = device.createBindGroupLayout({
      label: `gpu-skinning ${format}`,
      entries: bindings.map((_, binding) => ({
        binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: binding === 0 ? 'uniform' : binding <= 2 + this.#inputBuffers.length ? 'read-only-storage' : 'storage' },
      })),
    });
    this.#pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
    this.#bindGroup = device.createBindGroup({ layout, entries: bindings.map((resource, binding) => ({ binding, resource: { buffer: resource } })) });
    this.#globalPipeline = this.#createPipeline('global');
    this.#kernel = kernel;

    this.lost = device.lost.then((info) => {
      this.#deviceLost = true;
      options.onDeviceLost?.(info);
      return info;
    });
  }

  #createPipeline(kernel: SkinningKernel, ldsBones = MAX_LDS_BONES): GPUComputePipeline {
    const { workgroupSize, verticesPerThread } = this.tuning[kernel];
    const label = `gpu-skinning ${this.format} ${kernel}${kernel === 'lds' ? ` ${ldsBones} bones` : ''}`;
    return this.device.createComputePipeline({
      label,
      layout: this.#pipelineLayout,
      compute: {
        module: this.device.createShaderModule({ label, code: skinningKernelSource(this.format, kernel) }),
        entryPoint: 'skin',
        constants: { WORKGROUP_SIZE: workgroupSize, VERTICES_PER_THREAD: verticesPerThread, ...(kernel === 'lds' ? { LDS_BONES: ldsBones } : {}) },
      },
    });
  }

  /** The pipeline for the current kernel; the LDS one sized to the largest palette (a power of two from 32). */
  #pipeline(): GPUComputePipeline {
    if (this.#kernel === 'global') return this.#globalPipeline;
    const capacity = this.ldsCapacity;
    let pipeline = this.#ldsPipelines.get(capacity);
    if (!pipeline) {
      pipeline = this.#createPipeline('lds', capacity);
      this.#ldsPipelines.set(capacity, pipeline);
    }
    return pipeline;
  }

  /** Bones the LDS kernel stages per workgroup: the largest palette, rounded up to 32, 64, 128 or 256. */
  get ldsCapacity(): number {
    return Math.min(MAX_LDS_BONES, Math.max(32, 2 ** Math.ceil(Math.log2(Math.max(1, this.#largestPalette)))));
  }

  /** 'lds' or 'global'; takes effect at the next `skin`. Switching to 'lds' checks every palette fits 256 bones. */
  get kernel(): SkinningKernel {
    return this.#kernel;
  }

  set kernel(kernel: SkinningKernel) {
    if (!SKINNING_KERNELS.includes(kernel)) throw new GpuSkinningError(`kernel must be 'lds' or 'global', got ${kernel as string}.`);
    if (kernel === 'lds') {
      const big = this.#palettes.find((palette) => palette.boneCount > MAX_LDS_BONES);
      if (big) throw new GpuSkinningError(`palette ${big.index} has ${big.boneCount} bones; the LDS kernel holds at most ${MAX_LDS_BONES}. Stay on the 'global' kernel or split the skeleton.`);
    }
    this.#kernel = kernel;
  }

  /** Far instances are skinned every this many frames. */
  get lodInterval(): number {
    return this.#lodInterval;
  }

  set lodInterval(frames: number) {
    this.#lodInterval = positiveInteger('lodInterval', frames);
  }

  /** Frames skinned so far (`skin` calls). */
  get frame(): number {
    return this.#frame;
  }

  /** Whether the device has been lost. */
  get deviceLost(): boolean {
    return this.#deviceLost;
  }

  /** What the last `skin` did: work items, instances skinned / held / skipped, vertices skinned. */
  get lastFrame(): Readonly<FrameWork> {
    return this.#lastFrame;
  }

  /** The meshes added, in order. */
  get meshes(): readonly SkinnedMesh[] {
    return this.#meshes;
  }

  /** The palettes added, in order. */
  get palettes(): readonly SkinPalette[] {
    return this.#palettes;
  }

  /** The instances added, in order. */
  get instances(): readonly SkinnedInstance[] {
    return this.#instances;
  }

  /** Skinned vertices in use (the output's used length). */
  get outputVertexCount(): number {
    return this.#outputCount;
  }

  #checkUsable(): void {
    if (this.#destroyed) throw new GpuSkinningError('this GpuSkinning was destroyed; create a new one.');
    if (this.#deviceLost) throw new GpuSkinningError('the GPU device was lost; create a new device and a new GpuSkinning.');
  }

  /** Uploads a mesh built by buildSkinnedVertices into the shared input streams. */
  addMesh(vertices: SkinnedVertices): SkinnedMesh {
    this.#checkUsable();
    if (vertices.format !== this.format) throw new GpuSkinningError(`the mesh is ${vertices.format} but this GpuSkinning was made for ${this.format}; build it with format: '${this.format}'.`);
    if (this.#vertexCount + vertices.vertexCount > this.maxVertices) {
      throw new GpuSkinningError(`the mesh's ${vertices.vertexCount} vertices do not fit: ${this.#vertexCount} of maxVertices ${this.maxVertices} are used.`);
    }
    const first = this.#vertexCount;
    const queue = this.device.queue;
    if (vertices.format === 'packed') {
      queue.writeBuffer(this.#inputBuffers[0]!, first * PACKED_POSITION_NORMAL_WORDS * 4, vertices.positionNormal);
      queue.writeBuffer(this.#inputBuffers[1]!, first * 4, vertices.tangent);
      queue.writeBuffer(this.#inputBuffers[2]!, first * PACKED_BONES_WORDS * 4, vertices.bones);
    } else {
      queue.writeBuffer(this.#inputBuffers[0]!, first * F32_VERTEX_WORDS * 4, vertices.words);
    }
    this.#vertexCount += vertices.vertexCount;
    const mesh: SkinnedMesh = Object.freeze({ index: this.#meshes.length, firstVertex: first, vertexCount: vertices.vertexCount, bonesUsed: vertices.bonesUsed });
    this.#meshes.push(mesh);
    return mesh;
  }

  /** Adds a copy of a mesh already uploaded, copied on the GPU (nothing crosses the bus). */
  addMeshCopy(source: SkinnedMesh): SkinnedMesh {
    this.#checkUsable();
    this.#checkMesh(source);
    if (this.#vertexCount + source.vertexCount > this.maxVertices) throw new GpuSkinningError(`the copy's ${source.vertexCount} vertices do not fit: ${this.#vertexCount} of maxVertices ${this.maxVertices} are used.`);
    const first = this.#vertexCount;
    const encoder = this.device.createCommandEncoder();
    const strides = this.format === 'packed' ? [PACKED_POSITION_NORMAL_WORDS * 4, 4, PACKED_BONES_WORDS * 4] : [F32_VERTEX_WORDS * 4];
    strides.forEach((stride, i) => {
      const target = this.#inputBuffers[i]!;
      encoder.copyBufferToBuffer(target, source.firstVertex * stride, target, first * stride, source.vertexCount * stride);
    });
    this.device.queue.submit([encoder.finish()]);
    this.#vertexCount += source.vertexCount;
    const mesh: SkinnedMesh = Object.freeze({ index: this.#meshes.length, firstVertex: first, vertexCount: source.vertexCount, bonesUsed: source.bonesUsed });
    this.#meshes.push(mesh);
    return mesh;
  }

  /** Reserves `boneCount` bones (identity until written). */
  createPalette(boneCount: number): SkinPalette {
    this.#checkUsable();
    positiveInteger('boneCount', boneCount);
    if (this.#kernel === 'lds' && boneCount > MAX_LDS_BONES) throw new GpuSkinningError(`a palette of ${boneCount} bones does not fit the LDS kernel (at most ${MAX_LDS_BONES}); set kernel = 'global' first.`);
    if (this.#boneCount + boneCount > this.maxBones) throw new GpuSkinningError(`${boneCount} more bones do not fit: ${this.#boneCount} of maxBones ${this.maxBones} are used.`);
    const offset = this.#boneCount;
    this.#boneCount += boneCount;
    this.#largestPalette = Math.max(this.#largestPalette, boneCount);
    for (let b = offset; b < offset + boneCount; b++) {
      this.#paletteStaging[b * BONE_FLOATS] = 1;
      this.#paletteStaging[b * BONE_FLOATS + 5] = 1;
      this.#paletteStaging[b * BONE_FLOATS + 10] = 1;
    }
    this.#markPalette(offset, offset + boneCount);
    const palette: SkinPalette = Object.freeze({ index: this.#palettes.length, offset, boneCount });
    this.#palettes.push(palette);
    return palette;
  }

  /** Copies `bones` (12 floats per bone, as computePalette writes them) into the palette; uploaded at the next `skin`. */
  writePalette(palette: SkinPalette, bones: ArrayLike<number>): void {
    this.#checkUsable();
    if (this.#palettes[palette.index] !== palette) throw new GpuSkinningError('that palette belongs to another GpuSkinning.');
    if (bones.length !== palette.boneCount * BONE_FLOATS) throw new GpuSkinningError(`the palette holds ${palette.boneCount} bones (${palette.boneCount * BONE_FLOATS} floats); got ${bones.length} floats.`);
    this.#paletteStaging.set(bones, palette.offset * BONE_FLOATS);
    this.#markPalette(palette.offset, palette.offset + palette.boneCount);
  }

  /**
   * Copies `bones` into `count` palettes from `first` on, in one copy: what `writePalette` on
   * each would do, for a crowd whose palettes are computed into one array. Palettes lie in the
   * bone buffer in the order they were created, so `bones` holds them in that order, 12 floats
   * per bone (for equal palettes: `count * boneCount * 12` floats).
   */
  writePalettes(first: SkinPalette, count: number, bones: ArrayLike<number>): void {
    this.#checkUsable();
    if (this.#palettes[first.index] !== first) throw new GpuSkinningError('that palette belongs to another GpuSkinning.');
    positiveInteger('count', count);
    const last = this.#palettes[first.index + count - 1];
    if (!last) throw new GpuSkinningError(`${count} palettes from palette ${first.index} on: only ${this.#palettes.length - first.index} were created from it.`);
    const end = last.offset + last.boneCount;
    if (bones.length !== (end - first.offset) * BONE_FLOATS) throw new GpuSkinningError(`those ${count} palettes hold ${end - first.offset} bones (${(end - first.offset) * BONE_FLOATS} floats); got ${bones.length} floats.`);
    this.#paletteStaging.set(bones, first.offset * BONE_FLOATS);
    this.#markPalette(first.offset, end);
  }

  #markPalette(from: number, to: number): void {
    this.#paletteDirtyFrom = Math.min(this.#paletteDirtyFrom, from);
    this.#paletteDirtyTo = Math.max(this.#paletteDirtyTo, to);
  }

  #checkMesh(mesh: SkinnedMesh): void {
    if (this.#meshes[mesh.index] !== mesh) throw new GpuSkinningError('that mesh belongs to another GpuSkinning.');
  }

  /**
   * Adds an instance of `mesh` skinned with `palette`, with its own output range. Its first
   * skin sets previous = current. `far` instances follow the skinning LOD.
   */
  addInstance(options: { mesh: SkinnedMesh; palette: SkinPalette; far?: boolean }): SkinnedInstance {
    this.#checkUsable();
    const { mesh, palette } = options;
    this.#checkMesh(mesh);
    if (this.#palettes[palette.index] !== palette) throw new GpuSkinningError('that palette belongs to another GpuSkinning.');
    if (mesh.bonesUsed > palette.boneCount) throw new GpuSkinningError(`the mesh uses bones up to ${mesh.bonesUsed - 1} but the palette has ${palette.boneCount}.`);
    if (this.#instances.length >= this.maxInstances) throw new GpuSkinningError(`maxInstances (${this.maxInstances}) reached.`);
    if (this.#outputCount + mesh.vertexCount > this.maxOutputVertices) {
      throw new GpuSkinningError(`the instance's ${mesh.vertexCount} output vertices do not fit: ${this.#outputCount} of maxOutputVertices ${this.maxOutputVertices} are used.`);
    }
    const outputVertex = this.#outputCount;
    const index = this.#table.add(mesh.firstVertex, mesh.vertexCount, palette.offset, palette.boneCount, outputVertex, options.far ?? false);
    this.#outputCount += mesh.vertexCount;
    this.#recordsDirtyFrom = Math.min(this.#recordsDirtyFrom, index);
    this.#recordsDirtyTo = Math.max(this.#recordsDirtyTo, index + 1);
    const instance: SkinnedInstance = Object.freeze({ index, mesh, palette, outputVertex, vertexCount: mesh.vertexCount });
    this.#instances.push(instance);
    return instance;
  }

  #checkInstance(instance: SkinnedInstance): void {
    if (this.#instances[instance.index] !== instance) throw new GpuSkinningError('that instance belongs to another GpuSkinning.');
  }

  /** Marks an instance far (skinned every lodInterval frames) or near (every frame). */
  setFar(instance: SkinnedInstance, far: boolean): void {
    this.#checkInstance(instance);
    this.#table.setFar(instance.index, far);
  }

  /** Whether `instance` is far (skinned every LOD interval rather than every frame). */
  isFar(instance: SkinnedInstance): boolean {
    this.#checkInstance(instance);
    return this.#table.isFar(instance.index);
  }

  /** After a teleport: the next `skin` skins this instance (whatever its LOD) with previous = current. */
  reset(instance: SkinnedInstance): void {
    this.#checkInstance(instance);
    this.#table.requestReset(instance.index);
  }

  /**
   * Records this frame's skinning pass into `encoder`: uploads what changed (instance records,
   * palettes, the work list), then one dispatch for every instance due. Uploads go through the
   * queue, so they land before the whole submit: two `skin` calls in one encoder must do the
   * same work with the same palettes (a benchmark's repeats), or the second throws.
   */
  skin(encoder: GPUCommandEncoder, timestamps?: PassTimestamps): Readonly<FrameWork> {
    this.#checkUsable();
    const { workgroupSize, verticesPerThread } = this.tuning[this.#kernel];
    const chunk = workgroupSize * verticesPerThread;
    const sameEncoder = encoder === this.#lastEncoder;
    const before = sameEncoder ? this.#table.saveState() : undefined;
    const work = this.#table.buildFrame(this.#frame, this.#lodInterval, chunk, this.#work);
    const words = work.workItems * WORK_WORDS;
    let workChanged = work.workItems !== this.#uploadedWorkItems;
    for (let i = 0; !workChanged && i < words; i++) workChanged = this.#work[i] !== this.#uploadedWork[i];
    if (sameEncoder && (workChanged || this.#paletteDirtyTo > 0 || this.#recordsDirtyTo > 0)) {
      this.#table.restoreState(before!);
      throw new GpuSkinningError('this frame changes the work or the palettes of a skin already recorded in the same encoder; submit that encoder first (uploads land before the whole submit).');
    }
    const queue = this.device.queue;
    if (this.#recordsDirtyTo > 0) {
      const from = this.#recordsDirtyFrom * INSTANCE_WORDS;
      const to = this.#recordsDirtyTo * INSTANCE_WORDS;
      queue.writeBuffer(this.#tableBuffer, from * 4, this.#table.records, from, to - from);
      this.#recordsDirtyFrom = Number.POSITIVE_INFINITY;
      this.#recordsDirtyTo = 0;
    }
    if (this.#paletteDirtyTo > 0) {
      const from = this.#paletteDirtyFrom * BONE_FLOATS;
      const to = this.#paletteDirtyTo * BONE_FLOATS;
      queue.writeBuffer(this.paletteBuffer, from * 4, this.#paletteStaging, from, to - from);
      this.#paletteDirtyFrom = Number.POSITIVE_INFINITY;
      this.#paletteDirtyTo = 0;
    }
    const groupsX = Math.min(work.workItems, this.device.limits.maxComputeWorkgroupsPerDimension);
    const groupsY = groupsX === 0 ? 0 : Math.ceil(work.workItems / groupsX);
    if (workChanged) {
      if (words > 0) queue.writeBuffer(this.#tableBuffer, this.#workWordsOffset * 4, this.#work, 0, words);
      this.#uploadedWork.set(this.#work.subarray(0, words));
      this.#uploadedWorkItems = work.workItems;
      this.#params.set([this.#workWordsOffset, work.workItems, Math.max(groupsX, 1), 0]);
      queue.writeBuffer(this.#paramsBuffer, 0, this.#params);
    }
    if (work.workItems > 0 || timestamps) {
      const pass = encoder.beginComputePass({ label: `gpu-skinning ${this.#kernel}`, ...passTimestampWrites(timestamps) });
      if (work.workItems > 0) {
        pass.setPipeline(this.#pipeline());
        pass.setBindGroup(0, this.#bindGroup);
        pass.dispatchWorkgroups(groupsX, groupsY);
      }
      pass.end();
    }
    this.#lastEncoder = encoder;
    this.#frame++;
    this.#lastFrame = work;
    return work;
  }

  /**
   * Reads skinned output back (tests and tools, not per frame): the whole used output, or
   * `range.vertexCount` vertices from `range.firstVertex` (an instance's outputVertex, say).
   */
  async read(range?: { firstVertex: number; vertexCount: number }): Promise<SkinnedOutput> {
    this.#checkUsable();
    const first = range?.firstVertex ?? 0;
    const count = range?.vertexCount ?? this.#outputCount - first;
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > this.#outputCount) {
      throw new GpuSkinningError(`read range ${first}..${first + count} is outside the ${this.#outputCount} output vertices in use.`);
    }
    const streams: [GPUBuffer, number][] =
      this.format === 'packed'
        ? [[this.vertexBuffers[0]!, PACKED_POSITION_NORMAL_WORDS * 4], [this.vertexBuffers[1]!, 4], [this.previousBuffer, PREVIOUS_POSITION_FLOATS * 4]]
        : [[this.vertexBuffers[0]!, F32_SKINNED_WORDS * 4], [this.previousBuffer, PREVIOUS_POSITION_FLOATS * 4]];
    // Copies need 4-byte sizes and offsets: every stride here is a multiple of 4.
    const staging = streams.map(([, stride]) => this.device.createBuffer({ size: Math.max(4, count * stride), usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ }));
    try {
      const encoder = this.device.createCommandEncoder();
      streams.forEach(([source, stride], i) => { if (count > 0) encoder.copyBufferToBuffer(source, first * stride, staging[i]!, 0, count * stride); });
      this.device.queue.submit([encoder.finish()]);
      const data = await Promise.all(
        staging.map(async (buffer, i) => {
          await buffer.mapAsync(GPUMapMode.READ);
          return buffer.getMappedRange(0, count * streams[i]![1]).slice(0);
        }),
      );
      if (this.format === 'packed') return { format: 'packed', positionNormal: new Uint32Array(data[0]!), tangent: new Uint32Array(data[1]!), previous: new Float32Array(data[2]!) };
      return { format: 'f32', vertices: new Float32Array(data[0]!), previous: new Float32Array(data[1]!) };
    } finally {
      for (const buffer of staging) buffer.destroy();
    }
  }

  /** Frees the skinning's GPU buffers; later calls do nothing. The device stays yours. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const buffer of [this.#paramsBuffer, this.#tableBuffer, this.paletteBuffer, ...this.#inputBuffers, ...this.vertexBuffers]) buffer.destroy();
  }
}

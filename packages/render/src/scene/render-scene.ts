// What a frame draws: meshes, materials and textures on the GPU, instances (a mesh, a material
// and a world matrix each, in flat typed arrays), the many culled lights, decals and probes
// (an @cuttle/gpu-culling EntityList), the sun and a few shadow-casting spot lights.
import { EntityList } from '@cuttle/gpu-culling';
import type { FluidSimulation } from '@cuttle/gpu-fluid';
import type { GpuSkinning, SkinnedInstance } from '@cuttle/gpu-skinning';
import type { CompressedTextureInput, DirectionalLightInput, Mat4, MaterialInput, MeshInput, MeshLodInput, QuantizedMeshInput, ShadowSpotInput, TextureInput, TextureOptions } from '../api.ts';
import { RenderError } from '../errors.ts';
import { IDENTITY } from '../ssao/matrix.ts';
import { emits, MaterialStore, occludes, type GpuMaterial } from './materials.ts';
import { checkLods, MeshStore, type GpuMesh, type MeshLod } from './meshes.ts';
import { SceneBuffers, type BufferRange, type RenderSceneOptions } from './scene-buffers.ts';

/** Floats per instance on the GPU: world matrix, previous world matrix, normal matrix (3 x vec4), the mesh's position and uv ranges (2 x vec4). */
export const INSTANCE_FLOATS = 52;

/** Skinned characters: drawn from a GpuSkinning's output buffers in every pass, one draw per instance. */
export interface SkinnedDrawInput {
  /** The GpuSkinning whose output vertex buffer the instances are drawn from. */
  skinning: GpuSkinning;
  /** Instances of one skinned mesh (they share `indices`). */
  instances: readonly SkinnedInstance[];
  /** The mesh's triangle indices (relative to the mesh's first vertex). */
  indices: Uint32Array | Uint16Array;
  /** Material id (from `addMaterial`) of every instance. */
  material: number;
  /**
   * Coarser versions of the mesh over the same vertices, finest first, checked as
   * {@link MeshInput.lods} are (whole triangles, fewer than the level before, indices within the
   * skinned mesh's vertices, errors at least the level before's). Each frame every instance draws,
   * in every pass, the coarsest level whose error covers at most `Renderer.lodErrorPixels` at the
   * nearest point of its bounding sphere (shadow maps draw the level the camera chose). Its
   * vertices are only on the GPU: give each instance's sphere with `bounds` and
   * {@link RenderScene.setSkinnedBounds}; an instance whose sphere was never given draws the full mesh.
   */
  lods?: readonly MeshLodInput[];
  /**
   * Every instance's bounding sphere in world space, 4 floats each (centre xyz, radius; copied),
   * in `instances` order; move them each frame with {@link RenderScene.setSkinnedBounds}.
   */
  bounds?: Float32Array;
  /**
   * Radius of the mesh's bounding sphere in its own units (those of the levels' errors): an
   * instance's bounds radius over it scales the errors into world units, as an instance's matrix
   * scales a static mesh's. Default: the skinned output is at the mesh's scale.
   */
  meshRadius?: number;
}

/** Floats per instance in a skinned draw's bounds: centre xyz, radius. */
export const SKINNED_BOUNDS_FLOATS = 4;
/** Words per instance in a skinned draw's `instanceRanges`: first output vertex, first index, triangles, 0. */
export const SKINNED_RANGE_WORDS = 4;

/** A skinned draw as the scene holds it: the input with its indices on the GPU. */
export interface SkinnedDraw {
  /** The GpuSkinning whose output the instances are drawn from. */
  readonly skinning: GpuSkinning;
  /** The instances drawn, one draw each. */
  readonly instances: readonly SkinnedInstance[];
  /** The mesh's triangle indices on the GPU. */
  readonly indices: GPUBuffer;
  /** `'uint16'` or `'uint32'`, as the indices were given. */
  readonly indexFormat: GPUIndexFormat;
  /** Number of indices of the full mesh (three per triangle). */
  readonly indexCount: number;
  /** Its levels of detail in `indices`, the full mesh first (error 0), as a static mesh's `lods`. */
  readonly lods: readonly MeshLod[];
  /**
   * Each instance's bounding sphere, SKINNED_BOUNDS_FLOATS apart (centre xyz, radius; a radius
   * below 0: not given, the full mesh is drawn). Written by `setSkinnedBounds`.
   */
  readonly bounds: Float32Array;
  /** The mesh's bounding-sphere radius in its own units (0: the output is at the mesh's scale). */
  readonly meshRadius: number;
  /** The level each instance drew in the last frame (written by the renderer). */
  readonly levels: Uint8Array;
  /**
   * Per instance, for shaders that read the skinned output themselves (u32 storage,
   * SKINNED_RANGE_WORDS each): its first output vertex, then the first index and the triangles
   * of the level it draws this frame (the renderer rewrites it when a level changes).
   */
  readonly instanceRanges: GPUBuffer;
  /** What `instanceRanges` holds. */
  readonly instanceWords: Uint32Array<ArrayBuffer>;
  /** Material id of every instance. */
  readonly material: number;
}

/** Fluid particles drawn as lit spheres. */
export interface FluidDrawInput {
  /** The simulation whose particles are drawn (`@cuttle/gpu-fluid`); at most MAX_FLUID_PARTICLES particles. */
  fluid: FluidSimulation;
  /** Linear RGB (default a water blue). */
  color?: readonly [number, number, number];
  /** Sphere radius in world units (default half the fluid's smoothing radius h). */
  radius?: number;
  /** Perceptual roughness of the spheres, 0 to 1 (default 0.15). */
  roughness?: number;
}

/** A fluid draw as the scene holds it, defaults filled in. */
export interface FluidDraw {
  /** The simulation whose particles are drawn. */
  readonly fluid: FluidSimulation;
  /** Linear RGB colour of the spheres. */
  readonly color: readonly [number, number, number];
  /** Sphere radius in world units. */
  readonly radius: number;
  /** Perceptual roughness, 0 to 1. */
  readonly roughness: number;
}

/** Most shadow-casting spot lights. */
export const MAX_SHADOW_SPOTS = 4;
/** Fluids per scene and particles per fluid that fit the renderer's fluid ids (fluid.wgsl's PARTICLE_BITS). */
export const MAX_FLUIDS = 64;
export const MAX_FLUID_PARTICLES = (1 << 26) - 1;

function requireMatrix(m: Mat4): void {
  if (m.length < 16) throw new RenderError('a transform must be 16 numbers (a column-major 4x4 matrix).');
  for (let i = 0; i < 16; i++) if (!Number.isFinite(m[i])) throw new RenderError(`a transform holds a non-finite number (${m[i]}) at ${i}.`);
}

/** Bounding spheres (centre xyz, radius per instance, the first being instance `first`): finite, radii at least 0. */
function checkBounds(bounds: ArrayLike<number>, first: number): void {
  for (let i = 0; i < bounds.length; i++) {
    const value = bounds[i]!;
    const radius = i % SKINNED_BOUNDS_FLOATS === 3;
    if (!Number.isFinite(value) || (radius && value < 0)) throw new RenderError(`bounds of instance ${first + Math.floor(i / SKINNED_BOUNDS_FLOATS)}: ${radius ? 'the radius must be a finite number of at least 0' : 'the centre must be finite'}, got ${value}.`);
  }
}

function requireVec3(name: string, v: readonly number[]): void {
  if (v.length !== 3 || !v.every(Number.isFinite)) throw new RenderError(`${name} must be three finite numbers.`);
}

/**
 * What a frame draws: meshes, materials and textures on the GPU, instances (a mesh, a material and a world matrix each), the culled lights, decals and probes, the sun and a few shadow-casting spot lights. Bad arguments throw {@link RenderError} and change nothing.
 */
export class RenderScene {
  /** Point and spot lights, decals and probes culled per tile (no shadows). */
  readonly lights = new EntityList();
  /** Bumped whenever instances change in a way that reorders the draw lists. */
  structureVersion = 0;
  readonly #device: GPUDevice;
  readonly #meshes: MeshStore;
  readonly #materials: MaterialStore;
  readonly #buffers: { vertices: SceneBuffers; indices: SceneBuffers; uniforms: SceneBuffers; instances: SceneBuffers };
  /** Where the renderer uploads the instance data, when the scene has an instances allocator. */
  #instanceRange: BufferRange | undefined;
  /** Opaque and masked materials with emissive light. */
  readonly #emissive = new Set<number>();
  /** Opaque and masked materials with an occlusion texture (at a strength above 0). */
  readonly #occluded = new Set<number>();
  #instanceMesh = new Int32Array(64);
  #instanceMaterial = new Int32Array(64);
  #instanceVisible = new Uint8Array(64);
  #instanceData: Float32Array<ArrayBuffer> = new Float32Array(64 * INSTANCE_FLOATS);
  #instanceCount = 0;
  #sun: Required<DirectionalLightInput> | undefined;
  readonly #spots: (Required<ShadowSpotInput>)[] = [];
  readonly #skinned: SkinnedDraw[] = [];
  readonly #fluids: FluidDraw[] = [];
  #shadowBounds: [number, number, number, number] | undefined;

  /**
   * `options.buffers` hands the scene allocators (`@cuttle/allocators`) to sub-allocate its vertex,
   * index, material uniform and instance buffers from; each use left out gets a GPUBuffer per
   * resource, as before. A bad allocator throws a RenderError before anything is created.
   */
  constructor(device: GPUDevice, options: RenderSceneOptions = {}) {
    this.#device = device;
    const given = options.buffers ?? {};
    this.#buffers = {
      vertices: new SceneBuffers(device, 'vertices', given.vertices),
      indices: new SceneBuffers(device, 'indices', given.indices),
      uniforms: new SceneBuffers(device, 'uniforms', given.uniforms),
      instances: new SceneBuffers(device, 'instances', given.instances),
    };
    this.#meshes = new MeshStore(this.#buffers.vertices, this.#buffers.indices);
    this.#materials = new MaterialStore(device, this.#buffers.uniforms);
    if (this.#buffers.instances.pooled) this.#instanceRange = this.#buffers.instances.allocate(this.#instanceMesh.length * INSTANCE_FLOATS * 4, 'instances');
  }

  /**
   * The range the renderer uploads this scene's instance data into (sized for every instance the
   * scene has room for), or undefined without an instances allocator: the renderer's own buffer then.
   */
  get instanceBuffer(): BufferRange | undefined {
    return this.#instanceRange;
  }

  /** The device the scene's buffers and textures are created on. */
  get device(): GPUDevice {
    return this.#device;
  }

  /** Uploads a mesh and returns its id. Throws {@link RenderError} for arrays of the wrong length, NaN or infinite numbers, or indices past the last vertex. */
  addMesh(input: MeshInput): number {
    return this.#meshes.add(input).id;
  }

  /**
   * Adds a mesh quantised offline (positions and uvs unorm16 over their ranges, normals and
   * tangents snorm8, as `quantizePositions`, `quantizeUvs` and `packSnorm8x4` make them) and
   * returns its id; uploaded as it is. Throws {@link RenderError} for arrays of the wrong type or
   * length, ranges that are not finite with positive scales, or indices past the last vertex.
   */
  addQuantizedMesh(input: QuantizedMeshInput): number {
    return this.#meshes.addQuantized(input).id;
  }

  /**
   * Uploads a texture (with a mip chain made on the GPU unless `mipmaps: false`) and returns its id. Throws {@link RenderError} for a size that is not a positive integer or exceeds the device's limit, RGBA8 data of the wrong length, or a normal map asked for as sRGB.
   */
  addTexture(input: TextureInput, options?: TextureOptions): number {
    return this.#materials.addTexture(input, options);
  }

  /**
   * Adds a texture whose mip levels come made, block-compressed or RGBA8 (transcoded from KTX2 /
   * Basis Universal, for example): sampled with its own levels, none made here. Throws a
   * RenderError, having created nothing, for a format the device lacks the feature of, a size
   * not a multiple of the block, or a level whose byte length is not that level's.
   */
  addCompressedTexture(input: CompressedTextureInput): number {
    return this.#materials.addCompressedTexture(input);
  }

  /** Texture `id`'s GPU texture (its mip levels are there to read back). */
  texture(id: number): GPUTexture {
    return this.#materials.texture(id);
  }

  /** Adds a material and returns its id. Throws {@link RenderError} for a factor out of range or a texture id that does not exist. */
  addMaterial(input: MaterialInput): number {
    const material = this.#materials.add(input);
    this.#noteEmissive(material);
    return material.id;
  }

  /** Whether an opaque or masked material glows (the renderer's G-buffer then carries emissive light). */
  get hasEmissive(): boolean {
    return this.#emissive.size > 0;
  }

  /**
   * Whether the deferred G-buffer carries its emissive target: an opaque or masked material
   * glows or has an occlusion texture (the target's alpha carries the material's occlusion).
   */
  get hasGlowTarget(): boolean {
    return this.#emissive.size > 0 || this.#occluded.size > 0;
  }

  /**
   * Gives material `id` new properties in place (a hot-reloaded material): everything drawn
   * with it shows them from the next frame, with no instance touched. An unknown id or a
   * refused input throws a RenderError and changes nothing.
   */
  updateMaterial(id: number, input: MaterialInput): void {
    const before = this.#materials.get(id);
    const after = this.#materials.update(id, input);
    this.#noteEmissive(after);
    // Blending, masking and culling decide which pass and pipeline draw it: the draw lists change.
    if (before.blend !== after.blend || before.mask !== after.mask || before.doubleSided !== after.doubleSided) this.structureVersion++;
  }

  #noteEmissive(material: GpuMaterial): void {
    const glows = !material.blend && emits(material.input);
    if (glows) this.#emissive.add(material.id);
    else this.#emissive.delete(material.id);
    if (!material.blend && occludes(material.input)) this.#occluded.add(material.id);
    else this.#occluded.delete(material.id);
  }

  /** Mesh `id` on the GPU; {@link RenderError} if it does not exist. */
  mesh(id: number): GpuMesh {
    return this.#meshes.get(id);
  }

  /** Material `id` on the GPU; {@link RenderError} if it does not exist. */
  material(id: number): GpuMaterial {
    return this.#materials.get(id);
  }

  /** Number of instances added. */
  get instanceCount(): number {
    return this.#instanceCount;
  }

  /** Adds an instance of `mesh` drawn with `material` at `matrix` (default identity); returns its index. */
  addInstance(mesh: number, material: number, matrix: Mat4 = IDENTITY): number {
    this.#meshes.get(mesh);
    this.#materials.get(material);
    requireMatrix(matrix);
    if (this.#instanceCount === this.#instanceMesh.length) this.#grow();
    const i = this.#instanceCount++;
    this.#instanceMesh[i] = mesh;
    this.#instanceMaterial[i] = material;
    this.#instanceVisible[i] = 1;
    this.#write(i, matrix, true);
    this.#writeRanges(i, mesh);
    this.structureVersion++;
    return i;
  }

  /** Moves instance `i`; the previous matrix (for motion vectors) becomes the one it had. */
  setTransform(i: number, matrix: Mat4): void {
    this.#requireInstance(i);
    requireMatrix(matrix);
    this.#write(i, matrix, false);
  }

  /** Shows or hides instance `i` from the next frame on; {@link RenderError} if it does not exist. */
  setVisible(i: number, visible: boolean): void {
    this.#requireInstance(i);
    this.#instanceVisible[i] = visible ? 1 : 0;
    this.structureVersion++;
  }

  /**
   * Draws instance `i` with another material from the next frame on (a hot-reloaded material, a
   * highlight). The draw lists are rebuilt, since they are grouped by material.
   */
  setInstanceMaterial(i: number, material: number): void {
    this.#requireInstance(i);
    this.#materials.get(material);
    if (this.#instanceMaterial[i] === material) return;
    this.#instanceMaterial[i] = material;
    this.structureVersion++;
  }

  /** Draws instance `i` as another mesh from the next frame on; its transform stays. */
  setInstanceMesh(i: number, mesh: number): void {
    this.#requireInstance(i);
    this.#meshes.get(mesh);
    if (this.#instanceMesh[i] === mesh) return;
    this.#instanceMesh[i] = mesh;
    this.#writeRanges(i, mesh);
    this.structureVersion++;
  }

  /** Mesh id of instance `i`. */
  instanceMesh(i: number): number {
    return this.#instanceMesh[i]!;
  }

  /** Material id of instance `i`. */
  instanceMaterial(i: number): number {
    return this.#instanceMaterial[i]!;
  }

  /** Whether instance `i` is drawn. */
  isVisible(i: number): boolean {
    return this.#instanceVisible[i] === 1;
  }

  /** The instance data in the GPU layout (INSTANCE_FLOATS per instance). */
  get instanceData(): Float32Array<ArrayBuffer> {
    return this.#instanceData.subarray(0, this.#instanceCount * INSTANCE_FLOATS);
  }

  /** Whether instance `i` moved since the last frame (its matrix differs from its previous one). */
  instanceMoved(i: number): boolean {
    const d = this.#instanceData;
    const o = i * INSTANCE_FLOATS;
    for (let k = 0; k < 16; k++) if (d[o + k] !== d[o + 16 + k]) return true;
    return false;
  }

  /** After a frame: previous matrices catch up with the current ones (no motion next frame unless moved). */
  settleMotion(): void {
    const d = this.#instanceData;
    for (let i = 0; i < this.#instanceCount; i++) d.copyWithin(i * INSTANCE_FLOATS + 16, i * INSTANCE_FLOATS, i * INSTANCE_FLOATS + 16);
  }

  /** World-space centre of instance i's bounding sphere, and its radius. */
  instanceBounds(i: number): [number, number, number, number] {
    const mesh = this.#meshes.get(this.#instanceMesh[i]!);
    const o = i * INSTANCE_FLOATS;
    const d = this.#instanceData;
    const [x, y, z] = mesh.center;
    const scale = Math.max(Math.hypot(d[o]!, d[o + 1]!, d[o + 2]!), Math.hypot(d[o + 4]!, d[o + 5]!, d[o + 6]!), Math.hypot(d[o + 8]!, d[o + 9]!, d[o + 10]!));
    return [d[o]! * x + d[o + 4]! * y + d[o + 8]! * z + d[o + 12]!, d[o + 1]! * x + d[o + 5]! * y + d[o + 9]! * z + d[o + 13]!, d[o + 2]! * x + d[o + 6]! * y + d[o + 10]! * z + d[o + 14]!, mesh.radius * scale];
  }

  /**
   * Adds skinned characters: the renderer runs `skinning.skin` once per frame and draws the
   * output (already in world space) in the shadow, depth and colour passes, motion vectors from
   * the previous positions the skinning pass wrote. Returns the group's index.
   */
  addSkinned(input: SkinnedDrawInput): number {
    if (this.#materials.get(input.material).blend) throw new RenderError('skinned characters draw opaque or masked materials; give them a material without alphaMode blend.');
    const { indices, instances } = input;
    if (indices.length === 0 || indices.length % 3 !== 0) throw new RenderError(`indices must describe whole triangles, got ${indices.length}.`);
    const mesh = instances[0]?.mesh;
    if (instances.some((instance) => instance.mesh !== mesh)) throw new RenderError('the instances of one skinned draw must share one skinned mesh (they share its indices).');
    const vertexCount = instances[0]?.vertexCount ?? 0;
    for (let i = 0; i < indices.length; i++) {
      if (indices[i]! >= vertexCount) throw new RenderError(`index ${indices[i]} at ${i} is past the skinned mesh's last vertex (${vertexCount - 1}).`);
    }
    // Everything is checked before anything is made: a refused input leaves the scene as it was.
    if ((input.lods?.length ?? 0) > 254) throw new RenderError(`a skinned draw takes at most 254 levels of detail, got ${input.lods!.length}.`);
    const levels = checkLods(input, vertexCount);
    const bounds = new Float32Array(Math.max(1, instances.length) * SKINNED_BOUNDS_FLOATS);
    for (let k = 0; k < instances.length; k++) bounds[k * SKINNED_BOUNDS_FLOATS + 3] = -1;
    if (input.bounds !== undefined) {
      if (!(input.bounds instanceof Float32Array)) throw new RenderError('bounds must be a Float32Array (centre xyz and radius per instance).');
      if (input.bounds.length !== instances.length * SKINNED_BOUNDS_FLOATS) throw new RenderError(`bounds must hold ${SKINNED_BOUNDS_FLOATS} floats per instance (${instances.length * SKINNED_BOUNDS_FLOATS}), got ${input.bounds.length}.`);
      checkBounds(input.bounds, 0);
      bounds.set(input.bounds);
    }
    const meshRadius = input.meshRadius ?? 0;
    if (input.meshRadius !== undefined && !(Number.isFinite(meshRadius) && meshRadius > 0)) throw new RenderError(`meshRadius must be a positive finite number, got ${input.meshRadius}.`);
    const all = levels.indices;
    const size = Math.max(4, Math.ceil(all.byteLength / 4) * 4);
    const buffer = this.#device.createBuffer({ label: 'cuttle.render.skinned-indices', size, usage: GPUBufferUsage.INDEX | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, mappedAtCreation: true });
    new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    buffer.unmap();
    const instanceWords = new Uint32Array(Math.max(1, instances.length) * SKINNED_RANGE_WORDS);
    instances.forEach((instance, k) => { instanceWords.set([instance.outputVertex, 0, indices.length / 3, 0], k * SKINNED_RANGE_WORDS); });
    const instanceRanges = this.#device.createBuffer({ label: 'cuttle.render.skinned-instance-ranges', size: instanceWords.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, mappedAtCreation: true });
    new Uint32Array(instanceRanges.getMappedRange()).set(instanceWords);
    instanceRanges.unmap();
    this.#skinned.push({
      skinning: input.skinning, instances: [...instances], indices: buffer, indexFormat: all instanceof Uint16Array ? 'uint16' : 'uint32', indexCount: indices.length,
      lods: levels.levels, bounds, meshRadius, levels: new Uint8Array(Math.max(1, instances.length)), instanceRanges, instanceWords, material: input.material,
    });
    return this.#skinned.length - 1;
  }

  /**
   * Moves skinned draw `draw`'s bounding spheres, which choose each instance's level of detail:
   * `bounds` holds SKINNED_BOUNDS_FLOATS floats per instance (world-space centre xyz, radius of
   * at least 0) for instances `firstInstance`, `firstInstance + 1`, ... (copied; nothing is
   * allocated, so it suits every frame). A bad draw, range or value throws a {@link RenderError}
   * and changes nothing.
   */
  setSkinnedBounds(draw: number, bounds: ArrayLike<number>, firstInstance = 0): void {
    if (!Number.isInteger(draw) || draw < 0 || draw >= this.#skinned.length) throw new RenderError(`skinned draw ${draw} does not exist (there are ${this.#skinned.length}).`);
    const target = this.#skinned[draw]!;
    const count = target.instances.length;
    if (bounds.length % SKINNED_BOUNDS_FLOATS !== 0) throw new RenderError(`bounds must hold ${SKINNED_BOUNDS_FLOATS} floats per instance (centre xyz, radius), got ${bounds.length}.`);
    const instances = bounds.length / SKINNED_BOUNDS_FLOATS;
    if (!Number.isInteger(firstInstance) || firstInstance < 0 || firstInstance + instances > count) throw new RenderError(`bounds for instances ${firstInstance} to ${firstInstance + instances - 1} do not fit the draw's ${count} instances.`);
    checkBounds(bounds, firstInstance);
    target.bounds.set(bounds, firstInstance * SKINNED_BOUNDS_FLOATS);
  }

  /** Adds a fluid simulation's particles, drawn as spheres (they receive light and shadows; they cast none). */
  addFluid(input: FluidDrawInput): number {
    const radius = input.radius ?? input.fluid.parameters.h * 0.5;
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RenderError(`radius must be positive, got ${radius}.`);
    const color = input.color ?? [0.2, 0.45, 0.8];
    requireVec3('color', color);
    const roughness = input.roughness ?? 0.15;
    if (!(roughness >= 0 && roughness <= 1)) throw new RenderError(`roughness must be in 0..1, got ${roughness}.`);
    if (this.#fluids.length >= MAX_FLUIDS) throw new RenderError(`a scene draws at most ${MAX_FLUIDS} fluids; merge fluids that share a look into one simulation.`);
    if (input.fluid.capacity > MAX_FLUID_PARTICLES) throw new RenderError(`a fluid draws at most ${MAX_FLUID_PARTICLES} particles, this one holds up to ${input.fluid.capacity}.`);
    this.#fluids.push({ fluid: input.fluid, color, radius, roughness });
    return this.#fluids.length - 1;
  }

  /** The fluids added with `addFluid`, by index. */
  get fluids(): readonly FluidDraw[] {
    return this.#fluids;
  }

  /** The skinned draws added with `addSkinned`, by index. */
  get skinned(): readonly SkinnedDraw[] {
    return this.#skinned;
  }

  /**
   * The sphere the sun's shadow map covers (default: around every static instance). Set it when
   * skinned characters or fluid move outside the static geometry.
   */
  setShadowBounds(center: readonly [number, number, number], radius: number): void {
    requireVec3('center', center);
    if (!(radius > 0)) throw new RenderError(`radius must be positive, got ${radius}.`);
    this.#shadowBounds = [center[0], center[1], center[2], radius];
  }

  /** The sphere the sun's shadow map covers (centre xyz, radius) as set with `setShadowBounds`, or undefined for the default (around every static instance). */
  get shadowBounds(): readonly [number, number, number, number] | undefined {
    return this.#shadowBounds;
  }

  /** The sun (one directional light), or undefined to switch it off. */
  setSun(sun: DirectionalLightInput | undefined): void {
    if (!sun) {
      this.#sun = undefined;
      return;
    }
    requireVec3('sun.direction', sun.direction);
    requireVec3('sun.color', sun.color);
    const length = Math.hypot(...sun.direction);
    if (length === 0) throw new RenderError('sun.direction must not be zero.');
    this.#sun = { direction: [sun.direction[0] / length, sun.direction[1] / length, sun.direction[2] / length], color: sun.color, intensity: sun.intensity ?? 1, shadows: sun.shadows ?? true };
  }

  /** The sun with its direction normalized and defaults filled in, or undefined when it is off. */
  get sun(): Readonly<Required<DirectionalLightInput>> | undefined {
    return this.#sun;
  }

  /** Adds a shadow-casting spot light (at most MAX_SHADOW_SPOTS); returns its index. */
  addShadowSpot(spot: ShadowSpotInput): number {
    if (this.#spots.length >= MAX_SHADOW_SPOTS) throw new RenderError(`a scene holds at most ${MAX_SHADOW_SPOTS} shadow-casting spot lights; add more lights through scene.lights (culled, without shadows).`);
    requireVec3('position', spot.position);
    requireVec3('direction', spot.direction);
    requireVec3('color', spot.color);
    const length = Math.hypot(...spot.direction);
    if (length === 0) throw new RenderError('direction of a spot light must not be zero.');
    if (!(spot.range > 0)) throw new RenderError(`range must be positive, got ${spot.range}.`);
    if (!(spot.outerAngle > 0 && spot.outerAngle < Math.PI / 2)) throw new RenderError(`outerAngle must be in (0, pi/2), got ${spot.outerAngle}.`);
    const inner = spot.innerAngle ?? spot.outerAngle * 0.8;
    if (!(inner >= 0 && inner <= spot.outerAngle)) throw new RenderError(`innerAngle must be in [0, outerAngle], got ${inner}.`);
    this.#spots.push({ ...spot, direction: [spot.direction[0] / length, spot.direction[1] / length, spot.direction[2] / length], innerAngle: inner, intensity: spot.intensity ?? 1 });
    return this.#spots.length - 1;
  }

  /** The shadow-casting spot lights, directions normalized and defaults filled in, by index. */
  get shadowSpots(): readonly Readonly<Required<ShadowSpotInput>>[] {
    return this.#spots;
  }

  /** Destroys the scene's meshes, textures, material uniforms and skinned index buffers, and gives back its allocator ranges. */
  destroy(): void {
    for (const draw of this.#skinned) {
      draw.indices.destroy();
      draw.instanceRanges.destroy();
    }
    this.#meshes.destroy();
    this.#materials.destroy();
    this.#buffers.instances.freeAll();
    this.#instanceRange = undefined;
  }

  #requireInstance(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.#instanceCount) throw new RenderError(`instance ${i} does not exist (there are ${this.#instanceCount}).`);
  }

  #write(i: number, m: Mat4, first: boolean): void {
    const d = this.#instanceData;
    const o = i * INSTANCE_FLOATS;
    if (!first) d.copyWithin(o + 16, o, o + 16);
    for (let k = 0; k < 16; k++) d[o + k] = m[k]!;
    if (first) for (let k = 0; k < 16; k++) d[o + 16 + k] = m[k]!;
    // Normal matrix: the inverse transpose of the upper 3x3 (cofactors; scale does not matter, the shader normalises).
    const a = m[0]!, b = m[1]!, c = m[2]!, e = m[4]!, f = m[5]!, g = m[6]!, h = m[8]!, j = m[9]!, k = m[10]!;
    const x0 = f * k - g * j, x1 = g * h - e * k, x2 = e * j - f * h;
    // A mirroring matrix (negative determinant) would flip the cofactors: keep normals outward.
    const s = a * x0 + b * x1 + c * x2 < 0 ? -1 : 1;
    d.set([s * x0, s * x1, s * x2, 0, s * (c * j - b * k), s * (a * k - c * h), s * (b * h - a * j), 0, s * (b * g - c * f), s * (c * e - a * g), s * (a * f - b * e), 0], o + 32);
  }

  /** The mesh's position and uv ranges, which the vertex shaders map the unorm16 values back with. */
  #writeRanges(i: number, mesh: number): void {
    const { positionRange, uvRange } = this.#meshes.get(mesh);
    const o = i * INSTANCE_FLOATS;
    this.#instanceData.set(positionRange, o + 44);
    this.#instanceData.set(uvRange, o + 48);
  }

  #grow(): void {
    const size = this.#instanceMesh.length * 2;
    const grow = <T extends Int32Array | Uint8Array | Float32Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(size * per);
      next.set(old);
      return next;
    };
    this.#instanceMesh = grow(this.#instanceMesh, (n) => new Int32Array(n));
    this.#instanceMaterial = grow(this.#instanceMaterial, (n) => new Int32Array(n));
    this.#instanceVisible = grow(this.#instanceVisible, (n) => new Uint8Array(n));
    this.#instanceData = grow(this.#instanceData, (n) => new Float32Array(n), INSTANCE_FLOATS);
    if (this.#instanceRange) {
      // The renderer writes every instance each frame, so the old range's contents need no copy.
      this.#buffers.instances.free(this.#instanceRange);
      this.#instanceRange = this.#buffers.instances.allocate(size * INSTANCE_FLOATS * 4, 'instances');
    }
  }
}

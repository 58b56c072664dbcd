// A loaded level, running: the @cuttle/ecs scene from the level's archive, a @cuttle/render
// scene built from it (static units through EcsBinding, culled point lights, skinned walkers
// through @cuttle/gpu-skinning, a @cuttle/gpu-fluid pool), the Flow programs of the level and
// of its units, and the title drawn with the level's distance-field font (@cuttle/gui).
// Reloading builds a new World from the current compiled data, reusing the GPU-heavy parts
// (skinning, fluid) when their setup did not change; the old one stays until the new one exists.
import { allocateView, type FrameAllocator } from '@cuttle/allocators';
import { loadLibrary, type Entity } from '@cuttle/ecs';
import { loadFlowProgram, type FlowRegistry } from '@cuttle/flow';
import { damBreakPositions, FluidSimulation } from '@cuttle/gpu-fluid';
import { GpuSkinning, type AnimationClip, type Skeleton, type SkinnedInstance } from '@cuttle/gpu-skinning';
import type { JobSystem } from '@cuttle/jobs';
import { Gui, GuiFont, parseBMFont, type GuiRenderer } from '@cuttle/gui';
import { EcsBinding, RenderScene, type GuiOverlay, type MaterialInput, type Renderer, type RenderCamera, type RenderTarget } from '@cuttle/render';
import { createLevelLibrary } from '../compiler/resources/level.ts';
import { EngineError } from '../errors.ts';
import { CharacterAnimator, type BindSphere } from './character-animator.ts';
import { characterClipBytes, characterClipOf } from './character-clip.ts';
import { levelPatch, type LoadedLevel } from './level-patch.ts';
import { section } from './container.ts';
import { createFlowRegistry } from './flow-actions.ts';
import type { FlowParallelUpdate } from './flow-parallel.ts';
import { FlowScripts, type FlowGraphReload, type LoadedGraph } from './flow-scripts.ts';
import type { EngineMemory, WorldMemory } from './memory.ts';
import type { FlowMeta, FontMeta, LevelMeta, MaterialMeta, MeshMeta, TextureMeta } from './formats.ts';
import { withMaterialTextures } from './material-textures.ts';
import { addStaticMesh, meshMaterialInput, type StaticMeshGroups } from './mesh-groups.ts';
import type { ResourceStore } from './resources.ts';
import type { PrefetchedTextures, TextureLoader } from './texture-loader.ts';
import { PATH_FLOATS } from './walk-cycle.ts';
import { meshTextureName, worldTextureSources } from './world-textures.ts';

export type LogFn = (level: 'info' | 'warning' | 'error', system: string, message: string) => void;

interface CharacterSet {
  key: string;
  skinning: GpuSkinning;
  instances: SkinnedInstance[];
  skeleton: Skeleton;
  clip: AnimationClip;
  /** The walk clip's sections (workers read the skeleton and clip from them). */
  clipBytes: Uint8Array;
  /** Every walker's palette and bounding sphere (which picks its level of detail), computed on this thread or on the frame workers. */
  animator: CharacterAnimator;
  /** This frame's upload staging of every walker's palette (in the engine's frame allocator). */
  palette: Float32Array;
  /** The set's skinned draw in this world's render scene. */
  draw: number;
}

interface FluidPool {
  key: string;
  fluid: FluidSimulation;
  radius: number;
}

interface TitleFont {
  key: unknown;
  font: GuiFont;
  material: number;
}

export interface WorldShared {
  device: GPUDevice;
  store: ResourceStore;
  guiRenderer: GuiRenderer;
  log: LogFn;
  /** The engine's allocators: the world's render scene takes its buffers from them (without: a GPUBuffer per resource). */
  memory?: EngineMemory;
  /** Frame workers: the walkers' animation and the textures' transcoding at load run on them (without: on this thread). */
  jobs?: JobSystem;
  /** Transcodes the compiled KTX2 textures for this device. */
  textures: TextureLoader;
  /** The Flow update on the frame workers (with `jobs`), reused by every world. */
  flowUpdate?: FlowParallelUpdate;
}

/** Level `level` from the store: its header and its ECS archive loaded into a new library. */
function loadLevel(store: ResourceStore, level: string): LoadedLevel {
  const container = store.get<LevelMeta>('level', level);
  const ecs = createLevelLibrary();
  loadLibrary(ecs.scene.library, section(container, 'ecs', Uint8Array), { seed: 0 });
  ecs.scene.update();
  return { meta: container.meta, ecs };
}

/** A compiled graph from the store, with its node types when the compiler recorded them. */
function loadGraph(store: ResourceStore, registry: FlowRegistry, name: string): LoadedGraph {
  const container = store.get<FlowMeta>('flow', name);
  const program = loadFlowProgram(section(container, 'blob', Uint8Array), registry);
  const nodes = container.meta.nodes;
  const types = Array.isArray(nodes) && nodes.length === program.nodeCount && nodes.every((t) => typeof t === 'string') ? nodes : undefined;
  return { program, types };
}

export class World {
  // Replaced when a structurally equal level is patched in (its names table may differ).
  #meta: LevelMeta;
  readonly ecs: ReturnType<typeof createLevelLibrary>;
  readonly render: RenderScene;
  readonly binding = new EcsBinding();
  readonly overlays: GuiOverlay[] = [];
  /** Entities of the placed units, by the unit's id string. */
  readonly entities = new Map<string, Entity>();
  time = 0;
  lightScale = 1;
  walkScale = 1;
  #title = '';
  #titleId = -1;
  #gui = new Gui();
  private titleFont: TitleFont | undefined;
  private characterSets: CharacterSet[] = [];
  private fluidPool: FluidPool | undefined;
  /** The level's and the units' Flow graphs, running (the debugger watches them through this). */
  flow!: FlowScripts;
  #lights: { x: number; y: number; z: number; color: [number, number, number]; range: number; intensity: number }[] = [];
  #lightsDirty = false;
  /** Render materials by material name: which ids draw it, and whether they are a character's (no textures). */
  readonly #materialIds = new Map<string, { id: number; character: boolean }[]>();
  readonly #textureIds = new Map<string, number>();
  /** While the constructor builds: the level's textures, transcoded on the frame workers. */
  #prefetched: PrefetchedTextures | undefined;
  /** Render instances of each row of the level's render component (one per group of its mesh). */
  readonly #staticInstances: number[][] = [];
  readonly #shared: WorldShared;
  /** This world's share of the engine's allocators, given back when it is destroyed. */
  readonly #memory: WorldMemory | undefined;

  /** Builds a world for `level`; on failure throws and leaves `previous` untouched. */
  constructor(shared: WorldShared, level: string, previous?: World) {
    this.#shared = shared;
    const { device, store } = shared;
    const loaded = loadLevel(store, level);
    this.#meta = loaded.meta;
    this.ecs = loaded.ecs;
    const units = this.ecs.managers.unit;
    for (let i = 0; i < units.count; i++) this.entities.set(this.#meta.units[units.fields.id[i]!]!.id, units.getEntity(i));

    const memory = shared.memory?.world();
    this.#memory = memory;
    let render: RenderScene;
    try {
      render = new RenderScene(device, memory ? { buffers: memory.buffers } : {});
    } catch (error) {
      memory?.release();
      throw error;
    }
    this.render = render;
    try {
      if (shared.jobs) {
        const r = this.ecs.managers.render;
        this.#prefetched = shared.textures.prefetch(worldTextureSources(store, this.#meta.names, { count: r.count, mesh: r.fields.mesh, material: r.fields.material }), shared.jobs);
      }
      this.#buildStatic(store);
      this.#prefetched = undefined;
      this.#buildLights();
      this.#buildCharacters(store, previous);
      shared.memory?.reserveFrame(this.frameBytes);
      this.#buildFluid(previous);
      this.#buildTitle(store, previous);
      render.setSun({ direction: this.#meta.sun.direction, color: this.#meta.sun.color, intensity: this.#meta.sun.intensity });
      render.setShadowBounds([0, 2, 0], 32);
      this.#startFlow(store);
    } catch (error) {
      this.#prefetched = undefined;
      this.#destroyOwned(previous);
      render.destroy();
      memory?.release();
      throw error;
    }
  }

  get meta(): LevelMeta {
    return this.#meta;
  }

  /**
   * Applies recompiled `level` in place when only transforms, unit materials and light
   * properties changed (the property editor's edits); returns the reason when it cannot, and
   * then nothing has changed: the caller rebuilds the world.
   */
  patchLevel(store: ResourceStore, level: string): { patched: true } | { patched: false; reason: string } {
    const next = loadLevel(store, level);
    const patch = levelPatch({ meta: this.#meta, ecs: this.ecs }, next);
    if ('refused' in patch) return { patched: false, reason: patch.refused };
    // Everything that can fail first: the new materials' inputs.
    const names = (hash: number): string => {
      const name = next.meta.names[hash];
      if (!name?.startsWith('material:')) throw new EngineError(`the level refers to material hash ${hash}, which its header does not name; recompile the level.`);
      return name.slice('material:'.length);
    };
    const materials = patch.materialRows.map(({ row, hash }) => ({ row, hash, name: names(hash) }));
    for (const { name } of materials) if (!this.#staticMaterial(name)) this.#materialInput(store, name, false);

    const t = this.ecs.scene.transforms;
    const n = next.ecs.scene.transforms;
    for (const row of patch.transformRows) {
      t.fields.position.set(n.fields.position.subarray(row * 3, row * 3 + 3), row * 3);
      t.fields.rotation.set(n.fields.rotation.subarray(row * 4, row * 4 + 4), row * 4);
      t.fields.scale.set(n.fields.scale.subarray(row * 3, row * 3 + 3), row * 3);
      t.fields.dirty[row] = 1;
    }
    this.ecs.scene.update();
    const render = this.ecs.managers.render;
    for (const { row, hash, name } of materials) {
      render.fields.material[row] = hash;
      const id = this.#staticMaterial(name) ?? this.#addMaterial(store, name, false);
      for (const instance of this.#staticInstances[row]!) this.render.setInstanceMaterial(instance, id);
    }
    const light = this.ecs.managers.light;
    if (patch.lightsChanged) for (const field of ['color', 'range', 'intensity'] as const) light.fields[field].set(next.ecs.managers.light.fields[field]);
    if (patch.lightsChanged || patch.transformRows.length > 0) {
      this.#lights = [];
      this.#buildLights();
    }
    this.#meta = next.meta;
    return { patched: true };
  }

  /** The static-mesh render material made from material `name`, if this world has one. */
  #staticMaterial(name: string): number | undefined {
    return this.#materialIds.get(name)?.find((m) => !m.character)?.id;
  }

  get title(): string {
    return this.#title;
  }

  get characterCount(): number {
    return this.characterSets.reduce((n, c) => n + c.instances.length, 0);
  }

  get fluid(): FluidSimulation | undefined {
    return this.fluidPool?.fluid;
  }

  #names(hash: number, type: string): string {
    const name = this.#meta.names[hash];
    if (!name?.startsWith(`${type}:`)) throw new EngineError(`the level refers to ${type} hash ${hash}, which its header does not name; recompile the level.`);
    return name.slice(type.length + 1);
  }

  /**
   * A texture of the scene, uploaded on first use (transcoded ahead on the frame workers while
   * the world builds, if it has them). The compiler decided its colour space and filtering from
   * how materials use it (sRGB colour, a linear normal map, or linear data).
   */
  #texture(store: ResourceStore, name: string): number {
    let id = this.#textureIds.get(name);
    if (id === undefined) {
      id = this.#shared.textures.load(this.render, name, store.get<TextureMeta>('png', name), this.#prefetched);
      this.#textureIds.set(name, id);
    }
    return id;
  }

  /** The render input of material `name`: everything for static meshes, colour terms for characters. */
  #materialInput(store: ResourceStore, name: string, character: boolean): MaterialInput {
    const m = store.get<MaterialMeta>('material', name).meta;
    if (character) return { baseColor: m.baseColor, metallic: m.metallic, roughness: m.roughness, emissive: m.emissive };
    const input: MaterialInput = { baseColor: m.baseColor, metallic: m.metallic, roughness: m.roughness, emissive: m.emissive, alphaMode: m.alphaMode, alphaCutoff: m.alphaCutoff, normalScale: m.normalScale, doubleSided: m.doubleSided, caustics: m.caustics };
    return withMaterialTextures(input, m, (texture) => this.#texture(store, texture));
  }

  #addMaterial(store: ResourceStore, name: string, character: boolean): number {
    const id = this.render.addMaterial(this.#materialInput(store, name, character));
    this.#materialIds.set(name, [...(this.#materialIds.get(name) ?? []), { id, character }]);
    return id;
  }

  /**
   * Gives the named materials (e.g. 'materials/stone') their recompiled properties in place, in
   * every render material made from them. Every input is read first: on failure this throws and
   * nothing has changed. Names this world does not use are skipped.
   */
  updateMaterials(store: ResourceStore, names: readonly string[]): void {
    const updates: [number, MaterialInput][] = [];
    for (const name of names) for (const { id, character } of this.#materialIds.get(name) ?? []) updates.push([id, this.#materialInput(store, name, character)]);
    for (const [id, input] of updates) this.render.updateMaterial(id, input);
  }

  #buildStatic(store: ResourceStore): void {
    const render = this.render;
    const meshes = new Map<string, StaticMeshGroups>();
    const materials = new Map<string, number>();
    const material = (name: string): number => {
      let id = materials.get(name);
      if (id === undefined) {
        id = this.#addMaterial(store, name, false);
        materials.set(name, id);
      }
      return id;
    };
    // The GLB's own materials, keyed by mesh and index; their textures by mesh and index too.
    const own = (name: string, mesh: StaticMeshGroups, index: number): number => {
      const key = `${name}.glb#${index}`;
      let id = materials.get(key);
      if (id === undefined) {
        id = render.addMaterial(meshMaterialInput(mesh, index, (t) => this.#meshTexture(name, mesh, t)));
        materials.set(key, id);
      }
      return id;
    };
    const mesh = (name: string): StaticMeshGroups => {
      let groups = meshes.get(name);
      if (!groups) {
        groups = addStaticMesh(render, name, store.get<MeshMeta>('glb', name));
        meshes.set(name, groups);
      }
      return groups;
    };
    const { render: r } = this.ecs.managers;
    const transforms = this.ecs.scene.transforms;
    for (let i = 0; i < r.count; i++) {
      const entity = r.getEntity(i);
      const row = transforms.indexOf(entity);
      const meshName = this.#names(r.fields.mesh[i]!, 'glb');
      const m = mesh(meshName);
      const hash = r.fields.material[i]!;
      const named = hash === 0 ? undefined : material(this.#names(hash, 'material'));
      const matrix = transforms.fields.world.subarray(row * 16, row * 16 + 16);
      this.#staticInstances[i] = m.groups.map((group) => {
        const instance = render.addInstance(group.mesh, named ?? own(meshName, m, group.material), matrix);
        this.binding.bind(entity, instance);
        return instance;
      });
    }
  }

  /** Texture `index` a GLB embeds, uploaded on first use. */
  #meshTexture(name: string, mesh: StaticMeshGroups, index: number): number {
    const key = `${name}.glb#${index}`;
    let id = this.#textureIds.get(key);
    if (id === undefined) {
      const meta = mesh.container.meta.textures[index];
      if (!meta) throw new EngineError(`${name}.glb names texture ${index}, which it does not hold; recompile it.`);
      id = this.#shared.textures.loadData(this.render, meshTextureName(name, index), meta, section(mesh.container, `texture${index}`, Uint8Array), this.#prefetched);
      this.#textureIds.set(key, id);
    }
    return id;
  }

  #buildLights(): void {
    const { light } = this.ecs.managers;
    const transforms = this.ecs.scene.transforms;
    for (let i = 0; i < light.count; i++) {
      const row = transforms.indexOf(light.getEntity(i));
      const w = transforms.fields.world;
      const c = light.fields.color;
      this.#lights.push({ x: w[row * 16 + 12]!, y: w[row * 16 + 13]!, z: w[row * 16 + 14]!, color: [c[i * 3]!, c[i * 3 + 1]!, c[i * 3 + 2]!], range: light.fields.range[i]!, intensity: light.fields.intensity[i]! });
    }
    this.#lightsDirty = true;
    this.#applyLights();
  }

  #applyLights(): void {
    if (!this.#lightsDirty) return;
    this.#lightsDirty = false;
    const list = this.render.lights;
    list.clear();
    for (const l of this.#lights) list.addPointLight({ position: [l.x, l.y, l.z], range: l.range, color: l.color, intensity: l.intensity * this.lightScale });
  }

  #buildCharacters(store: ResourceStore, previous?: World): void {
    const { character } = this.ecs.managers;
    if (character.count === 0) return;
    const transforms = this.ecs.scene.transforms;
    const groups = new Map<string, number[]>();
    for (let i = 0; i < character.count; i++) {
      const key = `${character.fields.mesh[i]}:${character.fields.material[i]}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    }
    for (const [key, rows] of groups) {
      const meshName = this.#names(character.fields.mesh[rows[0]!]!, 'glb');
      const materialName = this.#names(character.fields.material[rows[0]!]!, 'material');
      const c = store.get<MeshMeta>('glb', meshName);
      if (c.meta.kind !== 'skinned') throw new EngineError(`${meshName}.glb is not skinned, but a character unit uses it.`);
      const paths = new Float32Array(rows.length * PATH_FLOATS);
      rows.forEach((row, k) => {
        const t = transforms.indexOf(character.getEntity(row));
        const w = transforms.fields.world;
        paths.set([w[t * 16 + 12]!, w[t * 16 + 14]!, character.fields.radius[row]!, character.fields.speed[row]!, character.fields.phase[row]! * Math.PI * 2], k * PATH_FLOATS);
      });
      const groupKey = `${key}:${rows.length}:${store.manifest.resources[`${meshName}.glb`]?.hash ?? ''}`;
      const reused = previous?.characterSets.find((set) => set.key === groupKey);
      const { min, max } = c.meta.bounds;
      const sphere: BindSphere = { center: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2], radius: Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2 };
      let set: CharacterSet;
      if (reused) {
        set = { ...reused, animator: new CharacterAnimator(reused.skeleton, reused.clip, reused.clipBytes, paths, sphere), palette: new Float32Array(rows.length * reused.skeleton.jointCount * 12) };
      } else {
        const { skeleton, clip } = characterClipOf(c, meshName);
        const clipBytes = characterClipBytes(c);
        const vertexCount = c.meta.vertexCount;
        const skinning = new GpuSkinning(this.#shared.device, { maxVertices: vertexCount, maxOutputVertices: vertexCount * rows.length, maxBones: skeleton.jointCount * rows.length, maxInstances: rows.length });
        const mesh = skinning.addMesh({ format: 'packed', vertexCount, bonesUsed: c.meta.bonesUsed, positionNormal: section<Uint32Array<ArrayBuffer>>(c, 'positionNormal', Uint32Array), tangent: section<Uint32Array<ArrayBuffer>>(c, 'tangent', Uint32Array), bones: section<Uint32Array<ArrayBuffer>>(c, 'bones', Uint32Array) });
        const instances = rows.map(() => skinning.addInstance({ mesh, palette: skinning.createPalette(skeleton.jointCount) }));
        set = { key: groupKey, skinning, instances, skeleton, clip, clipBytes, animator: new CharacterAnimator(skeleton, clip, clipBytes, paths, sphere), palette: new Float32Array(rows.length * skeleton.jointCount * 12), draw: -1 };
      }
      const materialId = this.#characterMaterial(store, materialName);
      // The levels of detail, which render picks per walker by the sphere #animate moves with it.
      const lodIndices = c.meta.lods.length > 0 ? section(c, 'lods', Uint32Array) : undefined;
      const lods = c.meta.lods.map((lod) => ({ indices: lodIndices!.subarray(lod.firstIndex, lod.firstIndex + lod.indexCount), error: lod.error }));
      set.draw = this.render.addSkinned({ skinning: set.skinning, instances: set.instances, indices: section(c, 'indices', Uint32Array), material: materialId, lods });
      this.characterSets.push(set);
    }
    this.#animate();
  }

  #characterMaterial(store: ResourceStore, name: string): number {
    return this.#addMaterial(store, name, true);
  }

  #buildFluid(previous?: World): void {
    const f = this.#meta.fluid;
    if (!f) return;
    const key = JSON.stringify(f);
    let pool = previous?.fluidPool;
    if (pool?.key !== key) {
      const size = [f.max[0] - f.min[0], f.max[1] - f.min[1], f.max[2] - f.min[2]];
      const h = Math.cbrt((size[0]! * size[1]! * size[2]!) / f.particles) * 1.6;
      const fluid = new FluidSimulation(this.#shared.device, { capacity: f.particles, parameters: { bounds: { min: f.min, max: f.max }, h } });
      fluid.emit(damBreakPositions(f.particles, fluid.parameters));
      pool = { key, fluid, radius: h * 0.45 };
    }
    this.fluidPool = pool;
    this.render.addFluid({ fluid: pool.fluid, color: f.color, radius: pool.radius });
  }

  #buildTitle(store: ResourceStore, previous?: World): void {
    const fontName = this.#meta.font;
    if (fontName === undefined) return;
    const c = store.get<FontMeta>('font', fontName);
    if (previous?.titleFont?.key === c) {
      this.titleFont = previous.titleFont;
    } else {
      const font = new GuiFont(parseBMFont(new TextDecoder().decode(section(c, 'fnt', Uint8Array))));
      const pages = c.meta.pages.map((p, i) => ({ width: p.width, height: p.height, channels: 1 as const, data: section(c, `page${i}`, Uint8Array) }));
      this.titleFont = { key: c, font, material: this.#shared.guiRenderer.createTextMaterial(font, pages, { outline: { width: 1.5, color: 0x000000ff } }) };
    }
    this.overlays.push({ gui: this.#gui, renderer: this.#shared.guiRenderer });
    this.setTitle(this.#meta.title?.text ?? '');
  }

  setTitle(text: string): void {
    this.#title = text;
    const t = this.#meta.title;
    if (!this.titleFont || !t) return;
    const params = { x: t.x, y: t.y, text, font: this.titleFont.font, material: this.titleFont.material, size: t.size, color: 0xffffffff };
    if (this.#titleId < 0) this.#titleId = this.#gui.create('text', params);
    else this.#gui.update(this.#titleId, params);
  }

  #startFlow(store: ResourceStore): void {
    const registry = createFlowRegistry({
      log: (message) => { this.#shared.log('info', 'flow', message); },
      setLightScale: (scale) => {
        this.lightScale = scale;
        this.#lightsDirty = true;
      },
      setWalkSpeed: (scale) => {
        this.walkScale = scale;
      },
      setTitle: (text) => { this.setTitle(text); },
    });
    const unitIds = new Map<Entity, string>();
    for (const [id, entity] of this.entities) unitIds.set(entity, id);
    const { script } = this.ecs.managers;
    const units = [];
    for (let i = 0; i < script.count; i++) {
      const entity = script.getEntity(i);
      units.push({ unit: unitIds.get(entity) ?? `#${entity}`, graph: this.#names(script.fields.flow[i]!, 'flow'), entity });
    }
    this.flow = new FlowScripts(registry, (name) => loadGraph(store, registry, name), units, this.#meta.flow, this.#shared.flowUpdate);
    this.flow.start();
  }

  /** Switches the running instances of the named graphs (`flow/lamp`) to their recompiled programs, keeping variables; on failure throws and nothing changed. */
  reloadFlow(names: readonly string[]): FlowGraphReload[] {
    return this.flow.reload(names);
  }

  /** Advances Flow timers, animations and light changes by `dt` seconds; throws (after all of it) when a Flow graph failed. */
  update(dt: number): void {
    this.time += dt;
    try {
      this.flow.update(dt);
    } finally {
      // A failing graph is reported (the update throws), and the world goes on.
      this.#applyLights();
      this.#animate();
    }
  }

  #animate(): void {
    for (const set of this.characterSets) {
      set.animator.animate(this.time, this.walkScale, this.#shared.jobs);
      this.render.setSkinnedBounds(set.draw, set.animator.bounds);
      // Staged in the frame allocator in one copy, then into the skinning's upload staging in one
      // more (the set's palettes were created one after another): the shared palettes stay the workers'.
      set.palette.set(set.animator.palettes);
      set.skinning.writePalettes(set.instances[0]!.palette, set.instances.length, set.palette);
    }
  }

  /** Bytes this world stages in the engine's frame allocator each frame (stageFrame). */
  get frameBytes(): number {
    return this.characterSets.reduce((bytes, set) => bytes + set.palette.byteLength + 16, 0);
  }

  /** Every walker set's palettes as this frame computed them (tests compare threads with them). */
  characterPalettes(): Float32Array[] {
    return this.characterSets.map((set) => set.animator.palettes);
  }

  /** Records one frame (fluid step, then the renderer's passes) into `encoder`. */
  record(encoder: GPUCommandEncoder, renderer: Renderer, camera: RenderCamera, target: RenderTarget, stepFluid: boolean): void {
    this.binding.sync(this.render, this.ecs.scene.transforms);
    if (stepFluid) this.fluidPool?.fluid.step(encoder);
    renderer.render(encoder, this.render, camera, target, this.overlays);
  }

  /** Moves a placed unit (hot path of the property editor's preview); returns false for an unknown id. */
  setUnitPosition(id: string, position: readonly [number, number, number]): boolean {
    const entity = this.entities.get(id);
    if (entity === undefined) return false;
    const t = this.ecs.scene.transforms;
    const row = t.indexOf(entity);
    t.fields.position.set(position, row * 3);
    t.fields.dirty[row] = 1;
    this.ecs.scene.update();
    return true;
  }

  /** Placed units: id, prefab and world position. */
  listUnits(): { id: string; unit: string; position: [number, number, number] }[] {
    const t = this.ecs.scene.transforms;
    return this.#meta.units.map(({ id, unit }) => {
      const row = t.indexOf(this.entities.get(id)!);
      return { id, unit, position: [t.fields.world[row * 16 + 12]!, t.fields.world[row * 16 + 13]!, t.fields.world[row * 16 + 14]!] };
    });
  }

  /**
   * Points this frame's per-frame upload data (each character set's palette staging) into the
   * engine's frame allocator, which the engine reset at the start of the frame.
   */
  stageFrame(frame: FrameAllocator): void {
    for (const set of this.characterSets) set.palette = allocateView(frame, Float32Array, set.palette.length);
  }

  /** Frees what this world owns and `next` does not reuse; its buffer ranges go back to the engine's allocators. */
  destroy(next?: World): void {
    this.#destroyOwned(next);
    this.render.destroy();
    this.#memory?.release();
  }

  #destroyOwned(other?: World): void {
    for (const set of this.characterSets) if (!other?.characterSets.some((s) => s.skinning === set.skinning)) set.skinning.destroy();
    // Every world makes its own animators: their shared memory would stay with the workers.
    const jobs = this.#shared.jobs;
    if (jobs) for (const set of this.characterSets) jobs.release(...set.animator.sharedBuffers);
    if (this.fluidPool && other?.fluidPool !== this.fluidPool) this.fluidPool.fluid.destroy();
  }
}


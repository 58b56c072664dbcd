// Thousands of point and spot lights in three.js: @cuttle/gpu-culling sorts them into screen
// tiles against a depth prepass of three's own scene, and three's materials shade each pixel
// with its tile's lights only (CulledLightsNode). Set it as the renderer's lighting and call
// update(scene, camera) before each render; the culling runs on the renderer's device and three
// binds the culling's own buffers (no copies).
//
// Transparent surfaces get tiles of their own: a glass pane or water surface in front of the
// opaque depth needs the lights near it, not those near the floor behind it. After the opaque
// tiles are culled, the transparent objects' depth is drawn over the prepass and a second
// culling gives the tiles transparent materials walk (the nearest transparent layer's lights).
import { TileCuller, type Technique, type TileSize } from '@cuttle/gpu-culling';
import { storage, uniform } from 'three/tsl';
import { DepthTexture, FloatType, Lighting, MeshBasicNodeMaterial, RenderTarget, StorageBufferAttribute, Vector2, type Camera, type Light, type Object3D, type Scene, type WebGPURenderer } from 'three/webgpu';
import { adoptGpuBuffer, deviceOf, gpuTextureOf } from './backend.ts';
import { isCulledLight, LIGHT_FLOATS, writeLight } from './culled-light-data.ts';
import { CulledLightsNode, type CulledTiles, type StorageNode } from './culled-lights-node.ts';
import { ThreeError } from './errors.ts';

/** Options of {@link CulledLighting}'s constructor; every one has a default. */
export interface CulledLightingOptions {
  /** Most culled lights in the scene (default 4096): the culling's entity capacity. */
  maxLights?: number;
  /** Pixels per tile side: 8, 16 (default) or 32. */
  tileSize?: TileSize;
  /** How tiles hold their lights: 'flat-bits' (default: never drops a light) or 'compaction' (lists of at most maxPerTile). */
  technique?: Technique;
  /** Compaction: most lights per tile (default 255, at most 1023); more are dropped and counted by the culler. */
  maxPerTile?: number;
  /** 2.5D depth culling of each tile (default true). */
  depthMask?: boolean;
  /** Flat bits: tiles whose lights fit are written as lists of indices (default true; see TileCuller's `tileLists`). */
  tileLists?: boolean;
}

/** What the last update culled. */
export interface CulledLightingStats {
  /** Point and spot lights shaded through the tiles. */
  culledLights: number;
  /** Columns of the tile grid (the target's width in pixels over the tile size, rounded up). */
  tilesX: number;
  /** Rows of the tile grid. */
  tilesY: number;
}

const PLACEHOLDER_BYTES = 64;

type MaybeMesh = Object3D & { isLight?: boolean; material?: { transparent?: boolean } | { transparent?: boolean }[] };

/** three.js `Lighting` for a `WebGPURenderer` whose point and spot lights are culled into screen tiles by `@cuttle/gpu-culling` each frame, each pixel then shading only its tile's lights through three's own lighting model. Other lights (directional, hemisphere, ambient, shadow casters) stay on three's usual path. Set `renderer.lighting` to it and call `update(scene, camera)` before each render. */
export class CulledLighting extends Lighting {
  /** The culling; `culler.read()` gives the tiles of the last update (tests, statistics). */
  readonly culler: TileCuller;
  /** Most culled lights the scene may hold (the culling's entity capacity), as given in the options. */
  readonly maxLights: number;
  readonly #renderer: WebGPURenderer;
  readonly #device: GPUDevice;
  readonly #words: Float32Array;
  readonly #depthMaterial = new MeshBasicNodeMaterial({ colorWrite: false });
  readonly #source: CulledTiles;
  readonly #placeholder: GPUBuffer;
  readonly #transparent: Object3D[] = [];
  readonly #opaque: Object3D[] = [];
  #transparentCuller: TileCuller | undefined;
  #transparentTiles: StorageNode | undefined;
  #transparentTileBuffer: GPUBuffer | undefined;
  readonly #options: CulledLightingOptions;
  readonly #size = new Vector2();
  #tiles: StorageNode;
  #tileBuffer: GPUBuffer;
  #depthTarget: RenderTarget | undefined;
  #stats: CulledLightingStats = { culledLights: 0, tilesX: 0, tilesY: 0 };
  readonly #nodes = new Set<CulledLightsNode>();

  /** `renderer` must be initialized (`await renderer.init()`); set `renderer.lighting = this` after. */
  constructor(renderer: WebGPURenderer, options: CulledLightingOptions = {}) {
    super();
    const device = deviceOf(renderer);
    const maxLights = options.maxLights ?? 4096;
    if (!Number.isInteger(maxLights) || maxLights < 1) throw new ThreeError(`maxLights must be a positive integer, got ${maxLights}.`);
    try {
      this.culler = new TileCuller(device, { maxEntities: maxLights, tileSize: options.tileSize, technique: options.technique, maxPerTile: options.maxPerTile, depthMask: options.depthMask, tileLists: options.tileLists });
    } catch (error) {
      throw new ThreeError(`CulledLighting: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.maxLights = maxLights;
    this.#options = options;
    this.#renderer = renderer;
    this.#device = device;
    this.#words = new Float32Array(this.culler.maxEntities * LIGHT_FLOATS);
    // Until the first update there is no tile buffer: nodes built before then read zeros (no culled light).
    this.#placeholder = device.createBuffer({ label: 'cuttle.three.tiles-placeholder', size: PLACEHOLDER_BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#tileBuffer = this.#placeholder;
    this.#tiles = this.#adoptTiles(this.#placeholder);
    // Four vec4 a light; the CPU side is one vec4 (three binds the whole adopted buffer).
    const entityAttribute = new StorageBufferAttribute(new Float32Array(4), 4);
    adoptGpuBuffer(renderer, entityAttribute, this.culler.entityBuffer);
    const entities = storage(entityAttribute, 'vec4', this.culler.maxEntities * 4).toReadOnly();
    const tiles = (): StorageNode => this.#tiles;
    // Until a scene with transparent objects is culled, transparent materials walk the opaque tiles.
    const transparentTiles = (): StorageNode => this.#transparentTiles ?? this.#tiles;
    this.#source = {
      technique: this.culler.technique,
      tileSize: this.culler.tileSize,
      wordsPerTile: this.culler.wordsPerTile,
      maskWords: this.culler.maskWords,
      entities,
      tiles,
      transparentTiles,
      tilesX: uniform(1, 'uint'),
      lights: uniform(0, 'uint'),
    };
  }

  /** The counts of the last update. */
  get stats(): CulledLightingStats {
    return { ...this.#stats };
  }

  /** Called by the renderer: a lights node that shades culled lights from the tiles. */
  override createNode(lights: Light[] = []): CulledLightsNode {
    const node = new CulledLightsNode(this.#source);
    node.setLights(lights);
    this.#nodes.add(node);
    return node;
  }

  /**
   * Before `renderer.render(scene, camera)`: renders the scene's opaque depth (a prepass into a
   * target of the render's size, transparent objects left out), gathers the point and spot
   * lights three would shade (visible, on the camera's layers; see isCulledLight for which stay
   * with three) and culls them into tiles. Throws ThreeError, before anything is rendered, when
   * the scene has more culled lights than maxLights.
   */
  update(scene: Scene, camera: Camera): void {
    const renderer = this.#renderer;
    if (scene.matrixWorldAutoUpdate) scene.updateMatrixWorld();
    if (camera.parent === null && camera.matrixWorldAutoUpdate) camera.updateMatrixWorld();
    const count = this.#gather(scene, camera);
    try {
      if (count > this.maxLights) {
        throw new ThreeError(`the scene has ${count} point and spot lights to cull, more than maxLights (${this.maxLights}): create CulledLighting with maxLights of at least ${count}.`);
      }
      const target = renderer.getRenderTarget();
      const [width, height] = target ? [target.width, target.height] : renderer.getDrawingBufferSize(this.#size).toArray();
      const depthTarget = this.#depthTargetOf(width, height);
      const lights = { words: new Uint32Array(this.#words.buffer, 0, count * LIGHT_FLOATS), counts: { decals: 0, probes: 0, lights: count } };

      this.#depthOnly(scene, camera, depthTarget, this.#transparent, true);
      const depth = gpuTextureOf(renderer, depthTarget.depthTexture!);
      if (!depth) throw new ThreeError('three did not create the depth prepass texture.');
      this.#cull(this.culler, camera, lights, depth);
      if (this.culler.tileBuffer !== this.#tileBuffer) {
        // The resolution grew: three binds the new tile buffer, and lit materials are built again.
        this.#tileBuffer = this.culler.tileBuffer;
        this.#tiles = this.#adoptTiles(this.culler.tileBuffer);
        this.#rebuildMaterials();
      }

      if (this.#transparent.length > 0) {
        // The transparent objects' depth over the opaque depth (the opaque tiles are culled
        // already: the queue runs that first), then the transparent materials' tiles.
        this.#depthOnly(scene, camera, depthTarget, this.#opaque, false);
        const culler = this.#transparentCullerOf();
        this.#cull(culler, camera, lights, depth);
        if (culler.tileBuffer !== this.#transparentTileBuffer) {
          this.#transparentTileBuffer = culler.tileBuffer;
          this.#transparentTiles = this.#adoptTiles(culler.tileBuffer);
          this.#rebuildMaterials();
        }
      }
      const grid = this.culler.grid!;
      this.#source.tilesX.value = grid.tilesX;
      this.#source.lights.value = count;
      this.#stats = { culledLights: count, tilesX: grid.tilesX, tilesY: grid.tilesY };
    } finally {
      this.#transparent.length = 0;
      this.#opaque.length = 0;
    }
  }

  /** The tiles transparent materials walk (the opaque ones until the scene had transparent objects). */
  get transparentCuller(): TileCuller | undefined {
    return this.#transparentCuller;
  }

  /** Renders the depth of `scene` without `hidden` into `depthTarget`, then puts the scene back as it was. */
  #depthOnly(scene: Scene, camera: Camera, depthTarget: RenderTarget, hidden: readonly Object3D[], clear: boolean): void {
    const renderer = this.#renderer;
    const target = renderer.getRenderTarget();
    const { overrideMaterial, background } = scene;
    const autoClear = renderer.autoClear;
    try {
      for (const object of hidden) object.visible = false;
      scene.overrideMaterial = this.#depthMaterial;
      scene.background = null;
      renderer.autoClear = clear;
      renderer.setRenderTarget(depthTarget);
      renderer.render(scene, camera);
    } finally {
      for (const object of hidden) object.visible = true;
      scene.overrideMaterial = overrideMaterial;
      scene.background = background;
      renderer.autoClear = autoClear;
      renderer.setRenderTarget(target);
    }
  }

  #cull(culler: TileCuller, camera: Camera, lights: { words: Uint32Array; counts: { decals: number; probes: number; lights: number } }, depth: GPUTexture): void {
    culler.setCamera({ view: camera.matrixWorldInverse.elements, projection: camera.projectionMatrix.elements });
    culler.setEntities(lights);
    const encoder = this.#device.createCommandEncoder({ label: 'cuttle.three.culled-lights' });
    culler.cull(encoder, depth);
    this.#device.queue.submit([encoder.finish()]);
  }

  #transparentCullerOf(): TileCuller {
    const options = this.#options;
    this.#transparentCuller ??= new TileCuller(this.#device, { maxEntities: this.maxLights, tileSize: options.tileSize, technique: options.technique, maxPerTile: options.maxPerTile, depthMask: options.depthMask, tileLists: options.tileLists });
    return this.#transparentCuller;
  }

  #rebuildMaterials(): void {
    for (const node of this.#nodes) node.needsUpdate = true;
  }

  /** Frees the culling's GPU buffers and the depth target; the renderer must not use this lighting afterwards. */
  override dispose(): void {
    super.dispose();
    this.#depthTarget?.dispose();
    this.#depthMaterial.dispose();
    this.culler.destroy();
    this.#transparentCuller?.destroy();
    this.#placeholder.destroy();
    this.#nodes.clear();
  }

  /** Writes the culled lights into the entity words (up to capacity), sorts drawn objects into transparent and opaque; returns the lights counted. */
  #gather(scene: Scene, camera: Camera): number {
    const words = this.#words;
    const capacity = this.culler.maxEntities;
    let count = 0;
    scene.traverseVisible((object: MaybeMesh) => {
      if (object.isLight === true) {
        const light = object as unknown as Light;
        if (!isCulledLight(light) || !light.layers.test(camera.layers)) return;
        if (count < capacity) writeLight(words, count * LIGHT_FLOATS, light);
        count++;
      } else if (object.material !== undefined) {
        (isTransparent(object.material) ? this.#transparent : this.#opaque).push(object);
      }
    });
    return count;
  }

  #depthTargetOf(width: number, height: number): RenderTarget {
    let target = this.#depthTarget;
    if (target && (target.width !== width || target.height !== height)) {
      target.dispose();
      target = undefined;
    }
    if (!target) {
      target = new RenderTarget(width, height, { depthBuffer: true });
      target.depthTexture = new DepthTexture(width, height, FloatType);
      this.#depthTarget = target;
    }
    return target;
  }

  /** A u32 storage node that three binds to `buffer` (made by the culling; three never uploads it). */
  #adoptTiles(buffer: GPUBuffer): StorageNode {
    const attribute = new StorageBufferAttribute(new Uint32Array(1), 1);
    adoptGpuBuffer(this.#renderer, attribute, buffer);
    return storage(attribute, 'uint', buffer.size / 4).toReadOnly();
  }
}

function isTransparent(material: NonNullable<MaybeMesh['material']>): boolean {
  if (Array.isArray(material)) return material.some((m) => m.transparent === true);
  return material.transparent === true;
}

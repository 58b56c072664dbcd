// three.js's lights node for culled lights: the point and spot lights @cuttle/gpu-culling put
// in a pixel's tile are shaded by three's own lighting model (the material's BRDF, three's
// distance attenuation and spot cone), so a MeshStandardNodeMaterial lit this way matches the
// same lights added to three the usual way. Every other light (the sun, shadow casters, hemisphere
// and ambient lights) stays on three's per-light path.
import { Break, directPointLight, dot, float, If, Loop, positionView, screenCoordinate, select, smoothstep, uint, vec4, cameraViewMatrix, countTrailingZeros, Fn } from 'three/tsl';
import { LightsNode, NodeUtils, type Light, type Node, type NodeBuilder, type StorageBufferNode, type UniformNode } from 'three/webgpu';
import type { LightingNode } from 'three/webgpu';
import { isCulledLight } from './culled-light-data.ts';

/** What the node reads: the culled tiles and lights, owned by CulledLighting and shared by its nodes. */
export interface CulledTiles {
  technique: 'flat-bits' | 'compaction';
  tileSize: number;
  wordsPerTile: number;
  /** Flat bits: words of bucket mask in front of each tile's buckets. */
  maskWords: number;
  /** The entity array (four vec4 a light). */
  entities: StorageBufferNode<'vec4'>;
  /** The tile buffer of the latest cull (a new node when the resolution grew). */
  tiles(): StorageNode;
  /** The tiles transparent materials walk: culled against the nearest transparent surface. */
  transparentTiles(): StorageNode;
  /** Tiles per row, and lights culled, of the latest cull. */
  tilesX: UintUniform;
  lights: UintUniform;
}

interface ReflectedLight {
  directDiffuse: Node;
  directSpecular: Node;
}

// @types/three 0.187 declares `lightViewPosition`; three r187's directPointLight reads `lightVector`
// (the surface-to-light vector in view space), as its own PointLightNode passes it.
const pointLight = directPointLight as unknown as (light: { color: Node; lightVector: Node; cutoffDistance: Node; decayExponent: Node }) => DirectLight;

type DirectLight = Parameters<LightsNode['setupDirectLight']>[2];

// countTrailingZeros of a u32 is a u32 (@types/three 0.187 types it as a node of its own).
const trailingZeros = countTrailingZeros as unknown as (value: Node<'uint'>) => Node<'uint'>;

// Loop(condition, body) is a while loop at run time; @types/three 0.187 types only counted loops.
const whileLoop = Loop as unknown as (condition: Node<'bool'>, body: () => void) => void;

export type StorageNode = StorageBufferNode<'uint'>;
type UintUniform = UniformNode<'uint'>;
type U32 = Node<'uint'>;

/** The lights node {@link CulledLighting} gives three: shades the culled point and spot lights in the pixel's tile with three's BRDF, attenuation and spot cone, and leaves every other light to three. Made by `CulledLighting.createNode`; not meant to be constructed directly. */
export class CulledLightsNode extends LightsNode {
  /** Always true: tells this node from three's own `LightsNode`. */
  readonly isCulledLightsNode = true;
  /** Lights three shades its own way. */
  readonly builtinLights: Light[] = [];
  readonly #source: CulledTiles;

  constructor(source: CulledTiles) {
    super();
    this.#source = source;
  }

  /** three's cache key of the node, with its id and version, so a new tile buffer makes a new shader program. */
  override customCacheKey(): number {
    // The tile storage is part of the shader's bindings: a new one is a new program.
    return NodeUtils.hash(this.id, this.version, super.customCacheKey());
  }

  /** Takes the scene's lights; those that are not culled (see `builtinLights`) are kept for three to shade. */
  override setLights(lights: Light[]): this {
    let builtin = 0;
    for (const light of lights) if (!isCulledLight(light)) this.builtinLights[builtin++] = light;
    this.builtinLights.length = builtin;
    return super.setLights(lights);
  }

  /** The lights three shades its own way: every light that is not a culled point or spot light. */
  override getBuiltinLights(): Light[] {
    return this.builtinLights;
  }

  /** Builds the shader: three's per-light path for the builtin lights, then a loop over the pixel's tile shading each culled light. */
  override setupLights(builder: NodeBuilder, lightNodes: LightingNode[]): void {
    const reflected = (builder.context as { reflectedLight?: ReflectedLight }).reflectedLight;
    if (reflected) {
      // Declared before the loop, so each light's contribution adds to the same variables.
      reflected.directDiffuse.toStack();
      reflected.directSpecular.toStack();
    }
    super.setupLights(builder, lightNodes);
    if (!reflected) return;
    const { technique, tileSize, wordsPerTile, maskWords, tilesX, lights } = this.#source;
    const transparent = (builder as { material?: { transparent?: boolean } }).material?.transparent === true;
    const tiles = transparent ? this.#source.transparentTiles() : this.#source.tiles();
    const shade = (entity: U32): void => { this.#shadeLight(builder, entity); };
    Fn(() => {
      const pixel = screenCoordinate.xy.div(tileSize).floor();
      const tile = uint(pixel.y).mul(tilesX).add(uint(pixel.x));
      const base = tile.mul(wordsPerTile).toVar();
      if (technique === 'compaction') walkList(tiles, base, shade);
      else walkFlat(tiles, base, maskWords, lights, shade);
    }, 'void')();
  }

  /** One light's contribution through three's lighting model, as three's PointLightNode and SpotLightNode give it. */
  #shadeLight(builder: NodeBuilder, entity: U32): void {
    const entities = this.#source.entities;
    const at = entity.mul(4);
    const v0 = entities.element(at).toVar();
    const v1 = entities.element(at.add(1)).toVar();
    const v2 = entities.element(at.add(2)).toVar();
    const v3 = entities.element(at.add(3));
    const lightPosition = cameraViewMatrix.mul(vec4(v0.xyz, 1)).xyz;
    const lightVector = lightPosition.sub(positionView).toVar();
    const range = v0.w;
    If(dot(lightVector, lightVector).lessThan(range.mul(range)), () => {
      // Point lights store cos(cone) = -1; a spot's is above 0 (its half-angle is below 90°).
      const axis = cameraViewMatrix.mul(vec4(v1.xyz, 0)).xyz;
      const cone = smoothstep(v1.w, v2.w, dot(lightVector.normalize().negate(), axis));
      const attenuation = select(v1.w.greaterThan(-0.5), cone, float(1));
      // The lights node stands for every culled light, as ClusteredLightsNode does in three's addons.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
      this.setupDirectLight(builder, this, pointLight({ color: v2.xyz.mul(attenuation), lightVector, cutoffDistance: range, decayExponent: v3.y }));
    });
  }
}

/** Compaction: a statistics word (lights in bits 20-29), then the tile's light indices. */
function walkList(tiles: StorageNode, base: U32, shade: (entity: U32) => void): void {
  const count = tiles.element(base).shiftRight(20).bitAnd(0x3ff);
  Loop({ start: uint(0), end: count, type: 'uint', condition: '<' }, ({ i }) => {
    shade(tiles.element(base.add(1).add(i)));
  });
}

/**
 * Flat bits: a tile is a list where its lights fit in its words (header bit 31 and each kind's
 * count, decals | probes << 10 | lights << 20 in 10, 10 and 11 bits, then the indices) and bits otherwise (header 0,
 * then mask words and buckets).
 */
function walkFlat(tiles: StorageNode, base: U32, maskWords: number, lights: UintUniform, shade: (entity: U32) => void): void {
  const header = tiles.element(base).toVar();
  If(header.bitAnd(LIST_FORM).notEqual(0), () => {
    // Decals and probes come first in a list; culled lights follow them.
    const first = base.add(1).add(header.bitAnd(0x3ff)).add(header.shiftRight(10).bitAnd(0x3ff)).toVar();
    Loop({ start: uint(0), end: header.shiftRight(20).bitAnd(0x7ff), type: 'uint', condition: '<' }, ({ i }) => {
      shade(tiles.element(first.add(i)));
    });
  }).Else(() => {
    walkBits(tiles, base.add(1), maskWords, lights, shade);
  });
}

/** The header bit of a flat-bits tile written as a list. */
const LIST_FORM = 0x8000_0000;

/**
 * Flat bits, bits form: mask words say which 32-light buckets hold lights, the buckets say which lights.
 * countTrailingZeros finds each set bit; clearing the lowest bit moves on, so empty buckets are
 * never read.
 */
function walkBits(tiles: StorageNode, base: U32, maskWords: number, lights: UintUniform, shade: (entity: U32) => void): void {
  Loop({ start: 0, end: maskWords, type: 'uint' }, ({ i }) => {
    const mask = tiles.element(base.add(i)).toVar();
    whileLoop(mask.notEqual(0), () => {
      const bucket = i.mul(32).add(trailingZeros(mask)).toVar();
      mask.assign(mask.bitAnd(mask.sub(1)));
      const bits = tiles.element(base.add(maskWords).add(bucket)).toVar();
      whileLoop(bits.notEqual(0), () => {
        const entity = bucket.mul(32).add(trailingZeros(bits)).toVar();
        bits.assign(bits.bitAnd(bits.sub(1)));
        If(entity.greaterThanEqual(lights), () => {
          Break();
        });
        shade(entity);
      });
    });
  });
}

// What each compiled resource's container header holds (the `meta` of runtime/container.ts).
// The compiler writes these, the runtime reads them; both import this file.
import { murmurHash2 } from '@cuttle/tools-merge';
import type { TextureUsage } from '../textures/texture-usage.ts';

/** Bump when any runtime format changes: every output is rebuilt by the next compile. */
export const DATA_FORMAT_VERSION = 10;

/** The 32-bit name hash that stands for a resource inside runtime data. */
export function resourceHash(type: string, name: string): number {
  return murmurHash2(`${type}:${name}`);
}

export type AlphaMode = 'opaque' | 'mask' | 'blend';

/** glTF's metallic-roughness factors, as a material source or a GLB material gives them. */
export interface MaterialFactors {
  baseColor: [number, number, number, number];
  metallic: number;
  roughness: number;
  emissive: [number, number, number];
  alphaMode: AlphaMode;
  alphaCutoff: number;
  normalScale: number;
  doubleSided: boolean;
}

export interface MaterialMeta extends MaterialFactors {
  caustics: boolean;
  /** Names of png resources. */
  baseColorTexture?: string;
  normalTexture?: string;
  /** glTF layout: roughness in green, metallic in blue, multiplying the factors. */
  metallicRoughnessTexture?: string;
  /** Emitted light's colour (sRGB), multiplying `emissive`. */
  emissiveTexture?: string;
  /** Ambient occlusion in red (linear data; may be the metallic-roughness texture: ORM packing). */
  occlusionTexture?: string;
  /** How much the occlusion texture darkens ambient light, 0 to 1 (present with `occlusionTexture`). */
  occlusionStrength?: number;
}

export interface TextureMeta {
  width: number;
  height: number;
  /** Mip levels in the file: the full chain, down to 1x1. */
  levels: number;
  /** What the texture is for: colour (sRGB, ETC1S), a normal map or data (both linear, UASTC). */
  usage: TextureUsage;
  /** Whether any texel is not opaque (picks a transcode target with alpha). */
  alpha: boolean;
  /**
   * 'basis': section `ktx2`, a KTX2 file, Basis Universal supercompressed, levels largest first.
   * 'rgba8': a draft the watch loop wrote in milliseconds: section `rgba` (level 0, top row first),
   * its mips made on the GPU at load; the next compile without --watch compresses it.
   */
  codec: 'basis' | 'rgba8';
  /**
   * A GLB's embedded image: what it was compiled from (the image's content hash, the usage, draft
   * or final, the data format version), so a recompile of the GLB reuses it when that is unchanged.
   */
  source?: string;
}

export interface StaticMeshMeta {
  kind: 'static';
  vertexCount: number;
  /**
   * Sections, quantised as @cuttle/render stores them: positions (u16, unorm16 xyzw over the
   * group's positionRange), normals (u8 holding snorm8 xyzw), uvs (u16, unorm16 over the group's
   * uvRange); indices (u32, each group's relative to its first vertex), `lods` (u32, every group's levels, likewise), `texture<i>` (the i-th texture's KTX2,
   * or RGBA8 for a draft).
   */
  bounds: { min: [number, number, number]; max: [number, number, number] };
  /** The primitives grouped by glTF material, one draw each, in material order (no material last). */
  groups: MeshGroupMeta[];
  /** The GLB's own materials, which a unit without a `material` draws the groups with. */
  materials: MeshMaterialMeta[];
  /** The GLB's embedded images the materials use, compiled as the png resources are. */
  textures: TextureMeta[];
}

export interface MeshGroupMeta {
  /** Index into `materials`; -1: the primitives had none (glTF's default material). */
  material: number;
  /** How the group's unorm16 positions map back: offset xyz, one scale w (render's quantizePositions). */
  positionRange: [number, number, number, number];
  /** How its unorm16 uvs map back: offset xy, scale zw. */
  uvRange: [number, number, number, number];
  /** The group's vertices: a range of the vertex sections. */
  firstVertex: number;
  vertexCount: number;
  /** The group's triangles: a range of `indices`. */
  firstIndex: number;
  indexCount: number;
  /**
   * Levels of detail over the group's vertices, finest first (none for a small group): each one
   * a range of the `lods` section, with its geometric error in the mesh's units.
   */
  lods: { error: number; firstIndex: number; indexCount: number }[];
}

/** A glTF metallic-roughness material of a GLB: MaterialMeta with textures named by index. */
export interface MeshMaterialMeta extends MaterialFactors {
  /** The glTF material's name, or `material <index>`. */
  name: string;
  /** Index into the mesh's `textures`. */
  baseColorTexture?: number;
  normalTexture?: number;
  metallicRoughnessTexture?: number;
  /** The emissive texture (colour usage), multiplying `emissive`. */
  emissiveTexture?: number;
  /** The occlusion texture (data usage; the metallic-roughness texture's index when they share the image). */
  occlusionTexture?: number;
  /** glTF's occlusion strength, 0 to 1 (present with `occlusionTexture`). */
  occlusionStrength?: number;
}

export interface ClipChannelMeta {
  node: number;
  path: 'translation' | 'rotation' | 'scale';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Section names of the key times and values. */
  times: string;
  values: string;
}

export interface SkinnedMeshMeta {
  kind: 'skinned';
  vertexCount: number;
  bonesUsed: number;
  jointCount: number;
  /** The bind pose's box, in the mesh's units (what the runtime's bounding spheres start from). */
  bounds: { min: [number, number, number]; max: [number, number, number] };
  /**
   * Levels of detail over the mesh's vertices, finest first (none under 256 triangles): each a
   * range of the `lods` section, with its geometric error in the mesh's units.
   */
  lods: { error: number; firstIndex: number; indexCount: number }[];
  /** Sections: positionNormal, tangent, bones (packed @cuttle/gpu-skinning streams), indices,
   * `lods` (u32, every level's indices, when there are levels), skeleton parents (i32),
   * translations, rotations, scales, inverseBind (f32), joints (u32). */
  clips: { name: string; channels: ClipChannelMeta[] }[];
}

export type MeshMeta = StaticMeshMeta | SkinnedMeshMeta;

export interface FontMeta {
  size: number;
  spread: number;
  /** Section `fnt`: the BMFont (AngelCode text, which keeps the distanceField block); `page<i>`: single-channel distance-field pages. */
  pages: { width: number; height: number }[];
}

export interface UnitMeta {
  mesh?: string;
  /** Draws every group of the mesh; without it, the mesh's own materials are drawn. */
  material?: string;
  flow?: string;
  light?: { color: [number, number, number]; range: number; intensity: number };
  character?: { speed: number; radius: number };
}

export interface LevelUnitInfo {
  id: string;
  unit: string;
}

export interface LevelMeta {
  flow?: string;
  font?: string;
  title?: { text: string; x: number; y: number; size: number };
  sun: { direction: [number, number, number]; color: [number, number, number]; intensity: number };
  camera: { position: [number, number, number]; target: [number, number, number] };
  fluid?: { particles: number; min: [number, number, number]; max: [number, number, number]; color: [number, number, number] };
  ambient?: number;
  /** Placed units in archive order (their `unit` component's `id` indexes this). */
  units: LevelUnitInfo[];
  /** Resource hash (decimal) → "type:name", for every hash in the archive. */
  names: Record<string, string>;
  /** Section `ecs`: the @cuttle/ecs archive. */
}

export interface PackageMeta {
  resources: { type: string; name: string }[];
}

export interface FlowMeta {
  kind: 'unit' | 'level';
  /** Node type of each node, in source order (node index): the engine names pins with the registry for the debugging tool. */
  nodes?: string[];
  /** Section `blob`: the @cuttle/flow program. */
}

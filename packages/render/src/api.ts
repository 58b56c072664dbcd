import type { CompressedTextureFormat } from './scene/texture-formats.ts';

/** A point or direction. */
export type Vec3 = readonly [number, number, number];

/** A 4x4 matrix in column-major order (WebGPU, glTF): `m[column * 4 + row]`. */
export type Mat4 = ArrayLike<number>;

/** glTF's alpha modes: opaque, alpha-tested against `alphaCutoff`, or blended (transparent). */
export type AlphaMode = 'opaque' | 'mask' | 'blend';

/** Geometry in: positions and normals (xyz), optional uvs (xy) and tangents (xyzw), triangle indices. */
export interface MeshInput {
  /** Vertex positions, xyz per vertex. */
  positions: Float32Array;
  /** Vertex normals, xyz per vertex (unit length). */
  normals: Float32Array;
  /** Texture coordinates, xy per vertex (needed by textured materials). */
  uvs?: Float32Array;
  /** Tangents, xyzw per vertex (w: the bitangent's sign), for normal maps. */
  tangents?: Float32Array;
  /** Triangle list, three vertex indices per triangle. */
  indices: Uint32Array | Uint16Array;
  /**
   * Coarser versions of the mesh over the same vertices (as meshoptimizer's simplifier makes
   * them), finest first. The renderer draws, per instance and frame, the coarsest whose `error`
   * covers at most `Renderer.lodErrorPixels` on screen (default 1 px).
   */
  lods?: readonly MeshLodInput[];
}

/**
 * A mesh whose vertices come quantised as the renderer stores them (for data compiled offline):
 * positions and uvs as unorm16 over their ranges (`quantizePositions`, `quantizeUvs`), normals
 * and tangents as snorm8 (`packSnorm8x4`). Uploaded as they are, with no per-vertex work unless
 * tangents must be derived.
 */
export interface QuantizedMeshInput {
  /** Positions as unorm16, xyzw per vertex (w unused): position = xyz + q / 65535 * w of `positionRange`. */
  positions: Uint16Array;
  /** How positions map back: offset xyz and one scale w (positive). */
  positionRange: readonly [number, number, number, number];
  /** Normals as snorm8, xyzw per vertex (w 0), as `packSnorm8x4(normals, 3)` writes them. */
  normals: Int8Array;
  /** Uvs as unorm16, xy per vertex: uv = xy + q / 65535 * zw of `uvRange` (default zeros). */
  uvs?: Uint16Array;
  /** How uvs map back: offset xy and scale zw (positive); needed with `uvs`. */
  uvRange?: readonly [number, number, number, number];
  /** Tangents as snorm8, xyzw per vertex (w: the bitangent's sign); derived from the uvs when missing. */
  tangents?: Int8Array;
  /** Triangle list, three vertex indices per triangle. */
  indices: Uint32Array | Uint16Array;
  /** Coarser levels over the same vertices, finest first (see {@link MeshInput.lods}). */
  lods?: readonly MeshLodInput[];
}

/** One level of detail of a mesh: its triangles, and how far they may stray from the full mesh. */
export interface MeshLodInput {
  /** Triangle indices into the mesh's vertices (fewer than the level before). */
  indices: Uint32Array | Uint16Array;
  /**
   * Geometric error: the farthest this level's surface lies from the full mesh's, in the mesh's
   * object-space units (meshoptimizer's simplify error, times its scale); at least the level before's.
   */
  error: number;
}

/** A texture in: RGBA8 pixels (row-major, top row first), or anything copyExternalImageToTexture takes in a browser. */
export type TextureInput = { width: number; height: number; data: Uint8Array<ArrayBuffer> } | ImageBitmap;

/**
 * A texture whose levels are already in the format the GPU samples, as a KTX2 / Basis Universal
 * transcoder or a DDS file gives them: no mips are made, the levels given are the chain.
 */
export interface CompressedTextureInput {
  /** A BC, ETC2, EAC or ASTC 4x4 format (the device needs its texture-compression feature), or RGBA8. */
  format: CompressedTextureFormat;
  /** Size of level 0 in texels; a block format needs multiples of its block (4). */
  width: number;
  /** Height of level 0 in texels; a block format needs a multiple of 4. */
  height: number;
  /**
   * Mip levels, largest first, each exactly that level's bytes: rows of blocks, top row first.
   * One level up to the full chain down to 1x1; sampling stops at the last one given.
   */
  levels: readonly Uint8Array<ArrayBuffer>[];
}

/** How `addTexture` stores a texture. */
export interface TextureOptions {
  /** Colour: an -srgb format, filtered in linear light (default false: linear data). */
  srgb?: boolean;
  /** A tangent-space normal map: its mip levels are renormalized. Not with srgb. */
  normalMap?: boolean;
  /** A full mip chain made on the GPU (default true); false keeps one level. */
  mipmaps?: boolean;
}

/** glTF's metallic-roughness material, plus the water flag for caustics. */
export interface MaterialInput {
  /** Linear RGBA (default 1, 1, 1, 1); multiplies the base colour texture. */
  baseColor?: readonly [number, number, number, number];
  /** Texture index (from `addTexture`) of the base colour, sampled with the mesh's uvs; add it with `srgb: true`. */
  baseColorTexture?: number;
  /** Metalness, 0 to 1 (default 0); multiplies the metallic-roughness texture's blue. */
  metallic?: number;
  /** Perceptual roughness, 0 to 1 (default 0.8); multiplies the metallic-roughness texture's green. */
  roughness?: number;
  /** glTF layout: roughness in green, metallic in blue. */
  metallicRoughnessTexture?: number;
  /** Texture index of a tangent-space normal map (needs tangents); add it with `normalMap: true`. */
  normalTexture?: number;
  /** Scale of the normal map's x and y (default 1). */
  normalScale?: number;
  /** Emitted light, linear RGB (default 0, 0, 0); multiplies the emissive texture. */
  emissive?: Vec3;
  /**
   * Texture index of the emitted light's colour (glTF's emissiveTexture), multiplied by
   * `emissive`, so with the default emissive of 0 it gives no light; add it with `srgb: true`.
   */
  emissiveTexture?: number;
  /**
   * Texture index of ambient occlusion in red (glTF's occlusionTexture; add it linear, without
   * `srgb`). It darkens ambient and indirect light only, not the lights'. It may be the
   * `metallicRoughnessTexture` itself (glTF's "ORM" packing: occlusion, roughness, metallic).
   */
  occlusionTexture?: number;
  /** How much the occlusion texture darkens, 0 to 1 (default 1): occlusion = 1 + strength * (red - 1). */
  occlusionStrength?: number;
  /** Opaque (default), alpha-tested (`'mask'`) or blended (`'blend'`, drawn in the transparent pass). */
  alphaMode?: AlphaMode;
  /** With `'mask'`: fragments with base colour alpha below it are discarded (default 0.5). */
  alphaCutoff?: number;
  /** Draw back faces too, with the normal flipped (default false: back faces are culled). */
  doubleSided?: boolean;
  /**
   * Water: its shadow writes the slope of its normal map into the shadow filter's alpha, which
   * adds light under it (the post's caustics). Blended materials only.
   */
  caustics?: boolean;
}

/** The sun: a directional light with an orthographic shadow map fitted to the scene. */
export interface DirectionalLightInput {
  /** Direction the light travels (from the sun towards the scene). */
  direction: Vec3;
  /** Linear RGB colour of the light. */
  color: Vec3;
  /** Multiplies the colour (default 1). */
  intensity?: number;
  /** Cast a shadow map (default true). */
  shadows?: boolean;
}

/** A spot light with a shadow map (a few per scene; the culled lights carry no shadows). */
export interface ShadowSpotInput {
  /** Position of the light in world space. */
  position: Vec3;
  /** Direction the cone points (need not be unit length; not zero). */
  direction: Vec3;
  /** Distance in world units where the light ends (positive). */
  range: number;
  /** Half-angle of the cone in radians, in (0, pi/2). */
  outerAngle: number;
  /** Half-angle in radians where the falloff to the cone's edge starts, 0 to outerAngle (default 0.8 × outerAngle). */
  innerAngle?: number;
  /** Linear RGB colour of the light. */
  color: Vec3;
  /** Multiplies the colour (default 1). */
  intensity?: number;
}

/** The camera of a frame (right-handed view, WebGPU clip space; reversed Z recommended). */
export interface RenderCamera {
  /** World-to-view matrix (rigid, right-handed), column-major. */
  view: Mat4;
  /** View-to-clip matrix in WebGPU clip space (z in 0 to 1), column-major. */
  projection: Mat4;
}

/**
 * The passes of a frame, in order, as timed by `Renderer.readTimings` ('opaque': the opaque
 * surfaces' G-buffer and the camera's depth; 'depth': the fluids' splat into that depth;
 * 'lighting': the compute pass lighting the G-buffer; 'fluid': the compute pass lighting fluid
 * particles).
 */
export const PASSES = ['skinning', 'shadows', 'opaque', 'depth', 'culling', 'ssao', 'lighting', 'fluid', 'transparent', 'tonemap'] as const;
/** Name of one pass of a frame: an element of {@link PASSES}. */
export type PassName = (typeof PASSES)[number];

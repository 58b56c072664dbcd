import type { CompressedTextureFormat } from './scene/texture-formats.ts';

/** A point or direction. */
export type Vec3 = readonly [number, number, number];

/** A 4x4 matrix in column-major order (WebGPU, glTF): `m[column * 4 + row]`. */
export type Mat4 = ArrayLike<number>;

/** glTF's alpha modes: opaque, alpha-tested against `alphaCutoff`, or blended (transparent). */
export type AlphaMode = 'opaque' | 'mask' | 'blend';

/** Geometry in: positions and normals (xyz), optional uvs (xy) and tangents (xyzw), triangle indices. */
export interface MeshInput {
  positions: Float32Array;
  normals: Float32Array;
  uvs?: Float32Array;
  tangents?: Float32Array;
  indices: Uint32Array | Uint16Array;
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
  baseColorTexture?: number;
  metallic?: number;
  roughness?: number;
  /** glTF layout: roughness in green, metallic in blue. */
  metallicRoughnessTexture?: number;
  normalTexture?: number;
  normalScale?: number;
  emissive?: Vec3;
  alphaMode?: AlphaMode;
  alphaCutoff?: number;
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
  color: Vec3;
  intensity?: number;
  shadows?: boolean;
}

/** A spot light with a shadow map (a few per scene; the culled lights carry no shadows). */
export interface ShadowSpotInput {
  position: Vec3;
  direction: Vec3;
  range: number;
  /** Half-angle of the cone in radians, in (0, pi/2). */
  outerAngle: number;
  innerAngle?: number;
  color: Vec3;
  intensity?: number;
}

/** The camera of a frame (right-handed view, WebGPU clip space; reversed Z recommended). */
export interface RenderCamera {
  view: Mat4;
  projection: Mat4;
}

/**
 * The passes of a frame, in order, as timed by `Renderer.readTimings` ('opaque': the opaque
 * surfaces' G-buffer and the camera's depth; 'depth': the fluids' splat into that depth;
 * 'lighting': the compute pass lighting the G-buffer; 'fluid': the compute pass lighting fluid
 * particles).
 */
export const PASSES = ['skinning', 'shadows', 'opaque', 'depth', 'culling', 'ssao', 'lighting', 'fluid', 'transparent', 'tonemap'] as const;
export type PassName = (typeof PASSES)[number];

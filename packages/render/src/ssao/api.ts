// The types of the SSAO pass and of normal reconstruction from depth.
import type { Mat4 } from '../api.ts';

/**
 * How a pixel's normal is rebuilt from the depth buffer. `naive`: the triangle of the pixel and
 * its right and upper neighbours (the cross product of screen-space derivatives), which breaks
 * along one side of every silhouette. `improved`: per axis, the neighbour whose view-space depth
 * is closer to the pixel's (the post's improvement), so the triangle stays on one surface.
 */
export type NormalMethod = 'improved' | 'naive';

/** Every {@link NormalMethod}, the recommended one first. */
export const NORMAL_METHODS: readonly NormalMethod[] = ['improved', 'naive'];

/** The camera that rendered the depth buffer: column-major, right-handed view, WebGPU clip depth 0..1. */
export interface SsaoCamera {
  /** World-to-view matrix (rigid, right-handed), column-major. */
  view: Mat4;
  /** View-to-clip matrix (WebGPU clip depth 0 to 1, standard or reversed Z), column-major. */
  projection: Mat4;
}

/** Where a pass writes GPU timestamps: at the start of its first compute pass and the end of its last (either may be left out). */
export interface SsaoTimestamps {
  /** The timestamp query set to write into. */
  querySet: GPUQuerySet;
  /** Query written at the start of the pass's first compute pass (none when left out). */
  beginIndex?: number;
  /** Query written at the end of the pass's last compute pass (none when left out). */
  endIndex?: number;
}

/** The space normals are written in: the camera's view space (what SSAO uses), or world space. */
export type NormalSpace = 'view' | 'world';

/** What {@link NormalReconstructionPass} reads and writes in one run. */
export interface NormalReconstructionInput {
  /** A single-sampled 2D depth texture with TEXTURE_BINDING (depth16unorm, depth24plus, depth32float or a stencil variant: the depth aspect is read). */
  depth: GPUTexture;
  /** The camera that rendered `depth`. */
  camera: SsaoCamera;
  /**
   * rgba16float or rgba32float with STORAGE_BINDING, the size of `depth`: xyz the unit normal
   * (facing the camera), w 1 on a surface; 0, 0, 0, 0 where the depth is the far value (no surface).
   */
  output: GPUTexture;
  /** Default 'view'. */
  space?: NormalSpace;
  /** Where to write GPU timestamps, if anywhere. */
  timestamps?: SsaoTimestamps;
}

/** Options of the SSAO pass: only `normals` is required; the rest default to {@link SSAO_DEFAULTS}. */
export interface SsaoOptions {
  /** How normals are rebuilt from the depth buffer (`'improved'` recommended). */
  normals: NormalMethod;
  /** Radius of the sampled hemisphere in view-space units (metres). Default 0.5. */
  radius?: number;
  /** Samples per pixel, 1..64. Default 16. */
  samples?: number;
  /** Exponent (greater than 0) on the unoccluded fraction: `ao = (1 - occlusion) ^ strength`. Default 1. */
  strength?: number;
  /** How far (view-space units) the depth buffer must lie in front of a sample to occlude it. Default 0.025. */
  bias?: number;
  /** A depth-aware 4x4 blur that removes the 4x4 rotation noise. Default true. */
  blur?: boolean;
}

/** What {@link SsaoPass} reads and writes in one run. */
export interface SsaoRunInput {
  /** The depth buffer: a single-sampled 2D depth texture with TEXTURE_BINDING (a format of {@link SSAO_DEPTH_FORMATS}). */
  depth: GPUTexture;
  /** The camera that rendered `depth`. */
  camera: SsaoCamera;
  /**
   * r32float, rgba16float or rgba8unorm with STORAGE_BINDING, the size of `depth`. AO in [0, 1]
   * (1 = unoccluded, also where there is no surface) is written to every channel (alpha 1).
   */
  output: GPUTexture;
  /** Where to write GPU timestamps, if anywhere. */
  timestamps?: SsaoTimestamps;
}

/** Depth formats the passes read (the depth aspect of the stencil variants). */
export const SSAO_DEPTH_FORMATS: readonly GPUTextureFormat[] = ['depth16unorm', 'depth24plus', 'depth24plus-stencil8', 'depth32float', 'depth32float-stencil8'];
/** Formats `NormalReconstructionPass` writes. */
export const NORMAL_OUTPUT_FORMATS: readonly GPUTextureFormat[] = ['rgba16float', 'rgba32float'];
/** Formats `SsaoPass` writes. */
export const SSAO_OUTPUT_FORMATS: readonly GPUTextureFormat[] = ['r32float', 'rgba16float', 'rgba8unorm'];
/** Most samples per pixel. */
export const SSAO_MAX_SAMPLES = 64;

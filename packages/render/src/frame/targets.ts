// The frame-sized textures the built-in passes share, as frame graph resources: their names
// (what user passes read and write), their descriptions, and one object holding this frame's
// GPU textures for the helpers that draw into them (kept while the textures stay the same, so
// the bind groups made for it stay valid).
import type { TextureDesc } from '../graph/resources.ts';

/** Names of the frame graph's built-in resources. */
export const RESOURCES = {
  /** The camera's depth (depth32float; reversed-Z when the camera's projection is). */
  depth: 'depth',
  /** Linear HDR colour (rgba16float) the lighting, fluid and transparents write, tone mapping reads. */
  hdr: 'hdr',
  /** Screen-space motion vectors (rgba16float, x and y). */
  motion: 'motion',
  /** Ambient occlusion (r32float), bound in every lit pass. */
  ambientOcclusion: 'ambient-occlusion',
  /** The deferred path's G-buffer: packed surfaces (rg32uint) and emission (rgba16float). */
  gbufferSurfaces: 'gbuffer-surfaces',
  gbufferEmissive: 'gbuffer-emissive',
  /** The shadow maps (depth32float array), their colour filters (rgba8unorm array) and the transparent shadow maps. */
  shadowMaps: 'shadow-maps',
  shadowFilters: 'shadow-filters',
  transparentShadowMaps: 'transparent-shadow-maps',
  /** The culled lights per tile (the TileCuller's buffer). */
  lightTiles: 'light-tiles',
  /** The caller's target: the tone-mapped frame lands here. */
  target: 'target',
} as const;

export const DEPTH_FORMAT: GPUTextureFormat = 'depth32float';
/** Motion vectors (x, y; z and w spare): a format compute can write, for still_motion. */
export const MOTION_FORMAT: GPUTextureFormat = 'rgba16float';

export function frameTexture(width: number, height: number, format: GPUTextureFormat): TextureDesc {
  return { kind: 'texture', width, height, format };
}

/** This frame's textures, for the helpers (forward+, fluids) that draw into them. */
export interface Targets {
  width: number;
  height: number;
  depth: GPUTexture;
  hdr: GPUTexture;
  motion: GPUTexture;
  ambientOcclusion: GPUTexture;
  /** The deferred path's G-buffer (absent on the forward path). */
  gbuffer: { surfaces: GPUTexture; emissive: GPUTexture } | undefined;
}

/** Hands out one Targets object while its textures stay the same (the helpers key their bind groups on it). */
export class TargetsMemo {
  #last: Targets | undefined;

  get last(): Targets | undefined {
    return this.#last;
  }

  /** `parts`, or the last object when it holds the same textures. */
  of(parts: Targets): Targets {
    const last = this.#last;
    if (last?.width === parts.width && last.height === parts.height && last.depth === parts.depth && last.hdr === parts.hdr && last.motion === parts.motion && last.ambientOcclusion === parts.ambientOcclusion
      && last.gbuffer?.surfaces === parts.gbuffer?.surfaces && last.gbuffer?.emissive === parts.gbuffer?.emissive) return last;
    this.#last = parts;
    return this.#last;
  }
}

// Packs the forward passes' Frame uniform (see shaders/forward.wgsl).
import type { RenderScene } from './scene/render-scene.ts';

export const FRAME_BYTES = 832;
const SPOT_FLOATS = 28;

export interface FrameInputs {
  clipFromWorld: ArrayLike<number>;
  previousClipFromWorld: ArrayLike<number>;
  sunClipFromWorld: ArrayLike<number>;
  spotClipFromWorld: ArrayLike<number>[];
  cameraPosition: readonly number[];
  exposure: number;
  ambient: readonly number[];
  ambientOcclusion: boolean;
  width: number;
  height: number;
  shadowTexel: number;
  caustics: number;
  transparentShadows: 0 | 1;
  /** Whether the camera's depth is reversed (near 1, far 0). */
  reversedZ: boolean;
  /** Whether the G-buffer carries its emissive target (emitted light, material occlusion in alpha). */
  emissive: boolean;
  /** The camera's right and up axes in world space. */
  cameraRight: readonly number[];
  cameraUp: readonly number[];
  /** The inverse of clipFromWorld. */
  worldFromClip: ArrayLike<number>;
}

export function packFrame(scene: RenderScene, inputs: FrameInputs, out: Float32Array<ArrayBuffer> = new Float32Array(FRAME_BYTES / 4)): Float32Array<ArrayBuffer> {
  const words = new Uint32Array(out.buffer);
  out.fill(0);
  out.set(inputs.clipFromWorld, 0);
  out.set(inputs.previousClipFromWorld, 16);
  out.set(inputs.sunClipFromWorld, 32);
  out.set(inputs.cameraPosition, 48);
  out[51] = inputs.exposure;
  const sun = scene.sun;
  if (sun) {
    out.set(sun.direction, 52);
    out[55] = 1;
    out.set(sun.color.map((c) => c * sun.intensity), 56);
    out[59] = sun.shadows ? 1 : 0;
  }
  out.set(inputs.ambient, 60);
  out[63] = inputs.ambientOcclusion ? 1 : 0;
  out[64] = inputs.width;
  out[65] = inputs.height;
  out[66] = inputs.shadowTexel;
  out[67] = inputs.caustics;
  words[68] = scene.shadowSpots.length;
  words[69] = inputs.transparentShadows;
  words[70] = inputs.reversedZ ? 1 : 0;
  words[71] = inputs.emissive ? 1 : 0;
  scene.shadowSpots.forEach((spot, s) => {
    const o = 72 + s * SPOT_FLOATS;
    out.set(inputs.spotClipFromWorld[s]!, o);
    out.set([...spot.position, spot.range], o + 16);
    out.set([...spot.direction, Math.cos(spot.outerAngle)], o + 20);
    out.set([...spot.color.map((c) => c * spot.intensity), Math.cos(spot.innerAngle)], o + 24);
  });
  out.set(inputs.cameraRight, 184);
  out.set(inputs.cameraUp, 188);
  out.set(inputs.worldFromClip, 192);
  return out;
}

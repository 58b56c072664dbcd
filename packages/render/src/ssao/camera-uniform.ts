// Packs a resolved camera into the SsaoCamera uniform of ssao-camera.wgsl.
import type { ResolvedSsaoCamera } from './camera.ts';
import { IDENTITY } from './matrix.ts';

/** Bytes of the SsaoCamera uniform (three mat4x4f, size, far depth, winding, forward, padding). */
export const CAMERA_UNIFORM_BYTES = 224;

export function packCameraUniform(camera: ResolvedSsaoCamera, width: number, height: number, worldNormals: boolean, out = new ArrayBuffer(CAMERA_UNIFORM_BYTES)): ArrayBuffer {
  const f = new Float32Array(out);
  const u = new Uint32Array(out);
  f.set(camera.unproject, 0);
  f.set(camera.projection, 16);
  f.set(worldNormals ? camera.worldFromViewNormals : IDENTITY, 32);
  u[48] = width;
  u[49] = height;
  f[50] = camera.farDepth;
  f[51] = camera.winding;
  f[52] = camera.forward;
  return out;
}

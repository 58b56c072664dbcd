// The TypeScript reference of the SSAO pass (ssao-occlusion.wgsl and ssao-blur.wgsl) in f64:
// the same kernel, rotation pattern, occlusion test, range fade and blur.
import { RenderError } from '../../errors.ts';
import type { SsaoCamera, SsaoOptions } from '../api.ts';
import { resolveSsaoCamera } from '../camera.ts';
import { hemisphereKernel, rotationAngle } from '../kernel.ts';
import { BLUR_PLANE_TOLERANCE, resolveSsaoOptions } from '../options.ts';
import { reconstructNormalsReference } from './normals.ts';
import { depthPositions } from './positions.ts';

/** Input of {@link ssaoReference}: a depth buffer as numbers, its camera and the SSAO options. */
export interface SsaoReferenceInput {
  /** Row-major depth values, row 0 at the top. */
  depth: ArrayLike<number>;
  /** Width of the depth buffer in pixels. */
  width: number;
  /** Height of the depth buffer in pixels. */
  height: number;
  /** The camera that rendered the depth. */
  camera: SsaoCamera;
  /** The SSAO options, as the pass takes them. */
  options: SsaoOptions;
  /**
   * View-space normals to use (e.g. read back from `SsaoPass.normalsTexture`), `stride` floats
   * per pixel; default: the reference's own for `options.normals`.
   */
  normals?: { data: ArrayLike<number>; stride: number };
}

/** AO per pixel from {@link ssaoReference}, row-major, row 0 at the top. */
export interface SsaoReferenceResult {
  /** AO per pixel after the blur (what the pass writes), 1 = unoccluded. */
  ao: Float32Array;
  /** AO per pixel before the blur. */
  raw: Float32Array;
}

/**
 * The SSAO pass in TypeScript (f64): the same kernel, rotation pattern, occlusion test, range fade and blur. Throws {@link RenderError} when `depth` does not hold `width * height` values or an option is invalid.
 */
export function ssaoReference(input: SsaoReferenceInput): SsaoReferenceResult {
  const { depth, width, height } = input;
  if (depth.length !== width * height) throw new RenderError(`depth holds ${depth.length} values; a ${width}x${height} buffer needs ${width * height}.`);
  const options = resolveSsaoOptions(input.options);
  const camera = resolveSsaoCamera(input.camera);
  const { positions, surface } = depthPositions(depth, width, height, camera);
  const normals = input.normals ?? { data: reconstructNormalsReference(depth, width, height, input.camera, options.normals, { tolerance: 0 }).normals, stride: 3 };
  const kernel = hemisphereKernel(options.samples);
  const { radius, bias, strength, samples } = options;
  const p = camera.projection;
  const forward = camera.forward;
  const raw = new Float32Array(width * height);
  const frame = new Float64Array(9);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (surface[i] === 0) {
        raw[i] = 1;
        continue;
      }
      const cx = positions[i * 3]!, cy = positions[i * 3 + 1]!, cz = positions[i * 3 + 2]!;
      tangentFrame(normals.data, i * normals.stride, rotationAngle(x, y), frame);
      let occluded = 0;
      for (let s = 0; s < samples; s++) {
        const kx = kernel[s * 4]!, ky = kernel[s * 4 + 1]!, kz = kernel[s * 4 + 2]!;
        const px = cx + (frame[0]! * kx + frame[3]! * ky + frame[6]! * kz) * radius;
        const py = cy + (frame[1]! * kx + frame[4]! * ky + frame[7]! * kz) * radius;
        const pz = cz + (frame[2]! * kx + frame[5]! * ky + frame[8]! * kz) * radius;
        const w = p[3]! * px + p[7]! * py + p[11]! * pz + p[15]!;
        if (w <= 0) continue;
        const nx = (p[0]! * px + p[4]! * py + p[8]! * pz + p[12]!) / w;
        const ny = (p[1]! * px + p[5]! * py + p[9]! * pz + p[13]!) / w;
        const tx = Math.floor((nx + 1) * 0.5 * width), ty = Math.floor((1 - ny) * 0.5 * height);
        if (tx < 0 || ty < 0 || tx >= width || ty >= height) continue;
        const t = ty * width + tx;
        if (surface[t] === 0) continue;
        const sceneDistance = forward * positions[t * 3 + 2]!;
        const rise = (positions[t * 3]! - cx) * frame[6]! + (positions[t * 3 + 1]! - cy) * frame[7]! + (positions[t * 3 + 2]! - cz) * frame[8]!;
        if (sceneDistance <= forward * pz - bias && rise > bias) occluded += Math.min(1, Math.max(0, 2 - (forward * cz - sceneDistance) / radius));
      }
      raw[i] = Math.pow(Math.max(1 - occluded / samples, 0), strength);
    }
  }
  if (!options.blur) return { ao: raw.slice(), raw };
  const ao = new Float32Array(width * height);
  const tolerance = radius * BLUR_PLANE_TOLERANCE;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (surface[i] === 0) {
        ao[i] = 1;
        continue;
      }
      const nx = normals.data[i * normals.stride]!, ny = normals.data[i * normals.stride + 1]!, nz = normals.data[i * normals.stride + 2]!;
      let sum = 0, weight = 0;
      for (let dy = -2; dy <= 1; dy++) {
        for (let dx = -2; dx <= 1; dx++) {
          const sx = x + dx, sy = y + dy;
          if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
          const j = sy * width + sx;
          if (surface[j] === 0) continue;
          const distance = (positions[j * 3]! - positions[i * 3]!) * nx + (positions[j * 3 + 1]! - positions[i * 3 + 1]!) * ny + (positions[j * 3 + 2]! - positions[i * 3 + 2]!) * nz;
          if (Math.abs(distance) > tolerance) continue;
          sum += raw[j]!;
          weight++;
        }
      }
      ao[i] = sum / weight;
    }
  }
  return { ao, raw };
}

/** Columns t, b, n (9 values, column-major) of the kernel's frame: the shader's tangent_frame. */
function tangentFrame(normals: ArrayLike<number>, o: number, angle: number, out: Float64Array): void {
  let nx = normals[o]!, ny = normals[o + 1]!, nz = normals[o + 2]!;
  const length = Math.hypot(nx, ny, nz);
  nx /= length;
  ny /= length;
  nz /= length;
  const s = nz >= 0 ? 1 : -1;
  const a = -1 / (s + nz);
  const b = nx * ny * a;
  const tx = 1 + s * nx * nx * a, ty = s * b, tz = -s * nx;
  const bx = b, by = s + ny * ny * a, bz = -ny;
  const c = Math.cos(angle), sn = Math.sin(angle);
  out[0] = c * tx + sn * bx;
  out[1] = c * ty + sn * by;
  out[2] = c * tz + sn * bz;
  out[3] = c * bx - sn * tx;
  out[4] = c * by - sn * ty;
  out[5] = c * bz - sn * tz;
  out[6] = nx;
  out[7] = ny;
  out[8] = nz;
}

// Checks of the textures handed to a pass, before any GPU work is recorded.
import { RenderError } from '../errors.ts';
import { SSAO_DEPTH_FORMATS } from './api.ts';

function isTexture(value: unknown): value is GPUTexture {
  return typeof value === 'object' && value !== null && typeof (value as GPUTexture).createView === 'function' && typeof (value as GPUTexture).format === 'string';
}

/** A single-sampled 2D depth texture the passes can read. */
export function requireDepthTexture(depth: unknown): GPUTexture {
  if (!isTexture(depth)) throw new RenderError('depth must be a GPUTexture (the depth buffer the camera rendered).');
  if (!SSAO_DEPTH_FORMATS.includes(depth.format)) {
    throw new RenderError(`depth has format '${depth.format}'; give one of ${SSAO_DEPTH_FORMATS.join(', ')}.`);
  }
  if (depth.sampleCount !== 1) throw new RenderError(`depth is multisampled (${depth.sampleCount} samples); resolve it or render a single-sampled depth prepass first.`);
  if (depth.dimension !== '2d' || depth.depthOrArrayLayers !== 1) throw new RenderError('depth must be a 2D texture with one layer.');
  if ((depth.usage & GPUTextureUsage.TEXTURE_BINDING) === 0) throw new RenderError('depth needs GPUTextureUsage.TEXTURE_BINDING (add it where the depth texture is created).');
  return depth;
}

/** A storage texture of one of `formats`, the size of the depth buffer. */
export function requireOutputTexture(output: unknown, formats: readonly GPUTextureFormat[], width: number, height: number): GPUTexture {
  if (!isTexture(output)) throw new RenderError(`output must be a GPUTexture (${formats.join(', ')} with STORAGE_BINDING).`);
  if (!formats.includes(output.format)) throw new RenderError(`output has format '${output.format}'; give one of ${formats.join(', ')}.`);
  if (output.dimension !== '2d' || output.depthOrArrayLayers !== 1 || output.sampleCount !== 1) throw new RenderError('output must be a single-sampled 2D texture with one layer.');
  if ((output.usage & GPUTextureUsage.STORAGE_BINDING) === 0) throw new RenderError('output needs GPUTextureUsage.STORAGE_BINDING (add it where the output texture is created).');
  if (output.width !== width || output.height !== height) {
    throw new RenderError(`output is ${output.width}x${output.height} but the depth buffer is ${width}x${height}; give an output of the depth buffer's size.`);
  }
  return output;
}

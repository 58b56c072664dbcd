// Assembles the WGSL of the SSAO passes: the shared camera code, then the pass, with the
// storage format of its output filled in.
import cameraWgsl from './shaders/ssao-camera.wgsl?raw';
import normalsWgsl from './shaders/ssao-normals.wgsl?raw';
import occlusionWgsl from './shaders/ssao-occlusion.wgsl?raw';
import blurWgsl from './shaders/ssao-blur.wgsl?raw';

function withFormat(source: string, format: GPUTextureFormat): string {
  return [cameraWgsl, source.replaceAll('OUTPUT_FORMAT', format)].join('\n');
}

export function normalsSource(format: GPUTextureFormat): string {
  return withFormat(normalsWgsl, format);
}

export function occlusionSource(format: GPUTextureFormat): string {
  return withFormat(occlusionWgsl, format);
}

export function blurSource(format: GPUTextureFormat): string {
  return withFormat(blurWgsl, format);
}

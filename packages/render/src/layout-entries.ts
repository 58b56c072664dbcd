// Bind group layout entries the compute shading passes (the lighting, the fluid's) share.

/** A compute pass's depth texture input. */
export function computeDepth(binding: number): GPUBindGroupLayoutEntry {
  return { binding, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'depth' } };
}

/** A compute pass's HDR colour output. */
export function computeHdrOut(binding: number): GPUBindGroupLayoutEntry {
  return { binding, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format: 'rgba16float' } };
}

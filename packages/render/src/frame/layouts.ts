// The bind group layouts and shader modules every frame's pipelines are made from.

export interface Layouts {
  frame: GPUBindGroupLayout;
  depthFrame: GPUBindGroupLayout;
  cull: GPUBindGroupLayout;
  material: GPUBindGroupLayout;
  deferred: GPUBindGroupLayout;
  empty: GPUBindGroupLayout;
}

export interface Modules {
  depth: GPUShaderModule;
  forward: GPUShaderModule;
  tonemap: GPUShaderModule;
}

/** What the pipelines of the built-in passes are made from. */
export interface PipelineSources {
  device: GPUDevice;
  format: GPUTextureFormat;
  layouts: Layouts;
  modules: Modules;
}

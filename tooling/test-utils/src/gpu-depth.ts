// Depth buffers for GPU tests. A depth texture cannot be a copy destination, so values go in
// through a full-screen draw that writes frag_depth; they come back out through a compute pass
// that loads the texture, i.e. exactly what a shader sees (depth16unorm and depth24plus quantise).
import { createBufferWithData, readBuffer } from './gpu-buffers.ts';

const WRITE_DEPTH_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> values: array<f32>;
@group(0) @binding(1) var<uniform> width: vec4u;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) position: vec4f) -> @builtin(frag_depth) f32 {
  let p = vec2u(position.xy);
  return values[p.y * width.x + p.x];
}`;

const READ_DEPTH_WGSL = /* wgsl */ `
@group(0) @binding(0) var depth: texture_depth_2d;
@group(0) @binding(1) var<storage, read_write> values: array<f32>;
@compute @workgroup_size(8, 8) fn read(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(depth);
  if (any(id.xy >= size)) { return; }
  values[id.y * size.x + id.x] = textureLoad(depth, vec2i(id.xy), 0);
}`;

/**
 * A `width` x `height` depth texture holding `values` (row-major, one per texel), usable as a
 * render attachment and for sampling. Stencil formats get their stencil cleared to 0.
 */
export function depthTexture(device: GPUDevice, values: Float32Array, width: number, height: number, format: GPUTextureFormat = 'depth32float'): GPUTexture {
  if (values.length !== width * height) throw new RangeError(`depthTexture: ${values.length} values for a ${width}x${height} texture; pass one per texel.`);
  const texture = device.createTexture({ size: [width, height], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
  const module = device.createShaderModule({ code: WRITE_DEPTH_WGSL });
  const pipeline = device.createRenderPipeline({
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [] },
    depthStencil: { format, depthWriteEnabled: true, depthCompare: 'always' },
  });
  const valueBuffer = createBufferWithData(device, values, GPUBufferUsage.STORAGE);
  const widthBuffer = createBufferWithData(device, new Uint32Array([width, 0, 0, 0]), GPUBufferUsage.UNIFORM);
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: valueBuffer } }, { binding: 1, resource: { buffer: widthBuffer } }] });
  const encoder = device.createCommandEncoder();
  const hasStencil = format.includes('stencil');
  const pass = encoder.beginRenderPass({
    colorAttachments: [],
    depthStencilAttachment: {
      view: texture.createView(),
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
      depthClearValue: 0,
      ...(hasStencil ? { stencilLoadOp: 'clear' as const, stencilStoreOp: 'store' as const } : {}),
    },
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  valueBuffer.destroy();
  widthBuffer.destroy();
  return texture;
}

/** The depth values as a shader reads them from `texture` (row-major, one per texel). */
export async function readDepth(device: GPUDevice, texture: GPUTexture): Promise<Float32Array> {
  const { width, height } = texture;
  const module = device.createShaderModule({ code: READ_DEPTH_WGSL });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'read' } });
  const buffer = device.createBuffer({ size: width * height * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  try {
    const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: texture.createView({ aspect: 'depth-only' }) }, { binding: 1, resource: { buffer } }] });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(width / 8), Math.ceil(height / 8));
    pass.end();
    device.queue.submit([encoder.finish()]);
    return new Float32Array(await readBuffer(device, buffer));
  } finally {
    buffer.destroy();
  }
}

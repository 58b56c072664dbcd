// Copies three's offscreen frame into the demo's canvas target: a full-screen triangle that
// loads the render target's texels (linear light) and writes them encoded for the screen.
const BLIT_WGSL = /* wgsl */ `
@group(0) @binding(0) var frame: texture_2d<f32>;

@vertex fn blit_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let corner = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
}

fn encode(linear: vec3f) -> vec3f {
  let low = linear * 12.92;
  let high = 1.055 * pow(linear, vec3f(1.0 / 2.4)) - 0.055;
  return select(high, low, linear <= vec3f(0.0031308));
}

@fragment fn blit_fragment(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let texel = textureLoad(frame, vec2i(position.xy), 0);
  return vec4f(encode(clamp(texel.rgb, vec3f(0.0), vec3f(1.0))), 1.0);
}
`;

export class Blit {
  readonly #device: GPUDevice;
  readonly #pipeline: GPURenderPipeline;
  readonly #groups = new WeakMap<GPUTexture, GPUBindGroup>();

  constructor(device: GPUDevice, format: GPUTextureFormat) {
    this.#device = device;
    const module = device.createShaderModule({ label: 'demo.three.blit', code: BLIT_WGSL });
    this.#pipeline = device.createRenderPipeline({ label: 'demo.three.blit', layout: 'auto', vertex: { module, entryPoint: 'blit_vertex' }, fragment: { module, entryPoint: 'blit_fragment', targets: [{ format }] } });
  }

  draw(encoder: GPUCommandEncoder, source: GPUTexture, target: GPUTextureView): void {
    let group = this.#groups.get(source);
    if (!group) {
      group = this.#device.createBindGroup({ layout: this.#pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: source.createView() }] });
      this.#groups.set(source, group);
    }
    const pass = encoder.beginRenderPass({ label: 'demo.three.blit', colorAttachments: [{ view: target, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 1 }, storeOp: 'store' }] });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, group);
    pass.draw(3);
    pass.end();
  }
}

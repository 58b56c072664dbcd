// Mip chains made on the GPU when a texture is added (the scene's textures are sampled
// trilinearly): every level drawn from the level above (shaders/mipmap.wgsl). sRGB colour is
// averaged in linear light, normal maps are renormalized; reference/mipmaps.ts is the same
// filter on the CPU, which the tests compare with.
import mipmapWgsl from '../shaders/mipmap.wgsl?raw';

/** Levels of a full chain for a `width` x `height` texture (down to 1x1). */
export function mipLevelCount(width: number, height: number): number {
  return Math.floor(Math.log2(Math.max(width, height))) + 1;
}

export class MipGenerator {
  readonly #device: GPUDevice;
  readonly #module: GPUShaderModule;
  readonly #sampler: GPUSampler;
  readonly #pipelines = new Map<string, GPURenderPipeline>();

  constructor(device: GPUDevice) {
    this.#device = device;
    this.#module = device.createShaderModule({ label: 'cuttle.render.mipmap', code: mipmapWgsl });
    this.#sampler = device.createSampler({ label: 'cuttle.render.mipmap', minFilter: 'linear', magFilter: 'linear' });
  }

  #pipeline(format: GPUTextureFormat, normalMap: boolean): GPURenderPipeline {
    const key = `${format}:${normalMap}`;
    let pipeline = this.#pipelines.get(key);
    if (!pipeline) {
      pipeline = this.#device.createRenderPipeline({
        label: `cuttle.render.mipmap.${key}`,
        layout: 'auto',
        vertex: { module: this.#module, entryPoint: 'vs_fullscreen' },
        fragment: { module: this.#module, entryPoint: normalMap ? 'fs_average_normal' : 'fs_average', targets: [{ format }] },
        primitive: { topology: 'triangle-list' },
      });
      this.#pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /** Fills levels 1.. of `texture` (RENDER_ATTACHMENT and TEXTURE_BINDING) from level 0. */
  generate(texture: GPUTexture, normalMap: boolean): void {
    if (texture.mipLevelCount < 2) return;
    const pipeline = this.#pipeline(texture.format, normalMap);
    const encoder = this.#device.createCommandEncoder({ label: 'cuttle.render.mipmap' });
    for (let level = 1; level < texture.mipLevelCount; level++) {
      const bindGroup = this.#device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: texture.createView({ baseMipLevel: level - 1, mipLevelCount: 1 }) },
          { binding: 1, resource: this.#sampler },
        ],
      });
      const pass = encoder.beginRenderPass({ colorAttachments: [{ view: texture.createView({ baseMipLevel: level, mipLevelCount: 1 }), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.draw(3);
      pass.end();
    }
    this.#device.queue.submit([encoder.finish()]);
  }
}

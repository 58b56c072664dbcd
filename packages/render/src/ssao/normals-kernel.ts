// The normal reconstruction compute pass as both public passes record it: a layout per output
// format (the storage format is part of it), pipelines per format and method (the method is a
// pipeline-overridable constant).
import type { NormalMethod } from './api.ts';
import { normalsSource } from './shader-source.ts';

/** Pixels per side of a workgroup's tile (the post's 8x8 blocks). */
export const NORMALS_BLOCK = 8;

interface FormatEntry {
  layout: GPUBindGroupLayout;
  pipelineLayout: GPUPipelineLayout;
  module: GPUShaderModule;
  pipelines: Partial<Record<NormalMethod, GPUComputePipeline>>;
}

export class NormalsKernel {
  readonly #device: GPUDevice;
  readonly #formats = new Map<GPUTextureFormat, FormatEntry>();

  constructor(device: GPUDevice) {
    this.#device = device;
  }

  #entry(format: GPUTextureFormat): FormatEntry {
    let entry = this.#formats.get(format);
    if (!entry) {
      const layout = this.#device.createBindGroupLayout({
        label: `ssao normals ${format}`,
        entries: [
          { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
          { binding: 1, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'depth' } },
          { binding: 2, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format } },
        ],
      });
      entry = {
        layout,
        pipelineLayout: this.#device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        module: this.#device.createShaderModule({ label: `ssao normals ${format}`, code: normalsSource(format) }),
        pipelines: {},
      };
      this.#formats.set(format, entry);
    }
    return entry;
  }

  pipeline(format: GPUTextureFormat, method: NormalMethod): GPUComputePipeline {
    const entry = this.#entry(format);
    let pipeline = entry.pipelines[method];
    if (!pipeline) {
      pipeline = this.#device.createComputePipeline({
        label: `ssao normals ${method} ${format}`,
        layout: entry.pipelineLayout,
        compute: { module: entry.module, entryPoint: 'reconstruct_normals', constants: { IMPROVED: method === 'improved' ? 1 : 0 } },
      });
      entry.pipelines[method] = pipeline;
    }
    return pipeline;
  }

  bindGroup(format: GPUTextureFormat, camera: GPUBuffer, depthView: GPUTextureView, outputView: GPUTextureView): GPUBindGroup {
    return this.#device.createBindGroup({
      label: 'ssao normals',
      layout: this.#entry(format).layout,
      entries: [
        { binding: 0, resource: { buffer: camera } },
        { binding: 1, resource: depthView },
        { binding: 2, resource: outputView },
      ],
    });
  }

  /** Records the dispatch into an open compute pass. */
  dispatch(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, width: number, height: number): void {
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(width / NORMALS_BLOCK), Math.ceil(height / NORMALS_BLOCK));
  }
}

/** The depth aspect of a depth texture as the passes bind it. */
export function depthView(depth: GPUTexture): GPUTextureView {
  return depth.createView({ aspect: 'depth-only', dimension: '2d', baseMipLevel: 0, mipLevelCount: 1 });
}

/** Mip 0 of an output texture as a storage binding. */
export function storageView(texture: GPUTexture): GPUTextureView {
  return texture.createView({ dimension: '2d', baseMipLevel: 0, mipLevelCount: 1 });
}

/** Bind groups keyed by the two textures they bind (weakly, so dropped textures free them). */
export class PairCache<T> {
  #map = new WeakMap<GPUTexture, WeakMap<GPUTexture, T>>();

  get(a: GPUTexture, b: GPUTexture, make: () => T): T {
    let inner = this.#map.get(a);
    if (!inner) {
      inner = new WeakMap();
      this.#map.set(a, inner);
    }
    let value = inner.get(b);
    if (value === undefined) {
      value = make();
      inner.set(b, value);
    }
    return value;
  }

  clear(): void {
    this.#map = new WeakMap();
  }
}

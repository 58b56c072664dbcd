// Screen-space ambient occlusion from a depth buffer, in one compute pass of three dispatches:
// normals reconstructed from depth (naive or improved), hemisphere occlusion, depth-aware blur.
import { RenderError } from '../errors.ts';
import { SSAO_MAX_SAMPLES, SSAO_OUTPUT_FORMATS, type NormalMethod, type SsaoOptions, type SsaoRunInput } from './api.ts';
import { resolveSsaoCamera } from './camera.ts';
import { CAMERA_UNIFORM_BYTES, packCameraUniform } from './camera-uniform.ts';
import { hemisphereKernel } from './kernel.ts';
import { requireNormalMethod } from './normal-method.ts';
import { depthView, NormalsKernel, PairCache, storageView } from './normals-kernel.ts';
import { BLUR_PLANE_TOLERANCE, resolveSsaoOptions, type ResolvedSsaoOptions } from './options.ts';
import { blurSource, occlusionSource } from './shader-source.ts';
import { requireDepthTexture, requireOutputTexture } from './textures.ts';
import { passTimestamps, requireTimestamps } from './timestamps.ts';

const PARAMS_BYTES = 16 + SSAO_MAX_SAMPLES * 16;
const NORMALS_FORMAT: GPUTextureFormat = 'rgba16float';
const RAW_FORMAT: GPUTextureFormat = 'r32float';

interface Stage {
  layout: GPUBindGroupLayout;
  pipeline: GPUComputePipeline;
}

/**
 * Screen-space ambient occlusion from a depth buffer, after the post: normals rebuilt from depth, a hemisphere of samples per pixel rotated in a 4x4 pattern, and a depth-aware 4x4 blur, in compute passes. Reference: {@link ssaoReference}.
 */
export class SsaoPass {
  /** The device the pass's pipelines, buffers and textures are created on. */
  readonly device: GPUDevice;
  #options: ResolvedSsaoOptions;
  #paramsDirty = true;
  readonly #normalsKernel: NormalsKernel;
  readonly #camera: GPUBuffer;
  readonly #params: GPUBuffer;
  readonly #blurParams: GPUBuffer;
  readonly #uniform = new ArrayBuffer(CAMERA_UNIFORM_BYTES);
  readonly #occlusionStages = new Map<GPUTextureFormat, Stage>();
  readonly #blurStages = new Map<GPUTextureFormat, Stage>();
  #normals: GPUTexture | undefined;
  #raw: GPUTexture | undefined;
  readonly #normalGroups = new PairCache<GPUBindGroup>();
  readonly #occlusionGroups = new PairCache<GPUBindGroup>();
  readonly #blurGroups = new PairCache<GPUBindGroup>();

  constructor(device: GPUDevice, options: SsaoOptions) {
    if (typeof device !== 'object' || typeof device.createComputePipeline !== 'function') throw new RenderError('SsaoPass needs a GPUDevice.');
    if (typeof options !== 'object') throw new RenderError("SsaoPass needs options with at least { normals: 'improved' | 'naive' }.");
    this.#options = resolveSsaoOptions(options);
    this.device = device;
    this.#normalsKernel = new NormalsKernel(device);
    const uniform = GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST;
    this.#camera = device.createBuffer({ label: 'ssao camera', size: CAMERA_UNIFORM_BYTES, usage: uniform });
    this.#params = device.createBuffer({ label: 'ssao params', size: PARAMS_BYTES, usage: uniform });
    this.#blurParams = device.createBuffer({ label: 'ssao blur params', size: 16, usage: uniform });
  }

  /** The normal reconstruction method; may change between runs. */
  get normals(): NormalMethod {
    return this.#options.normals;
  }

  set normals(method: NormalMethod) {
    this.#options = { ...this.#options, normals: requireNormalMethod(method, 'normals') };
  }

  /** The options in effect (defaults filled in). */
  get options(): Readonly<ResolvedSsaoOptions> {
    return this.#options;
  }

  /** Changes some options; throws RenderError and changes nothing when one is bad. */
  configure(changes: Partial<SsaoOptions>): void {
    this.#options = resolveSsaoOptions(changes, this.#options);
    this.#paramsDirty = true;
  }

  /** The view-space normals (rgba16float) the last run reconstructed, for debug views; undefined before the first run. */
  get normalsTexture(): GPUTexture | undefined {
    return this.#normals;
  }

  /**
   * Records the pass. Throws RenderError (before recording anything) on bad input. The camera
   * uniform is written when `run` records, so record one run per instance per queue submission.
   */
  run(encoder: GPUCommandEncoder, input: SsaoRunInput): void {
    if (typeof input !== 'object') throw new RenderError('run needs { depth, camera, output }.');
    const depth = requireDepthTexture(input.depth);
    const output = requireOutputTexture(input.output, SSAO_OUTPUT_FORMATS, depth.width, depth.height);
    const camera = resolveSsaoCamera(input.camera);
    requireTimestamps(input.timestamps);
    const { width, height } = depth;
    const options = this.#options;

    this.#ensureTextures(width, height, options.blur);
    const normals = this.#normals!;
    const occlusionTarget = options.blur ? this.#raw! : output;
    const queue = this.device.queue;
    queue.writeBuffer(this.#camera, 0, packCameraUniform(camera, width, height, false, this.#uniform));
    if (this.#paramsDirty) this.#writeParams();

    const normalsPipeline = this.#normalsKernel.pipeline(NORMALS_FORMAT, options.normals);
    const normalsGroup = this.#normalGroups.get(depth, normals, () => this.#normalsKernel.bindGroup(NORMALS_FORMAT, this.#camera, depthView(depth), storageView(normals)));
    const occlusion = this.#stage(this.#occlusionStages, occlusionTarget.format, 'occlusion');
    const occlusionGroup = this.#occlusionGroups.get(depth, occlusionTarget, () =>
      this.device.createBindGroup({
        label: 'ssao occlusion',
        layout: occlusion.layout,
        entries: [
          { binding: 0, resource: { buffer: this.#camera } },
          { binding: 1, resource: { buffer: this.#params } },
          { binding: 2, resource: depthView(depth) },
          { binding: 3, resource: normals.createView() },
          { binding: 4, resource: storageView(occlusionTarget) },
        ],
      }),
    );

    const pass = encoder.beginComputePass({ label: 'ssao', ...passTimestamps(input.timestamps, true, true) });
    this.#normalsKernel.dispatch(pass, normalsPipeline, normalsGroup, width, height);
    pass.setPipeline(occlusion.pipeline);
    pass.setBindGroup(0, occlusionGroup);
    pass.dispatchWorkgroups(Math.ceil(width / 8), Math.ceil(height / 8));
    if (options.blur) {
      const raw = this.#raw!;
      const blur = this.#stage(this.#blurStages, output.format, 'blur');
      const blurGroup = this.#blurGroups.get(depth, output, () =>
        this.device.createBindGroup({
          label: 'ssao blur',
          layout: blur.layout,
          entries: [
            { binding: 0, resource: { buffer: this.#camera } },
            { binding: 1, resource: { buffer: this.#blurParams } },
            { binding: 2, resource: depthView(depth) },
            { binding: 3, resource: normals.createView() },
            { binding: 4, resource: raw.createView() },
            { binding: 5, resource: storageView(output) },
          ],
        }),
      );
      pass.setPipeline(blur.pipeline);
      pass.setBindGroup(0, blurGroup);
      pass.dispatchWorkgroups(Math.ceil(width / 8), Math.ceil(height / 8));
    }
    pass.end();
  }

  /** Destroys the pass's uniform buffers and intermediate textures (normals, unblurred AO). */
  destroy(): void {
    for (const buffer of [this.#camera, this.#params, this.#blurParams]) buffer.destroy();
    this.#normals?.destroy();
    this.#raw?.destroy();
    this.#normals = this.#raw = undefined;
  }

  #writeParams(): void {
    const { radius, bias, strength, samples } = this.#options;
    const data = new ArrayBuffer(PARAMS_BYTES);
    const f = new Float32Array(data);
    f[0] = radius;
    f[1] = bias;
    f[2] = strength;
    new Uint32Array(data)[3] = samples;
    f.set(hemisphereKernel(samples), 4);
    this.device.queue.writeBuffer(this.#params, 0, data);
    this.device.queue.writeBuffer(this.#blurParams, 0, new Float32Array([radius * BLUR_PLANE_TOLERANCE, 0, 0, 0]));
    this.#paramsDirty = false;
  }

  #ensureTextures(width: number, height: number, blur: boolean): void {
    // COPY_SRC: debug views and tests read the normals back.
    const usage = GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC;
    if (this.#normals?.width !== width || this.#normals.height !== height) {
      this.#normals?.destroy();
      this.#raw?.destroy();
      this.#raw = undefined;
      this.#normals = this.device.createTexture({ label: 'ssao normals', size: [width, height], format: NORMALS_FORMAT, usage });
      this.#normalGroups.clear();
      this.#occlusionGroups.clear();
      this.#blurGroups.clear();
    }
    if (blur && !this.#raw) {
      this.#raw = this.device.createTexture({ label: 'ssao raw occlusion', size: [width, height], format: RAW_FORMAT, usage });
      this.#occlusionGroups.clear();
      this.#blurGroups.clear();
    }
  }

  #stage(stages: Map<GPUTextureFormat, Stage>, format: GPUTextureFormat, kind: 'occlusion' | 'blur'): Stage {
    let stage = stages.get(format);
    if (stage) return stage;
    const compute = GPUShaderStage.COMPUTE;
    const entries: GPUBindGroupLayoutEntry[] = [
      { binding: 0, visibility: compute, buffer: { type: 'uniform' } },
      { binding: 1, visibility: compute, buffer: { type: 'uniform' } },
      { binding: 2, visibility: compute, texture: { sampleType: 'depth' } },
      { binding: 3, visibility: compute, texture: { sampleType: 'unfilterable-float' } },
    ];
    if (kind === 'blur') entries.push({ binding: 4, visibility: compute, texture: { sampleType: 'unfilterable-float' } });
    entries.push({ binding: entries.length, visibility: compute, storageTexture: { access: 'write-only', format } });
    const layout = this.device.createBindGroupLayout({ label: `ssao ${kind} ${format}`, entries });
    const module = this.device.createShaderModule({ label: `ssao ${kind} ${format}`, code: kind === 'blur' ? blurSource(format) : occlusionSource(format) });
    const pipeline = this.device.createComputePipeline({
      label: `ssao ${kind} ${format}`,
      layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: kind },
    });
    stage = { layout, pipeline };
    stages.set(format, stage);
    return stage;
  }
}

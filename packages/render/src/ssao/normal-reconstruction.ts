// Normal reconstruction from depth as a pass of its own: for debug views, for effects other than
// SSAO, and for the tests, which read the normals back.
import { RenderError } from '../errors.ts';
import { NORMAL_OUTPUT_FORMATS, type NormalMethod, type NormalReconstructionInput } from './api.ts';
import { resolveSsaoCamera } from './camera.ts';
import { CAMERA_UNIFORM_BYTES, packCameraUniform } from './camera-uniform.ts';
import { requireNormalMethod } from './normal-method.ts';
import { depthView, NormalsKernel, PairCache, storageView } from './normals-kernel.ts';
import { requireDepthTexture, requireOutputTexture } from './textures.ts';
import { passTimestamps, requireTimestamps } from './timestamps.ts';

/** Options of a {@link NormalReconstructionPass}. */
export interface NormalReconstructionOptions {
  /** Default 'improved'. */
  method?: NormalMethod;
}

/**
 * Rebuilds per-pixel normals from a depth buffer in one compute pass (8x8 tiles with a one-pixel
 * border in workgroup memory). The camera uniform is written when `run` records, so record one
 * run per instance per queue submission.
 */
export class NormalReconstructionPass {
  /** The device the pass's pipelines and buffers are created on. */
  readonly device: GPUDevice;
  #method: NormalMethod;
  readonly #kernel: NormalsKernel;
  readonly #camera: GPUBuffer;
  readonly #groups = new PairCache<GPUBindGroup>();
  readonly #uniform = new ArrayBuffer(CAMERA_UNIFORM_BYTES);

  constructor(device: GPUDevice, options: NormalReconstructionOptions = {}) {
    if (typeof device !== 'object' || typeof device.createComputePipeline !== 'function') throw new RenderError('NormalReconstructionPass needs a GPUDevice.');
    if (typeof options !== 'object') throw new RenderError('NormalReconstructionPass options must be an object ({ method }).');
    this.#method = requireNormalMethod(options.method ?? 'improved', 'options.method');
    this.device = device;
    this.#kernel = new NormalsKernel(device);
    this.#camera = device.createBuffer({ label: 'ssao normals camera', size: CAMERA_UNIFORM_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** How normals are rebuilt (default `'improved'`); settable between runs, {@link RenderError} for a value that is not a {@link NormalMethod}. */
  get method(): NormalMethod {
    return this.#method;
  }

  set method(method: NormalMethod) {
    this.#method = requireNormalMethod(method, 'method');
  }

  /** Records the pass. Throws RenderError (before recording anything) on bad input. */
  run(encoder: GPUCommandEncoder, input: NormalReconstructionInput): void {
    if (typeof input !== 'object') throw new RenderError('run needs { depth, camera, output }.');
    const depth = requireDepthTexture(input.depth);
    const output = requireOutputTexture(input.output, NORMAL_OUTPUT_FORMATS, depth.width, depth.height);
    const camera = resolveSsaoCamera(input.camera);
    const space: unknown = input.space ?? 'view';
    if (space !== 'view' && space !== 'world') throw new RenderError(`space must be 'view' or 'world', got ${String(space)}.`);
    requireTimestamps(input.timestamps);

    const pipeline = this.#kernel.pipeline(output.format, this.#method);
    const group = this.#groups.get(depth, output, () => this.#kernel.bindGroup(output.format, this.#camera, depthView(depth), storageView(output)));
    this.device.queue.writeBuffer(this.#camera, 0, packCameraUniform(camera, depth.width, depth.height, space === 'world', this.#uniform));
    const pass = encoder.beginComputePass({ label: 'ssao normals', ...passTimestamps(input.timestamps, true, true) });
    this.#kernel.dispatch(pass, pipeline, group, depth.width, depth.height);
    pass.end();
  }

  /** Destroys the pass's camera uniform buffer and forgets its cached bind groups. */
  destroy(): void {
    this.#camera.destroy();
    this.#groups.clear();
  }
}

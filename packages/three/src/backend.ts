// The one place that reaches into three.js's WebGPU backend, which three does not document as
// public: the renderer's GPUDevice, and the GPU buffer or texture behind a three attribute or
// texture. Checked against the three.js this package supports (SUPPORTED_THREE); every adapter
// goes through here, so a three release that moves these is one file to change.
import { REVISION } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { ThreeError } from './errors.ts';

/** The three.js revisions this package was tested against. */
export const SUPPORTED_THREE: { readonly min: number; readonly max: number } = { min: 187, max: 187 };

interface BackendData {
  buffer?: GPUBuffer;
  texture?: GPUTexture;
}

interface WebGPUBackendInternals {
  isWebGPUBackend?: boolean;
  device: GPUDevice | null;
  get(object: object): BackendData;
  getBufferAttribute?(attribute: object): object;
}

/** Throws a ThreeError unless the loaded three.js is a revision this package supports. */
export function checkThreeRevision(revision: string = REVISION): void {
  const number = Number.parseInt(revision, 10);
  if (!(number >= SUPPORTED_THREE.min && number <= SUPPORTED_THREE.max)) {
    throw new ThreeError(`three.js r${revision} is not supported: @cuttle/three reaches into three's WebGPU backend and was tested with r${SUPPORTED_THREE.min} to r${SUPPORTED_THREE.max}; install three@0.${SUPPORTED_THREE.max}.`);
  }
}

function backendOf(renderer: WebGPURenderer): WebGPUBackendInternals {
  checkThreeRevision();
  const backend = renderer.backend as unknown as WebGPUBackendInternals;
  if (backend.isWebGPUBackend !== true) throw new ThreeError('the renderer runs on its WebGL 2 fallback (no WebGPU here): @cuttle/three needs the WebGPU backend.');
  return backend;
}

/** The renderer's GPUDevice, after `await renderer.init()`: our packages run on it, sharing buffers with three. */
export function deviceOf(renderer: WebGPURenderer): GPUDevice {
  const device = backendOf(renderer).device;
  if (!device) throw new ThreeError('the renderer has no device yet: await renderer.init() first.');
  return device;
}

/** The GPUBuffer three made for `attribute` (after it was first drawn or computed with), or undefined before. */
export function gpuBufferOf(renderer: WebGPURenderer, attribute: object): GPUBuffer | undefined {
  const backend = backendOf(renderer);
  return backend.get(backend.getBufferAttribute?.(attribute) ?? attribute).buffer;
}

/**
 * Makes three use `buffer` for `attribute` instead of making its own: before the attribute is
 * first used. `buffer` needs the usages three gives such an attribute (STORAGE, VERTEX, COPY_SRC
 * and COPY_DST cover storage and instanced attributes).
 */
export function adoptGpuBuffer(renderer: WebGPURenderer, attribute: object, buffer: GPUBuffer): void {
  const backend = backendOf(renderer);
  const data = backend.get(backend.getBufferAttribute?.(attribute) ?? attribute);
  if (data.buffer !== undefined && data.buffer !== buffer) throw new ThreeError('three already made a GPU buffer for this attribute: adopt yours before its first use.');
  data.buffer = buffer;
}

/** The GPUTexture three made for `texture` (a render target's, a depth texture), or undefined before its first use. */
export function gpuTextureOf(renderer: WebGPURenderer, texture: object): GPUTexture | undefined {
  return backendOf(renderer).get(texture).texture;
}

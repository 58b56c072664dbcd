// A WebGPU device for the packed README examples, from Dawn's Node addon (the `webgpu` npm
// package) the way the workspace's tests get theirs; every example runs inside validation and
// out-of-memory error scopes, and `finishGpu` fails on any error.
import { createRequire } from 'node:module';

interface Dawn {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

const dawn = createRequire(import.meta.url)('webgpu') as Dawn;
Object.assign(globalThis, dawn.globals);
// Dawn tears its instance down when the GPU object is collected: keep it for the process.
const gpu = dawn.create([]);

export async function gpuDevice(): Promise<GPUDevice> {
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (adapter === null) throw new Error('No WebGPU adapter: install a Vulkan driver (Mesa lavapipe 25 on Debian; see the root README), or set CUTTLE_GPU_TESTS=skip');
  const requiredFeatures: GPUFeatureName[] = [];
  if (adapter.features.has('subgroups')) requiredFeatures.push('subgroups');
  if (adapter.features.has('timestamp-query')) requiredFeatures.push('timestamp-query');
  const device = await adapter.requestDevice({ requiredFeatures });
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  return device;
}

export async function finishGpu(device: GPUDevice): Promise<void> {
  await device.queue.onSubmittedWorkDone();
  const errors = [await device.popErrorScope(), await device.popErrorScope()].filter((e) => e !== null);
  device.destroy();
  if (errors.length > 0) throw new Error(`WebGPU errors: ${errors.map((e) => e.message).join('\n')}`);
}

/**
 * What three.js's WebGPURenderer expects of a browser, in plain Node: `self`, `navigator.gpu`
 * (else it falls back to WebGL), and a requestAnimationFrame (three updates some light uniforms
 * in its callbacks; the examples render one frame, so they are run before it by `runFrames`).
 */
const frames: ((time: number) => void)[] = [];
export function installBrowserShims(): void {
  const global = globalThis as Record<string, unknown>;
  global.self ??= globalThis;
  global.navigator ??= {};
  (global.navigator as { gpu?: GPU }).gpu ??= gpu;
  global.requestAnimationFrame ??= (callback: (time: number) => void): number => frames.push(callback);
  global.cancelAnimationFrame ??= (): void => undefined;
}

/** Runs the animation-frame callbacks three queued (call before each render). */
export function runFrames(): void {
  for (const callback of frames.splice(0)) callback(performance.now());
}

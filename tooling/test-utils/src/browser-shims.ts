// What three.js's WebGPURenderer expects of a browser, in plain Node: `self`, `navigator.gpu`
// (else it falls back to its WebGL backend), and requestAnimationFrame, whose callbacks three
// uses to update some light uniforms: runAnimationFrames() runs them before each frame.
import { nodeGpu } from './node-gpu.ts';

const pendingFrames: FrameRequestCallback[] = [];

/** Installs the shims once (idempotent); navigator.gpu is Dawn's, as `nodeGpu()` gives it. */
export function installBrowserShims(): void {
  const global = globalThis as Record<string, unknown>;
  global.self ??= globalThis;
  global.navigator ??= {};
  const navigator = global.navigator as { gpu?: GPU };
  navigator.gpu ??= nodeGpu();
  global.requestAnimationFrame ??= (callback: FrameRequestCallback): number => pendingFrames.push(callback);
  global.cancelAnimationFrame ??= (): void => undefined;
}

/** Runs the requestAnimationFrame callbacks queued since the last call. */
export function runAnimationFrames(): void {
  for (const callback of pendingFrames.splice(0)) callback(performance.now());
}

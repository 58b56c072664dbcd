// GPU tests in the style of greggman's webgpu-utils: each test runs inside validation,
// out-of-memory and internal error scopes, fails on any error (captured or uncaptured), and
// destroys every buffer, texture and query set it created, even when it throws.
import { test } from 'vitest';
import { requestNodeGpu, NoGpuAdapterError, type NodeGpu } from './node-gpu.ts';

export interface GpuTestContext {
  /** The device, wrapped so that everything it creates is destroyed after the test. */
  device: GPUDevice;
  adapterInfo: NodeGpu['info'];
  hasTimestamps: boolean;
  /** Registers any other destroyable object for cleanup. */
  track<T extends { destroy(): unknown }>(resource: T): T;
}

export const gpuTestsSkipped = process.env.CUTTLE_GPU_TESTS === 'skip';

let shared: Promise<NodeGpu> | undefined;

/** One device per test file (vitest runs each file in its own process). */
export function sharedNodeGpu(): Promise<NodeGpu> {
  shared ??= requestNodeGpu();
  return shared;
}

const TRACKED_FACTORIES = new Set(['createBuffer', 'createTexture', 'createQuerySet']);

function trackingDevice(device: GPUDevice, created: { destroy(): unknown }[]): GPUDevice {
  return new Proxy(device, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof key === 'string' && TRACKED_FACTORIES.has(key)) {
        return (...args: unknown[]) => {
          const resource = method.apply(target, args) as { destroy(): unknown };
          created.push(resource);
          return resource;
        };
      }
      // Dawn's native methods check their receiver: call them on the real device.
      return method.bind(target);
    },
    // So do its setters (onuncapturederror, which three.js sets): set them on the real device.
    set(target, key, value) {
      return Reflect.set(target, key, value, target);
    },
  });
}

/**
 * Runs `body` inside validation, out-of-memory and internal error scopes, destroys what it
 * created, and throws if WebGPU reported anything. gpuTest's engine, exported for tests of it.
 */
export async function runInErrorScopes(gpu: NodeGpu, body: (ctx: GpuTestContext) => Promise<void>): Promise<void> {
  const { device } = gpu;
  const created: { destroy(): unknown }[] = [];
  const uncaptured: string[] = [];
  const onUncaptured = (event: GPUUncapturedErrorEvent): void => {
    uncaptured.push(event.error.message);
  };
  device.addEventListener('uncapturederror', onUncaptured);
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const context: GpuTestContext = {
    device: trackingDevice(device, created),
    adapterInfo: gpu.info,
    hasTimestamps: gpu.hasTimestamps,
    track(resource) {
      created.push(resource);
      return resource;
    },
  };
  let failure: { error: unknown } | undefined;
  try {
    await body(context);
  } catch (error) {
    failure = { error };
  }
  const scoped = [await device.popErrorScope(), await device.popErrorScope(), await device.popErrorScope()];
  await device.queue.onSubmittedWorkDone();
  device.removeEventListener('uncapturederror', onUncaptured);
  for (const resource of created.reverse()) resource.destroy();
  const messages = [
    ...scoped.filter((error) => error !== null).map((error) => `${error.constructor.name}: ${error.message}`),
    ...uncaptured.map((message) => `uncaptured: ${message}`),
  ];
  if (messages.length > 0) {
    // WebGPU errors come first: a failed assertion after one is usually its consequence.
    const also = failure ? `\n\nThe test body also failed: ${failure.error instanceof Error ? failure.error.message : String(failure.error)}` : '';
    throw new Error(`WebGPU reported errors during the test:\n${messages.join('\n')}${also}`, failure ? { cause: failure.error } : undefined);
  }
  // Otherwise rethrow the test's own failure unchanged (it may be an assertion with a diff).
  if (failure) throw failure.error;
}

/**
 * Declares a vitest test that needs a GPU. Where no adapter exists it fails with setup help,
 * unless CUTTLE_GPU_TESTS=skip, which skips it.
 */
export function gpuTest(name: string, body: (ctx: GpuTestContext) => Promise<void>, timeoutMs = 60_000): void {
  if (gpuTestsSkipped) {
    test.skip(`${name} (CUTTLE_GPU_TESTS=skip)`, () => undefined);
    return;
  }
  test(name, async () => {
    let gpu: NodeGpu;
    try {
      gpu = await sharedNodeGpu();
    } catch (error) {
      if (error instanceof NoGpuAdapterError) throw error;
      throw new Error(`Could not start WebGPU through Dawn: ${String(error)}`, { cause: error });
    }
    await runInErrorScopes(gpu, body);
  }, timeoutMs);
}

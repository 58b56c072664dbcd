// WebGPU in Node through Dawn (the `webgpu` package; CUTTLE_DAWN names another dawn.node).
// Dawn tears its instance down when the GPU object is collected, so it is kept for good.
import { createRequire } from 'node:module';
import { EngineError } from '../errors.ts';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

let gpu: GPU | undefined;

export interface EngineDevice {
  device: GPUDevice;
  adapter: string;
  timestamps: boolean;
}

export async function requestEngineDevice(): Promise<EngineDevice> {
  if (!gpu) {
    const require = createRequire(import.meta.url);
    const dawn = (process.env.CUTTLE_DAWN ? require(process.env.CUTTLE_DAWN) : require('webgpu')) as DawnModule;
    Object.assign(globalThis, dawn.globals);
    // Raw timestamps for the profiler's GPU pass times (Dawn rounds them to 65,536 ns steps
    // unless told not to).
    gpu = dawn.create(['disable-dawn-features=timestamp_quantization']);
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new EngineError('no WebGPU adapter: install a Vulkan driver (on Debian, as root: bash tooling/scripts/setup.sh installs Mesa lavapipe).');
  const timestamps = adapter.features.has('timestamp-query');
  const limits: Record<string, number> = {};
  for (const key of ['maxStorageBuffersPerShaderStage', 'maxComputeWorkgroupStorageSize', 'maxBufferSize', 'maxStorageBufferBindingSize'] as const) limits[key] = adapter.limits[key];
  // Every texture-compression family the adapter has: compiled textures transcode to the best one.
  const compression = (['texture-compression-bc', 'texture-compression-etc2', 'texture-compression-astc'] as const).filter((feature) => adapter.features.has(feature));
  const device = await adapter.requestDevice({ requiredFeatures: [...(timestamps ? ['timestamp-query' as const] : []), ...compression], requiredLimits: limits });
  const { vendor, device: name, description } = adapter.info;
  return { device, adapter: `${vendor} / ${[name, description].filter(Boolean).join(' ')}`, timestamps };
}

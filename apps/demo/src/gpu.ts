export interface DemoGpu {
  device: GPUDevice;
  context: GPUCanvasContext;
  format: GPUTextureFormat;
  hasTimestamps: boolean;
  adapterInfo: GPUAdapterInfo;
}

export class WebGpuUnavailableError extends Error {
  override readonly name = 'WebGpuUnavailableError';
}

/** Gets a device and configures the canvas; throws WebGpuUnavailableError with the reason. */
export async function initGpu(canvas: HTMLCanvasElement): Promise<DemoGpu> {
  if (!('gpu' in navigator)) throw new WebGpuUnavailableError('navigator.gpu does not exist in this browser.');
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new WebGpuUnavailableError('The browser has WebGPU but offered no adapter (blocklisted GPU or driver?).');
  const hasTimestamps = adapter.features.has('timestamp-query');
  // Subgroups let @cuttle/gpu-primitives run its fast scan and radix sort kernels.
  const features: GPUFeatureName[] = hasTimestamps ? ['timestamp-query'] : [];
  if (adapter.features.has('subgroups')) features.push('subgroups');
  const device = await adapter.requestDevice({ requiredFeatures: features });
  const context = canvas.getContext('webgpu');
  if (!context) throw new WebGpuUnavailableError('The canvas refused a webgpu context.');
  const format = navigator.gpu.getPreferredCanvasFormat();
  // COPY_SRC lets the frame be read back (the browser smoke test checks real pixels).
  context.configure({ device, format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  return { device, context, format, hasTimestamps, adapterInfo: adapter.info };
}

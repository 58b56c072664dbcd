export { gpuTest, gpuTestsSkipped, sharedNodeGpu, runInErrorScopes, type GpuTestContext } from './gpu-test.ts';
export { createBufferWithData, readBuffer, readTexture } from './gpu-buffers.ts';
export { depthTexture, readDepth } from './gpu-depth.ts';
export { expectArraysEqual, firstMismatch } from './typed-arrays.ts';
export {
  loadDawn,
  nodeGpu,
  requestNodeGpu,
  describeAdapter,
  NoGpuAdapterError,
  NO_ADAPTER_HELP,
  type NodeGpu,
  type NodeGpuOptions,
  type AdapterDescription,
} from './node-gpu.ts';

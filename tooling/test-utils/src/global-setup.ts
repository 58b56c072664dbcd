// Runs once before the test run: says which WebGPU adapter the GPU tests will get, or why
// they will fail, so a CI log always shows where the WGSL ran.
import { describeAdapter, nodeGpu, NO_ADAPTER_HELP } from './node-gpu.ts';

export async function setup(): Promise<void> {
  if (process.env.CUTTLE_GPU_TESTS === 'skip') {
    console.log('[cuttle] GPU tests skipped (CUTTLE_GPU_TESTS=skip)');
    return;
  }
  try {
    const adapter = await nodeGpu().requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) {
      const info = describeAdapter(adapter);
      console.log(`[cuttle] WebGPU adapter for GPU tests: ${info.summary} (architecture: ${info.architecture || 'n/a'})`);
    } else {
      console.log(`[cuttle] ${NO_ADAPTER_HELP}`);
    }
  } catch (error) {
    console.log(`[cuttle] Dawn failed to load: ${String(error)}\n${NO_ADAPTER_HELP}`);
  }
}

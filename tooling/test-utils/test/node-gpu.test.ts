import { describe, expect, test } from 'vitest';
import { NO_ADAPTER_HELP, describeAdapter } from '../src/index.ts';

describe('node-gpu', () => {
  test('the no-adapter help names the setup script, the Debian package and the skip switch', () => {
    expect(NO_ADAPTER_HELP).toMatch(/tooling\/scripts\/setup\.sh/);
    expect(NO_ADAPTER_HELP).toMatch(/bookworm-backports/);
    expect(NO_ADAPTER_HELP).toMatch(/CUTTLE_GPU_TESTS=skip/);
  });

  test('describeAdapter builds a one-line summary from adapter info', () => {
    const adapter = { info: { vendor: 'mesa', architecture: 'software', device: 'llvmpipe', description: 'Mesa 25' } } as unknown as GPUAdapter;
    expect(describeAdapter(adapter).summary).toBe('mesa / llvmpipe Mesa 25');
  });
});

import { describe, expect, test } from 'vitest';
import { NO_ADAPTER_HELP, describeAdapter, expectArraysEqual, firstMismatch } from '../src/index.ts';
import { DAWN_FLAGS, extraDawnFlags, mergeDawnFlags } from '../src/node-gpu.ts';

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

  test('CUTTLE_DAWN_FLAGS adds flags, merged with the default ones by name', () => {
    expect(extraDawnFlags(undefined)).toEqual([]);
    const extra = extraDawnFlags(' enable-dawn-features=disable_robustness  disable-dawn-features=use_spirv_reconvergence_mode ');
    expect(mergeDawnFlags([...DAWN_FLAGS, ...extra])).toEqual([
      'disable-dawn-features=timestamp_quantization,use_spirv_reconvergence_mode',
      'enable-dawn-features=disable_robustness',
    ]);
    expect(() => extraDawnFlags('disable_robustness')).toThrow(/not a name=value Dawn flag/);
  });
});

describe('expectArraysEqual', () => {
  test('passes on equal arrays and names the first difference otherwise', () => {
    expect(() => { expectArraysEqual(new Uint32Array([1, 2, 3]), [1, 2, 3]); }).not.toThrow();
    expect(() => { expectArraysEqual(new Uint32Array([1, 2, 9, 4]), [1, 2, 3, 4], 'scan'); }).toThrow(/scan: first difference at index 2 of 4.*\[9, 4\] vs expected \[3, 4\]/);
    expect(firstMismatch([1, 2], [1, 2, 3])).toBe(2);
    expect(firstMismatch([Number.NaN], [Number.NaN])).toBe(-1);
  });
});

// pnpm spirv's parsing of Dawn's dump, and the whole round trip on this machine's WebGPU.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { dumpSpirv, splitDawnDump } from '../src/pipeline-stats/spirv.ts';

describe('splitDawnDump', () => {
  test('gives each entry point its SPIR-V, cut before the next log line, with the reconvergence mode as raw words', () => {
    const output = [
      'Warning: a limit was reduced',
      '#### ENTRY first',
      'info:',
      '// Dumped WGSL:',
      'fn first() {}',
      'info:',
      '/* Dumped SPIRV disassembly */',
      '; SPIR-V',
      '               OpEntryPoint GLCompute %main "dawn_entry_point"',
      '               OpExecutionMode %main MaximallyReconvergesKHR',
      'info:',
      'something else',
      '#### ENTRY second',
      '/* Dumped SPIRV disassembly */',
      '               OpEntryPoint GLCompute %2 "dawn_entry_point"',
      '#### END',
      '',
    ].join('\n');
    const split = splitDawnDump(output);
    expect([...split.keys()]).toEqual(['first', 'second']);
    expect(split.get('first')).toBe('; SPIR-V\n               OpEntryPoint GLCompute %main "dawn_entry_point"\n               !0x00030010 %main !6023\n');
    expect(split.get('second')).toBe('OpEntryPoint GLCompute %2 "dawn_entry_point"\n');
  });

  test('says which entry point got no SPIR-V', () => {
    expect(() => splitDawnDump('\n#### ENTRY lonely\ninfo:\nnothing\n#### END\n')).toThrow(/no SPIR-V for entry point 'lonely'/);
  });
});

describe('dumpSpirv', () => {
  gpuTest('writes the assembly of each entry point (and the binary where spirv-as is installed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuttle-spirv-'));
    try {
      const wgsl = join(dir, 'tiny.wgsl');
      writeFileSync(wgsl, [
        '@group(0) @binding(0) var<storage, read_write> data: array<u32>;',
        'var<workgroup> shared_words: array<u32, 64>;',
        '@compute @workgroup_size(64) fn double(@builtin(local_invocation_index) i: u32) { shared_words[i] = data[i]; workgroupBarrier(); data[i] = shared_words[63u - i] * 2u; }',
        '@compute @workgroup_size(64) fn zero(@builtin(global_invocation_id) g: vec3<u32>) { data[g.x] = 0u; }',
      ].join('\n'));
      const dumped = await dumpSpirv(wgsl, ['double', 'zero'], dir, 'tiny');
      expect(dumped.map((entry) => entry.entry)).toEqual(['double', 'zero']);
      for (const entry of dumped) {
        expect(readFileSync(entry.assembly, 'utf8')).toMatch(/OpEntryPoint GLCompute/);
        if (entry.binary) expect(existsSync(entry.binary)).toBe(true);
      }
      expect(readFileSync(dumped[0]!.assembly, 'utf8')).toMatch(/Workgroup/);
      await expect(dumpSpirv(wgsl, ['missing'], dir, 'tiny')).rejects.toThrow(/no SPIR-V for entry point 'missing'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

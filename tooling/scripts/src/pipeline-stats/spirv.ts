// The SPIR-V Dawn makes of a WGSL module's compute entry points, for tools that compile it
// outside Dawn (pipeline_stats.py asks a Vulkan driver for the registers and workgroup memory it
// gave each kernel). Dawn prints the SPIR-V disassembly it generates when its `dump_shaders`
// toggle is on; a child process runs the module and this file splits what it printed.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const ENTRY_MARKER = '#### ENTRY ';
const END_MARKER = '#### END';
const SPIRV_HEADER = '/* Dumped SPIRV disassembly */';

/**
 * Splits the child's output into each entry point's SPIR-V assembly. Debian's spirv-as (2023.1)
 * does not know the MaximallyReconvergesKHR execution mode Dawn asks for, so it is rewritten as
 * raw words (OpExecutionMode, 3 words: the entry and mode 6023), which every assembler takes.
 */
export function splitDawnDump(output: string): Map<string, string> {
  const found = new Map<string, string>();
  const sections = output.split(`\n${ENTRY_MARKER}`).slice(1);
  for (const section of sections) {
    const name = section.slice(0, section.indexOf('\n')).trim();
    const body = section.split(`\n${END_MARKER}`)[0]!;
    const at = body.indexOf(SPIRV_HEADER);
    if (at < 0) throw new Error(`spirv: Dawn printed no SPIR-V for entry point '${name}' (is dump_shaders on, and did the pipeline compile?)`);
    const assembly = body.slice(at + SPIRV_HEADER.length).split(/\n(?:info:|Warning:|warning:)/)[0]!;
    found.set(name, assembly.replace(/OpExecutionMode (%\S+) MaximallyReconvergesKHR/g, '!0x00030010 $1 !6023').trim() + '\n');
  }
  return found;
}

/** What the child process loads for Dawn, as test-utils' loadDawn does: CUTTLE_DAWN (the GPU machine) or the `webgpu` package. */
export function dawnPath(): string {
  return process.env.CUTTLE_DAWN ?? createRequire(import.meta.url).resolve('webgpu');
}

const CHILD = `
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');
const [dawn, file, ...entries] = process.argv.slice(1);
const { create, globals } = require(dawn);
Object.assign(globalThis, globals);
(async () => {
  const gpu = create(['enable-dawn-features=dump_shaders,disable_symbol_renaming']);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: adapter.features.has('subgroups') ? ['subgroups'] : [],
    requiredLimits: { maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize, maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage },
  });
  const module = device.createShaderModule({ code: readFileSync(file, 'utf8') });
  for (const entryPoint of entries) {
    process.stdout.write('\\n${ENTRY_MARKER}' + entryPoint + '\\n');
    device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint } });
    await device.queue.onSubmittedWorkDone();
  }
  process.stdout.write('\\n${END_MARKER}\\n');
  process.exit(0);
})().catch((error) => { console.error(String(error)); process.exit(1); });
`;

export interface DumpedEntry {
  entry: string;
  /** The SPIR-V assembly (always written). */
  assembly: string;
  /** The assembled binary, when spirv-as is on the PATH. */
  binary?: string;
}

/** Writes `<outDir>/<prefix>-<entry>.spvasm` (and `.spv` where spirv-as exists) for each entry point. */
export async function dumpSpirv(wgslFile: string, entries: readonly string[], outDir: string, prefix: string): Promise<DumpedEntry[]> {
  if (entries.length === 0) throw new Error('spirv: name at least one entry point');
  let output: string;
  try {
    ({ stdout: output } = await run(process.execPath, ['-e', CHILD, dawnPath(), wgslFile, ...entries], { encoding: 'utf8', maxBuffer: 256 << 20 }));
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`spirv: Dawn failed on ${wgslFile}: ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
  const assemblies = splitDawnDump(output);
  mkdirSync(outDir, { recursive: true });
  const hasAssembler = await run('spirv-as', ['--version']).then(() => true, () => false);
  const dumped: DumpedEntry[] = [];
  for (const entry of entries) {
    const text = assemblies.get(entry);
    if (!text) throw new Error(`spirv: no SPIR-V for entry point '${entry}' of ${wgslFile}`);
    const assembly = join(outDir, `${prefix}-${entry}.spvasm`);
    writeFileSync(assembly, text);
    if (!hasAssembler) {
      dumped.push({ entry, assembly });
      continue;
    }
    const binary = assembly.replace(/\.spvasm$/, '.spv');
    try {
      await run('spirv-as', ['--target-env', 'vulkan1.3', assembly, '-o', binary]);
    } catch (error) {
      throw new Error(`spirv: spirv-as failed on ${assembly}: ${((error as { stderr?: string }).stderr ?? String(error)).trim()}`);
    }
    dumped.push({ entry, assembly, binary });
  }
  return dumped;
}

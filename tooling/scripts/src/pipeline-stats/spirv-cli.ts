// pnpm spirv <module.wgsl> <out dir> <entry point> [...]: Dawn's SPIR-V of each entry point,
// as <out dir>/<module name>-<entry>.spvasm and, where spirv-as is installed, .spv (see README.md).
import { basename } from 'node:path';
import { dumpSpirv } from './spirv.ts';

const [file, outDir, ...entries] = process.argv.slice(2);
try {
  if (!file || !outDir || entries.length === 0) throw new Error('usage: pnpm spirv <module.wgsl> <out dir> <entry point> [...]');
  for (const { entry, assembly, binary } of await dumpSpirv(file, entries, outDir, basename(file).replace(/\.wgsl$/, ''))) {
    console.log(`${entry}: ${binary ?? `${assembly} (no spirv-as: apt-get install spirv-tools to assemble it)`}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}

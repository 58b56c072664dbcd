// Writes the radix sort's WGSL modules as a device with 32-wide subgroups (an H100) builds them,
// whatever device runs this: the count-scan modules (count_digits, scatter; the large blocks'
// count_digits, scatter_rounds), its scan in both tile sizes
// (chained_scan) and the onesweep module (histogram_all, onesweep). With tooling's `pnpm spirv`
// and pipeline_stats.py on the GPU machine they give the driver's registers and workgroup memory
// per kernel, the table at the top of BENCHMARKS.md (tooling/scripts/src/pipeline-stats/README.md).
//
//   pnpm h100-modules <out dir>
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { CountScanPasses } from '../src/count-scan-passes.ts';
import { OnesweepPasses } from '../src/onesweep-passes.ts';
import { largeBlockPlan, subgroupRadixLayout } from '../src/radix-plan.ts';

/** Entry points of each module, by the label it is created with. */
export const H100_MODULE_ENTRIES: Record<string, readonly string[]> = {
  'cuttle.radix-sort': ['count_digits', 'scatter'],
  'cuttle.radix-sort.large': ['count_digits', 'scatter_rounds'],
  'cuttle.scan.subgroups.4096': ['chained_scan'],
  'cuttle.scan.subgroups.8192': ['chained_scan'],
  'cuttle.radix-sort.onesweep': ['histogram_all', 'onesweep'],
};

/** The WGSL of every module the passes create on `device`, by label (the passes are built and dropped). */
export function h100Modules(device: GPUDevice): Map<string, string> {
  const modules = new Map<string, string>();
  // Dawn's methods need the real device as `this`, so the method is swapped and put back.
  const create = device.createShaderModule.bind(device);
  const original = Object.getOwnPropertyDescriptor(device, 'createShaderModule');
  device.createShaderModule = (descriptor: GPUShaderModuleDescriptor): GPUShaderModule => {
    modules.set(descriptor.label ?? `module-${modules.size}`, descriptor.code);
    return create(descriptor);
  };
  try {
    const countScan = subgroupRadixLayout(32, 32, 2048);
    // 2^25 keys: a count table of 2^22 words, above SMALL_SCAN_MAX, so the scan builds both tile sizes.
    new CountScanPasses(device, { plan: countScan.plan, maxSubgroups: countScan.maxSubgroups, laneWords: 1, maxCount: 1 << 25, keyBits: 32, passes: 4, slots: 1, gridLimit: 65535, maxWorkgroupsPerDimension: undefined, largePlan: largeBlockPlan(countScan.plan)!, largeFrom: 1 << 20 }).destroy();
    const onesweep = subgroupRadixLayout(32, 32, 4096);
    new OnesweepPasses(device, { plan: { ...onesweep.plan, kind: 'onesweep' }, maxSubgroups: onesweep.maxSubgroups, laneWords: 1, maxCount: 1 << 20, keyBits: 32, descending: false, floatKeys: false, keysOnly: false, slots: 1, gridLimit: 65535 }).destroy();
  } finally {
    // Back to the prototype's method (or whatever own property the device had).
    if (original) Object.defineProperty(device, 'createShaderModule', original);
    else delete (device as { createShaderModule?: unknown }).createShaderModule;
  }
  return modules;
}

async function main(outDir: string): Promise<void> {
  const { device } = await requestNodeGpu({ timestamps: false });
  mkdirSync(outDir, { recursive: true });
  for (const [label, code] of h100Modules(device)) {
    const entries = H100_MODULE_ENTRIES[label];
    if (!entries) continue;
    const file = join(outDir, `${label.replace(/^cuttle\./, '')}.wgsl`);
    writeFileSync(file, code);
    console.log(`${file}: ${entries.join(' ')}`);
  }
  device.destroy();
}

if (process.argv[1]?.endsWith('h100-modules.ts')) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: pnpm h100-modules <out dir>');
    process.exitCode = 1;
  } else {
    await main(outDir);
  }
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const workspaceRoot = resolve(import.meta.dirname, '../../..');

export interface BenchPackage {
  name: string;
  dir: string;
  cpuBenchFiles: string[];
  gpuBenchFiles: string[];
}

/**
 * Packages under packages/ with a bench/ folder: *.bench.ts run on the CPU, *.gpu.ts on a GPU.
 * Apps under apps/ join them only when their bench/ holds such files (apps/engine's bench/ holds
 * scripts of its own).
 */
export function benchPackages(): BenchPackage[] {
  const found: BenchPackage[] = [];
  for (const group of ['packages', 'apps']) {
    const groupDir = join(workspaceRoot, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const dir = join(groupDir, entry.name);
      const benchDir = join(dir, 'bench');
      if (!entry.isDirectory() || !existsSync(benchDir)) continue;
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
      const files = readdirSync(benchDir).sort();
      const pkg: BenchPackage = {
        name,
        dir,
        cpuBenchFiles: files.filter((file) => file.endsWith('.bench.ts')).map((file) => join(benchDir, file)),
        gpuBenchFiles: files.filter((file) => file.endsWith('.gpu.ts')).map((file) => join(benchDir, file)),
      };
      if (group === 'packages' || pkg.cpuBenchFiles.length + pkg.gpuBenchFiles.length > 0) found.push(pkg);
    }
  }
  return found;
}

/** Finds a package by its folder name or its npm name; throws a helpful error otherwise. */
export function findBenchPackage(query: string): BenchPackage {
  const all = benchPackages();
  const match = all.find((pkg) => pkg.name === query || pkg.name === `@cuttle/${query}` || pkg.dir.endsWith(`/${query}`));
  if (!match) throw new Error(`No package "${query}" with a bench/ folder. Known: ${all.map((pkg) => pkg.name).join(', ') || 'none'}.`);
  return match;
}

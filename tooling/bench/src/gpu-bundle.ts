import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import { rawTextPlugin } from '../../build/src/raw-text-plugin.ts';
import { findBenchPackage, workspaceRoot } from './workspace.ts';

/**
 * Bundles a package's bench/*.gpu.ts into one ESM file that runs under plain Node: workspace
 * packages from src/, WGSL inlined, Dawn loaded at run time from CUTTLE_DAWN (or `webgpu`).
 */
export async function bundleGpuBench(packageQuery: string, outDir = join(workspaceRoot, '.bench-out')): Promise<string> {
  const pkg = findBenchPackage(packageQuery);
  if (pkg.gpuBenchFiles.length === 0) throw new Error(`${pkg.name} has no bench/*.gpu.ts file.`);
  return bundleGpuSuites(pkg.gpuBenchFiles, basename(pkg.dir), outDir);
}

/**
 * Bundles suite files (each exports `suite`) into `<outDir>/<short>-gpu-bench.mjs`, which runs
 * them all as `node <file> [--json] [--rounds N] [--only text] [--out report.json]`.
 */
export async function bundleGpuSuites(files: readonly string[], short: string, outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const entry = join(outDir, `${short}-gpu-entry.ts`);
  const imports = files.map((file, i) => `import { suite as suite${i} } from ${JSON.stringify(`./${relative(outDir, file)}`)};`);
  writeFileSync(
    entry,
    [
      `import { runBundleMain } from ${JSON.stringify(`./${relative(outDir, join(workspaceRoot, 'tooling/bench/src/bundle-main.ts'))}`)};`,
      ...imports,
      `await runBundleMain([${files.map((_, i) => `suite${i}`).join(', ')}]);`,
      '',
    ].join('\n'),
  );
  const outfile = join(outDir, `${short}-gpu-bench.mjs`);
  await bundleNodeScript(entry, outfile);
  return outfile;
}

/**
 * Bundles one TypeScript entry into an ESM file for plain Node (the GPU machine has no
 * node_modules): workspace packages from src/, WGSL inlined; `webgpu` and `external` stay
 * imports, resolved at run time (Dawn comes from CUTTLE_DAWN there). `commonJsDependencies`
 * gives the bundle a `require` for CommonJS packages that load Node built-ins.
 */
export async function bundleNodeScript(entry: string, outfile: string, external: readonly string[] = [], commonJsDependencies = false): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cuttle/source'],
    external: ['webgpu', ...external],
    plugins: [rawTextPlugin()],
    // Bundled CommonJS dependencies (ws) call require() for Node built-ins, which ESM lacks.
    ...(commonJsDependencies ? { banner: { js: "import { createRequire as __cuttleRequire } from 'node:module'; const require = __cuttleRequire(import.meta.url);" } } : {}),
    logLevel: 'warning',
  });
}

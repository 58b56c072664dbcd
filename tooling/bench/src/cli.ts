// pnpm bench [package] [--json] [--write] [--gpu] [--rounds N] [--only text] [--from report.json]
//   package   folder or npm name; all packages with a bench/ folder when left out
//   --json    print the JSON contract on stdout (progress goes to stderr)
//   --write   rewrite the package's BENCHMARKS.md section with the results
//   --gpu     also run bench/*.gpu.ts here (on this machine's adapter; lavapipe figures mean nothing)
//   --from    render a saved JSON report (e.g. one that came back from the GPU machine)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { BenchReport, BenchSuite } from './api.ts';
import { emitReports, parseFlags, runSuites } from './main.ts';
import { benchPackages, findBenchPackage } from './workspace.ts';

async function loadSuite(file: string): Promise<BenchSuite> {
  const module = (await import(pathToFileURL(file).href)) as { suite?: BenchSuite };
  if (!module.suite) throw new Error(`${file} must export \`suite\` (made with defineSuite).`);
  return module.suite;
}

async function main(argv: readonly string[]): Promise<void> {
  const flags = parseFlags(argv);
  const fromIndex = argv.indexOf('--from');
  const positional = argv.filter((arg, i) => !arg.startsWith('--') && argv[i - 1] !== '--rounds' && argv[i - 1] !== '--from' && argv[i - 1] !== '--only');
  const packageDirOf = (name: string): string => findBenchPackage(name).dir;

  if (fromIndex >= 0) {
    const file = argv[fromIndex + 1];
    if (!file) throw new Error('--from needs a JSON report file.');
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as BenchReport | BenchReport[];
    emitReports(Array.isArray(parsed) ? parsed : [parsed], flags, packageDirOf);
    return;
  }

  const packages = positional[0] ? [findBenchPackage(positional[0])] : benchPackages();
  const files = packages.flatMap((pkg) => [...pkg.cpuBenchFiles, ...(argv.includes('--gpu') ? pkg.gpuBenchFiles : [])]);
  if (files.length === 0) throw new Error('No benchmark files found (bench/*.bench.ts, or bench/*.gpu.ts with --gpu).');
  const suites: BenchSuite[] = [];
  for (const file of files) suites.push(await loadSuite(file));
  emitReports(await runSuites(suites, flags), flags, packageDirOf);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

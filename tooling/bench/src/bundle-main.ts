// Entry point of a bundled GPU benchmark (see gpu-bundle-cli.ts). Runs under plain Node with
// CUTTLE_DAWN and no node_modules:  node bench.mjs [--json] [--rounds N] [--out report.json]
import { writeFileSync } from 'node:fs';
import type { BenchSuite } from './api.ts';
import { emitReports, parseFlags, runSuites } from './main.ts';

export async function runBundleMain(suites: readonly BenchSuite[], argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  try {
    const flags = parseFlags(argv);
    const reports = await runSuites(suites, { ...flags, write: false });
    emitReports(reports, { ...flags, write: false });
    const outIndex = argv.indexOf('--out');
    const out = outIndex >= 0 ? argv[outIndex + 1] : undefined;
    if (out) writeFileSync(out, `${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
  // Dawn keeps native handles alive; a finished benchmark should not wait for them.
  process.exit();
}

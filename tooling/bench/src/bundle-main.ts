// Entry point of a bundled GPU benchmark (see gpu-bundle-cli.ts). Runs under plain Node with
// CUTTLE_DAWN and no node_modules:  node bench.mjs [--json] [--rounds N] [--out report.json]
import { writeFileSync } from 'node:fs';
import type { BenchReport, BenchSuite } from './api.ts';
import { emitReports, mergeReports, parseFlags, runSuites } from './main.ts';

export async function runBundleMain(suites: readonly BenchSuite[], argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const fail = (error: unknown): void => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  };
  try {
    const flags = parseFlags(argv);
    const outIndex = argv.indexOf('--out');
    const out = outIndex >= 0 ? argv[outIndex + 1] : undefined;
    const save = (reports: BenchReport[]): void => {
      if (out && reports.length > 0) writeFileSync(out, `${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
    };
    // Suite by suite: a suite that throws (a failed verification, say) costs its own rows only.
    // Device time is scarce, and the suites that finished are still written; after every case
    // the report so far is saved too (marked partial), in case the call's time limit ends it.
    const finished: BenchReport[] = [];
    for (const suite of suites) {
      try {
        finished.push(...(await runSuites([suite], { ...flags, write: false }, (sofar) => { save(mergeReports([...finished, sofar])); })));
      } catch (error) {
        fail(error);
      }
    }
    const reports = mergeReports(finished);
    emitReports(reports, { ...flags, write: false });
    save(reports);
  } catch (error) {
    fail(error);
  }
  // Dawn keeps native handles alive; a finished benchmark should not wait for them.
  process.exit();
}

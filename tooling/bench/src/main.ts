// What `pnpm bench` and a bundled GPU benchmark share: run suites, then print a table or
// the JSON contract, and optionally rewrite BENCHMARKS.md.
import { join } from 'node:path';
import type { BenchReport, BenchSuite } from './api.ts';
import { writeBenchmarksMd } from './benchmarks-md.ts';
import { runSuite } from './run-suite.ts';
import { formatTextTable } from './table.ts';

export interface MainFlags {
  json: boolean;
  write: boolean;
  rounds: number | undefined;
  /** Only the cases whose name contains this text (`--only <text>`), e.g. to spend little device time. */
  only?: string | undefined;
}

export function parseFlags(argv: readonly string[]): MainFlags {
  const roundsIndex = argv.indexOf('--rounds');
  const rounds = roundsIndex >= 0 ? Number(argv[roundsIndex + 1]) : undefined;
  if (rounds !== undefined && (!Number.isInteger(rounds) || rounds < 1)) {
    throw new Error(`--rounds needs a positive integer, got ${argv[roundsIndex + 1] ?? 'nothing'}.`);
  }
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined;
  if (onlyIndex >= 0 && !only) throw new Error('--only needs the text that the names of the cases to run contain.');
  return { json: argv.includes('--json'), write: argv.includes('--write'), rounds, only };
}

/** Merges reports of one package and kind (several bench files) into one document. */
export function mergeReports(reports: readonly BenchReport[]): BenchReport[] {
  const merged = new Map<string, BenchReport>();
  for (const report of reports) {
    const key = `${report.package}:${report.suite}`;
    const existing = merged.get(key);
    if (!existing) merged.set(key, { ...report, cases: [...report.cases] });
    else {
      existing.cases.push(...report.cases);
      if (report.notes) existing.notes = existing.notes ? `${existing.notes}\n\n${report.notes}` : report.notes;
      if (report.partial) existing.partial = existing.partial ? `${existing.partial}; ${report.partial}` : report.partial;
    }
  }
  return [...merged.values()];
}

/** Prints reports as the JSON contract (one document, or an array for several) or as tables. */
export function emitReports(reports: readonly BenchReport[], flags: MainFlags, packageDirOf?: (name: string) => string): void {
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  } else {
    for (const report of reports) console.log(`\n${formatTextTable(report)}${report.partial ? `\n(partial report: ${report.partial})` : ''}`);
  }
  if (flags.write) {
    if (!packageDirOf) throw new Error('--write needs the workspace: run it through `pnpm bench`.');
    for (const report of reports) {
      const path = join(packageDirOf(report.package), 'BENCHMARKS.md');
      writeBenchmarksMd(path, report);
      console.error(`wrote ${path}`);
    }
  }
}

/** Runs suites one after another, logging progress to stderr so stdout stays JSON. */
export async function runSuites(suites: readonly BenchSuite[], flags: MainFlags, onCase?: (report: BenchReport) => void): Promise<BenchReport[]> {
  const reports: BenchReport[] = [];
  for (const suite of suites) {
    console.error(`${suite.package} (${suite.kind})`);
    reports.push(await runSuite(suite, { rounds: flags.rounds, only: flags.only, log: (line) => { console.error(line); }, ...(onCase ? { onCase } : {}) }));
  }
  return mergeReports(reports);
}

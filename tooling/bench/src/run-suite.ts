import type { BenchCase, BenchReport, BenchSuite, CaseResult } from './api.ts';
import { describeCpu } from './machine.ts';
import { median } from './measure.ts';

export interface RunOptions {
  /** Overrides every case's rounds (e.g. 1 for a quick smoke run). */
  rounds?: number;
  /** Runs only the cases whose name contains this text. */
  only?: string | undefined;
  log?: (line: string) => void;
  /**
   * Called after every case with the report so far (marked partial until the last case), so
   * a run cut short, by a device call's time limit say, still leaves the rows it finished.
   */
  onCase?: (report: BenchReport) => void;
}

async function runCase(benchCase: BenchCase, rounds: number): Promise<CaseResult> {
  const contenders: [string, BenchCase['ours']][] = [['ours', benchCase.ours], ...Object.entries(benchCase.peers)];
  const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // Alternate the order each round so neither side always runs on a warmer machine.
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const [name, measure] of order) samples.get(name)!.push(await measure());
  }
  const peers: Record<string, number> = {};
  for (const [name] of contenders.slice(1)) peers[name] = median(samples.get(name)!);
  return { case: benchCase.name, unit: benchCase.unit, higherIsBetter: benchCase.higherIsBetter, ours: median(samples.get('ours')!), peers };
}

/** Runs one suite: setup, every case with interleaved rounds, teardown. */
export async function runSuite(suite: BenchSuite, options: RunOptions = {}): Promise<BenchReport> {
  const { definition } = suite;
  const log = options.log ?? (() => undefined);
  await definition.setup?.();
  try {
    const all = typeof definition.cases === 'function' ? await definition.cases() : definition.cases;
    const only = options.only;
    const cases = only === undefined ? all : all.filter((benchCase) => benchCase.name.includes(only));
    const results: CaseResult[] = [];
    const report = (partial: string | undefined): BenchReport => ({
      package: suite.package,
      suite: suite.kind,
      node: process.version,
      cpu: describeCpu(),
      gpu: definition.gpu?.() ?? null,
      date: new Date().toISOString().slice(0, 10),
      cases: [...results],
      ...(definition.notes ? { notes: definition.notes } : {}),
      ...(partial ? { partial } : {}),
    });
    const filtered = cases.length < all.length ? `--only ${JSON.stringify(only)}: ${cases.length} of ${all.length} cases` : undefined;
    for (const benchCase of cases) {
      log(`  ${benchCase.name} ...`);
      results.push(await runCase(benchCase, options.rounds ?? benchCase.rounds ?? suite.rounds));
      options.onCase?.(report(results.length < cases.length ? `stopped after ${results.length} of ${all.length} cases` : filtered));
    }
    return report(filtered);
  } finally {
    await definition.teardown?.();
  }
}

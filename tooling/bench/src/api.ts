/** Measures one contender once and returns the figure in the case's unit. */
export type Measure = () => number | Promise<number>;

export interface BenchCase {
  /** Short, stable name: it keys the BENCHMARKS.md table. */
  name: string;
  /** Unit of the figure each Measure returns, e.g. 'ops/s', 'ms', 'GB/s', 'items/s'. */
  unit: string;
  higherIsBetter: boolean;
  ours: Measure;
  /** Named peers (the npm library, or the serial loop) measured the same way. */
  peers: Record<string, Measure>;
  /** Measurements per contender; the median is reported (default: the suite's rounds). */
  rounds?: number;
}

export interface BenchSuiteDefinition {
  package: string;
  /** 'cpu' for bench/*.bench.ts, 'gpu' for bench/*.gpu.ts; keys the BENCHMARKS.md section. */
  kind?: 'cpu' | 'gpu';
  /** Runs before the cases are built (acquire a GPU device, allocate inputs). */
  setup?: () => void | Promise<void>;
  teardown?: () => void | Promise<void>;
  /** The cases, or a function building them after setup. */
  cases: BenchCase[] | (() => BenchCase[] | Promise<BenchCase[]>);
  /** Describes the GPU the cases ran on (null for CPU suites). */
  gpu?: () => string | null;
  rounds?: number;
  /** Printed under the table in BENCHMARKS.md: what the cases do, caveats. */
  notes?: string;
}

export interface BenchSuite extends Required<Pick<BenchSuiteDefinition, 'package' | 'kind' | 'rounds'>> {
  definition: BenchSuiteDefinition;
}

/** One case's result in the JSON contract. */
export interface CaseResult {
  case: string;
  unit: string;
  higherIsBetter: boolean;
  ours: number;
  peers: Record<string, number>;
}

/** The document `pnpm bench <package> --json` prints. */
export interface BenchReport {
  package: string;
  suite: 'cpu' | 'gpu';
  node: string;
  cpu: string;
  gpu: string | null;
  date: string;
  cases: CaseResult[];
  notes?: string;
  /**
   * Set when the report holds fewer cases than its suite defines, saying why (an `--only`
   * filter, or a run stopped early). BENCHMARKS.md is never rewritten from such a report.
   */
  partial?: string;
}

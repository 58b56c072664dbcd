export { defineSuite, BenchDefinitionError } from './define-suite.ts';
export { opsPerSecond, timeMs, median } from './measure.ts';
export { runSuite, type RunOptions } from './run-suite.ts';
export { formatTextTable, formatMarkdownTable, ratio, machineLine } from './table.ts';
export { writeBenchmarksMd } from './benchmarks-md.ts';
export { ColdCacheGpuTimer, type ColdCacheGpuTimerOptions, type TimedRecord } from './cold-cache-gpu-timer.ts';
export { GpuTimer, type GpuTimingOptions } from './gpu-timer.ts';
export { describeCpu } from './machine.ts';
export type { BenchCase, BenchSuite, BenchSuiteDefinition, BenchReport, CaseResult, Measure } from './api.ts';

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BenchReport } from './api.ts';
import { formatMarkdownTable, machineLine } from './table.ts';

function section(report: BenchReport): string {
  const title = report.suite === 'gpu' ? 'GPU' : 'CPU';
  return [
    `<!-- bench:${report.suite}:start -->`,
    `## ${title}`,
    '',
    `Measured ${machineLine(report)}.`,
    '',
    formatMarkdownTable(report),
    '',
    'Ratio is ours / peer with the unit\'s direction folded in: above 1 means ours is better.',
    ...(report.notes ? ['', report.notes] : []),
    `<!-- bench:${report.suite}:end -->`,
  ].join('\n');
}

/** Rewrites (or adds) the report's section of a BENCHMARKS.md, keeping everything else. */
export function writeBenchmarksMd(path: string, report: BenchReport): void {
  if (report.partial) {
    throw new Error(`${report.package}: this report is partial (${report.partial}); writing it would replace the whole table with its rows. Copy them into ${path} by hand, or run the whole suite.`);
  }
  const current = existsSync(path) ? readFileSync(path, 'utf8') : `# ${report.package} benchmarks\n`;
  const start = `<!-- bench:${report.suite}:start -->`;
  const end = `<!-- bench:${report.suite}:end -->`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + section(report) + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section(report)}\n`;
  writeFileSync(path, next.replace('Run `pnpm bench', 'Rerun with `pnpm bench'));
}

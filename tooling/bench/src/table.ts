import type { BenchReport, CaseResult } from './api.ts';

/** ours / peer with >1 meaning ours is better, whichever way the unit points. */
export function ratio(result: CaseResult, peer: number): number {
  return result.higherIsBetter ? result.ours / peer : peer / result.ours;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e6) return value.toExponential(3);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** Rows of case, ours, each peer and each ratio. */
export function tableRows(report: BenchReport): string[][] {
  const peerNames = [...new Set(report.cases.flatMap((c) => Object.keys(c.peers)))];
  const header = ['case', 'unit', 'ours', ...peerNames, ...peerNames.map((name) => `ours/${name}`)];
  const rows = report.cases.map((result) => [
    result.case,
    result.unit + (result.higherIsBetter ? ' ↑' : ' ↓'),
    formatNumber(result.ours),
    ...peerNames.map((name) => (name in result.peers ? formatNumber(result.peers[name]!) : '–')),
    ...peerNames.map((name) => (name in result.peers ? `${ratio(result, result.peers[name]!).toFixed(2)}x` : '–')),
  ]);
  return [header, ...rows];
}

export function machineLine(report: BenchReport): string {
  return `${report.date} · Node ${report.node} · CPU: ${report.cpu}${report.gpu ? ` · GPU: ${report.gpu}` : ''}`;
}

/** A plain-text table for terminals. */
export function formatTextTable(report: BenchReport): string {
  const rows = tableRows(report);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]): string => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  return [`${report.package} (${report.suite}) — ${machineLine(report)}`, line(rows[0]!), ...rows.slice(1).map(line), 'ratio > 1: ours is better'].join('\n');
}

/** A Markdown table for BENCHMARKS.md. */
export function formatMarkdownTable(report: BenchReport): string {
  const rows = tableRows(report);
  const line = (row: string[]): string => `| ${row.join(' | ')} |`;
  return [line(rows[0]!), line(rows[0]!.map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

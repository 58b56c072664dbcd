// The root README's size table, between `<!-- size:start -->` and `<!-- size:end -->`.
import type { SizeBudget } from './check.ts';
import type { BundleFigures } from './measure.ts';

export const TABLE_START = '<!-- size:start -->';
export const TABLE_END = '<!-- size:end -->';

export interface TableRow {
  name: string;
  short: string;
  packedBytes: number;
  bundles: BundleFigures;
  budget?: SizeBudget;
}

/** Kilobytes (1000 B) with one decimal: steady enough that small edits rarely change the table. */
export const kb = (n: number | undefined): string => (n === undefined ? '–' : `${(n / 1000).toFixed(1)} kB`);

export function sizeTable(rows: TableRow[]): string {
  const lines = [
    '| package | packed | README example, min + gz | whole entry, min (min + gz) | budget: packed / example min + gz |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const example = r.bundles.example === undefined ? '–' : `${kb(r.bundles.example.gzipBytes)} (${kb(r.bundles.example.minBytes)} min)`;
    const budget = r.budget === undefined ? '–' : `${kb(r.budget.packedBytes)} / ${kb(r.budget.exampleGzipBytes)}`;
    lines.push(`| [\`${r.name}\`](packages/${r.short}) | ${kb(r.packedBytes)} | ${example} | ${kb(r.bundles.whole.minBytes)} (${kb(r.bundles.whole.gzipBytes)}) | ${budget} |`);
  }
  return lines.join('\n');
}

/** `readme` with the text between the markers replaced by `table`. */
export function replaceTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${TABLE_START} ... ${TABLE_END} markers`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

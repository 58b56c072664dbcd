// One bar chart per numeric column of a benchmark table. Rows are grouped by unit (from the
// cell, or the table's "unit" column) so bars in one chart are always comparable; columns
// that are not mostly numbers, or hold negative figures, are skipped.
import type { Tokens } from 'marked';
import { barChart, type Bar } from './chart.ts';
import { isEmptyCell, parseFigure, plainCell } from './figures.ts';

function rowLabels(table: Tokens.Table): string[] {
  const first = table.rows.map((row) => plainCell(row[0]?.text ?? ''));
  if (new Set(first).size === first.length || table.header.length < 3) return first;
  return table.rows.map((row, i) => `${first[i] ?? ''} · ${plainCell(row[1]?.text ?? '')}`);
}

export function tableCharts(table: Tokens.Table): string[] {
  const headers = table.header.map((cell) => plainCell(cell.text));
  const unitColumn = headers.findIndex((header) => /^units?\b/i.test(header));
  const labels = rowLabels(table);
  const charts: string[] = [];
  for (let column = 1; column < headers.length; column++) {
    if (column === unitColumn) continue;
    const cells = table.rows.map((row) => row[column]?.text ?? '');
    const filled = cells.filter((text) => !isEmptyCell(text)).length;
    const groups = new Map<string, Bar[]>();
    let numeric = 0;
    let negative = false;
    for (const [row, text] of cells.entries()) {
      const figure = parseFigure(text);
      if (!figure) continue;
      numeric++;
      if (figure.value < 0) negative = true;
      const rowUnit = unitColumn >= 0 ? plainCell(table.rows[row]?.[unitColumn]?.text ?? '') : '';
      const unit = figure.unit || rowUnit;
      const group = groups.get(unit) ?? [];
      group.push({ label: labels[row] ?? '', value: figure.value, shown: plainCell(text) });
      groups.set(unit, group);
    }
    if (negative || numeric < 2 || numeric < filled * 0.8) continue;
    for (const [unit, bars] of groups) {
      if (bars.length >= 2) charts.push(barChart(headers[column] ?? '', unit, bars));
    }
  }
  return charts;
}

/** The charts for a table as a collapsible block, or '' when no column has numbers. */
export function chartsBlock(table: Tokens.Table): string {
  const charts = tableCharts(table);
  if (charts.length === 0) return '';
  return `<details class="charts" open><summary>${charts.length} chart${charts.length === 1 ? '' : 's'} of this table</summary>\n${charts.join('\n')}\n</details>\n`;
}

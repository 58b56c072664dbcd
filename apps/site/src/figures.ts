// Reads the numbers in benchmark table cells: "35.96", "905,722", "2.00x", "89.9 %", "1.9 ms".

export interface Figure {
  value: number;
  /** What follows the number in the cell ('x', '%', 'ms', ...); '' for a bare number. */
  unit: string;
}

const FIGURE = /^([-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s*(.*)$/;
const UNIT = /^(?:[x×%]|[a-zA-Zµμ°]+(?:\/[a-zA-Zµμ]+)?)?$/;
const EMPTY = new Set(['', '–', '—', '-', 'n/a', '?']);

/** Markdown emphasis and code marks removed: what a reader sees in the cell. */
export function plainCell(text: string): string {
  return text.replace(/[*`_]/g, '').trim();
}

export function isEmptyCell(text: string): boolean {
  return EMPTY.has(plainCell(text).toLowerCase());
}

/** The figure in a cell, or undefined when the cell is not one number with at most a short unit. */
export function parseFigure(text: string): Figure | undefined {
  const match = FIGURE.exec(plainCell(text));
  if (!match?.[1]) return undefined;
  const unit = (match[2] ?? '').trim();
  if (unit.length > 10 || !UNIT.test(unit)) return undefined;
  const value = Number(match[1].replace(/,/g, ''));
  if (!Number.isFinite(value)) return undefined;
  return { value, unit: unit === '×' ? 'x' : unit };
}

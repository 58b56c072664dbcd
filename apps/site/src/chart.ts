// A horizontal bar chart as inline SVG: bars start at zero, each labelled with the figure as
// the table prints it; ratio charts (unit x) draw the 1x line (even).
import { escapeHtml } from './html.ts';

export interface Bar {
  label: string;
  value: number;
  /** The figure as printed in the table. */
  shown: string;
}

const WIDTH = 680;
const LABEL_WIDTH = 250;
const VALUE_WIDTH = 90;
const ROW = 20;
const TOP = 26;

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function barChart(title: string, unit: string, bars: readonly Bar[]): string {
  const max = Math.max(...bars.map((bar) => bar.value), unit === 'x' ? 1 : 0);
  const area = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const scale = (value: number): number => (max > 0 ? (value / max) * area : 0);
  const height = TOP + bars.length * ROW + 6;
  const rows = bars.map((bar, i) => {
    const y = TOP + i * ROW;
    const width = Math.max(1, scale(bar.value));
    return [
      `<g><title>${escapeHtml(`${bar.label}: ${bar.shown}`)}</title>`,
      `<text x="${LABEL_WIDTH - 6}" y="${y + 14}" text-anchor="end">${escapeHtml(truncate(bar.label, 38))}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${width.toFixed(1)}" height="${ROW - 6}"></rect>`,
      `<text x="${(LABEL_WIDTH + width + 4).toFixed(1)}" y="${y + 14}">${escapeHtml(bar.shown)}</text></g>`,
    ].join('');
  });
  const even = unit === 'x' ? `<line class="even" x1="${(LABEL_WIDTH + scale(1)).toFixed(1)}" x2="${(LABEL_WIDTH + scale(1)).toFixed(1)}" y1="${TOP - 4}" y2="${height - 2}"><title>1x: even</title></line>` : '';
  const caption = unit ? `${title} (${unit === 'x' ? 'ratio, x' : unit})` : title;
  return `<svg class="chart" role="img" aria-label="${escapeHtml(caption)}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg"><text class="caption" x="0" y="16">${escapeHtml(caption)}</text>${rows.join('')}${even}</svg>`;
}

// The drawing shared by scripts/plot-policies.ts and scripts/plot-window.ts: one panel per
// trace of step variation against worst clock drift, lower left better, with the region at
// least as good as a reference (Phaser's TimeStep) on both shaded, and a legend of numbered dots.

/** One contender's two figures on one trace. */
export interface ScatterFigure {
  trace: string;
  contender: string;
  /** Mean |step[i] - step[i-1]| in milliseconds. */
  variationMs: number;
  /** Largest |game clock - wall clock| in milliseconds. */
  driftMs: number;
}

export interface LegendEntry {
  /** The text in the dot (a number, or a letter for a reference). */
  label: string;
  /** The contender's name, as in ScatterFigure.contender. */
  name: string;
  text: string;
}

export interface ScatterPlot {
  title: string;
  subtitle: string;
  /** Panel order. */
  traces: readonly string[];
  figures: readonly ScatterFigure[];
  legend: readonly LegendEntry[];
  /** The contender whose figures bound the shaded box and the dashed lines. */
  reference: string;
  /** The contender drawn larger and last (the package default). */
  highlight: (contender: string) => boolean;
  colourOf: (contender: string) => string;
}

const PANEL_W = 300;
const PANEL_H = 200;
const MARGIN_LEFT = 56;
const GAP_X = 80;
const GAP_Y = 86;
const TOP = 64;
const COLUMNS = 3;
const WIDTH = MARGIN_LEFT + COLUMNS * PANEL_W + (COLUMNS - 1) * GAP_X + 24;
export const REFERENCE_COLOUR = '#111111';

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/** Three significant figures or so, as the tables print them. */
export function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}

function panel(plot: ScatterPlot, trace: string, left: number, top: number): string {
  const figures = plot.figures.filter((f) => f.trace === trace);
  const labelOf = (contender: string): string => plot.legend.find((e) => e.name === contender)?.label ?? '?';
  const out: string[] = [];
  const xMax = niceMax(Math.max(...figures.map((f) => f.driftMs)) * 1.08);
  const yMax = niceMax(Math.max(...figures.map((f) => f.variationMs)) * 1.08);
  const x = (ms: number): number => left + (ms / xMax) * PANEL_W;
  const y = (ms: number): number => top + PANEL_H - (ms / yMax) * PANEL_H;
  const reference = figures.find((f) => f.contender === plot.reference)!;
  out.push(`<text x="${left}" y="${top - 12}" class="title">${escape(trace)}</text>`);
  // The region at least as good as the reference on both figures.
  out.push(
    `<rect x="${left}" y="${y(reference.variationMs).toFixed(1)}" width="${(x(reference.driftMs) - left).toFixed(1)}" height="${(top + PANEL_H - y(reference.variationMs)).toFixed(1)}" class="win"/>`,
  );
  for (let i = 0; i <= 4; i++) {
    const gx = left + (i / 4) * PANEL_W;
    const gy = top + PANEL_H - (i / 4) * PANEL_H;
    out.push(`<line x1="${gx}" y1="${top}" x2="${gx}" y2="${top + PANEL_H}" class="grid"/>`);
    out.push(`<line x1="${left}" y1="${gy}" x2="${left + PANEL_W}" y2="${gy}" class="grid"/>`);
    out.push(`<text x="${gx}" y="${top + PANEL_H + 16}" class="tick" text-anchor="middle">${format((i / 4) * xMax)}</text>`);
    out.push(`<text x="${left - 6}" y="${gy + 4}" class="tick" text-anchor="end">${format((i / 4) * yMax)}</text>`);
  }
  out.push(`<rect x="${left}" y="${top}" width="${PANEL_W}" height="${PANEL_H}" class="frame"/>`);
  out.push(`<text x="${left + PANEL_W / 2}" y="${top + PANEL_H + 34}" class="axis" text-anchor="middle">worst clock drift (ms)</text>`);
  out.push(
    `<text x="${left - 42}" y="${top + PANEL_H / 2}" class="axis" text-anchor="middle" transform="rotate(-90 ${left - 42} ${top + PANEL_H / 2})">step variation (ms)</text>`,
  );
  out.push(`<line x1="${x(reference.driftMs).toFixed(1)}" y1="${top}" x2="${x(reference.driftMs).toFixed(1)}" y2="${top + PANEL_H}" class="phaser"/>`);
  out.push(`<line x1="${left}" y1="${y(reference.variationMs).toFixed(1)}" x2="${left + PANEL_W}" y2="${y(reference.variationMs).toFixed(1)}" class="phaser"/>`);
  // Draw the highlighted one last so it sits on top of anything it coincides with.
  const ordered = [...figures].sort((a, b) => Number(plot.highlight(a.contender)) - Number(plot.highlight(b.contender)));
  for (const f of ordered) {
    const cx = Math.min(x(f.driftMs), left + PANEL_W);
    const cy = Math.max(y(f.variationMs), top);
    const r = plot.highlight(f.contender) ? 9 : 7.5;
    out.push(
      `<g><title>${escape(`${f.contender}: ${format(f.variationMs)} ms variation, ${format(f.driftMs)} ms drift`)}</title>` +
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" fill="${plot.colourOf(f.contender)}" fill-opacity="0.88"/>` +
        `<text x="${cx.toFixed(1)}" y="${(cy + 3.5).toFixed(1)}" class="dot" text-anchor="middle">${labelOf(f.contender)}</text></g>`,
    );
  }
  return out.join('\n');
}

/** The whole picture as an SVG document. */
export function scatterSvg(plot: ScatterPlot): string {
  const rows = Math.ceil(plot.traces.length / COLUMNS);
  const legendTop = TOP + rows * (PANEL_H + GAP_Y) - 20;
  const height = legendTop + 24 + plot.legend.length * 20;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif">`);
  parts.push(`<style>
  .title { font-size: 14px; font-weight: bold; fill: #222; }
  .tick { font-size: 11px; fill: #555; }
  .axis { font-size: 11px; fill: #333; }
  .dot { font-size: 10px; font-weight: bold; fill: #fff; }
  .legend { font-size: 12px; fill: #222; }
  .grid { stroke: #e4e4e4; stroke-width: 1; }
  .frame { fill: none; stroke: #999; stroke-width: 1; }
  .win { fill: #2a9d8f; fill-opacity: 0.12; }
  .phaser { stroke: ${REFERENCE_COLOUR}; stroke-width: 1; stroke-dasharray: 4 3; }
</style>`);
  parts.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${MARGIN_LEFT}" y="26" class="title" style="font-size:16px">${escape(plot.title)}</text>`);
  parts.push(`<text x="${MARGIN_LEFT}" y="44" class="axis">${escape(plot.subtitle)}</text>`);
  plot.traces.forEach((trace, i) => {
    const left = MARGIN_LEFT + (i % COLUMNS) * (PANEL_W + GAP_X);
    const top = TOP + 20 + Math.floor(i / COLUMNS) * (PANEL_H + GAP_Y);
    parts.push(panel(plot, trace, left, top));
  });
  plot.legend.forEach((entry, i) => {
    const ly = legendTop + 20 + i * 20;
    parts.push(`<circle cx="${MARGIN_LEFT + 8}" cy="${ly - 4}" r="7.5" fill="${plot.colourOf(entry.name)}"/>`);
    parts.push(`<text x="${MARGIN_LEFT + 8}" y="${ly - 0.5}" class="dot" text-anchor="middle">${entry.label}</text>`);
    parts.push(`<text x="${MARGIN_LEFT + 24}" y="${ly}" class="legend"><tspan font-weight="bold">${escape(entry.name)}</tspan>: ${escape(entry.text)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Puts `body` between `<!-- key:start -->` and `<!-- key:end -->` in the markdown file (appended if absent). */
export function replaceBlock(markdown: string, key: string, body: string): string {
  const start = `<!-- ${key}:start -->`;
  const end = `<!-- ${key}:end -->`;
  const block = `${start}\n${body}\n${end}`;
  const at = markdown.indexOf(start);
  return at >= 0 ? markdown.slice(0, at) + block + markdown.slice(markdown.indexOf(end) + end.length) : `${markdown.trimEnd()}\n\n${block}\n`;
}

/** A markdown table: one row per contender, one column per trace, "variation / drift" in ms. */
export function figureTable(firstColumn: string, traces: readonly string[], contenders: readonly string[], figures: readonly ScatterFigure[]): string {
  const lines = [`| ${firstColumn} | ${traces.join(' | ')} |`, `| --- | ${traces.map(() => '---').join(' | ')} |`];
  for (const contender of contenders) {
    const cells = traces.map((trace) => {
      const f = figures.find((g) => g.trace === trace && g.contender === contender)!;
      return `${format(f.variationMs)} / ${format(f.driftMs)}`;
    });
    lines.push(`| ${contender} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

// Plots step variation against worst clock drift for every time-debt payback policy tried, one
// panel per shared trace, from the figures of bench/payback-policies.ts:
//
//   npx tsx scripts/plot-policies.ts   → docs/payback-policies.svg, and the table in BENCHMARKS.md
//
// Lower left is better on both. The shaded box is "at least as good as Phaser's TimeStep on both".
import { readFileSync, writeFileSync } from 'node:fs';
import { POLICIES, POLICY_TRACES, REFERENCES, checkRunner, measurePolicies, type PolicyFigure } from '../bench/payback-policies.ts';

const PANEL_W = 300;
const PANEL_H = 200;
const MARGIN_LEFT = 56;
const GAP_X = 80;
const GAP_Y = 86;
const TOP = 64;
const COLUMNS = 3;
const WIDTH = MARGIN_LEFT + COLUMNS * PANEL_W + (COLUMNS - 1) * GAP_X + 24;
const ROWS = Math.ceil(POLICY_TRACES.length / COLUMNS);
const LEGEND_TOP = TOP + ROWS * (PANEL_H + GAP_Y) - 20;
const HEIGHT = LEGEND_TOP + 24 + (POLICIES.length + REFERENCES.length) * 20;

const DEFAULT_COLOUR = '#d62828';
const POLICY_COLOUR = '#3a6ea5';
const LINEAR_COLOUR = '#7a7a7a';
const PHASER_COLOUR = '#111111';
const EMA_COLOUR = '#b08900';

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}

function colourOf(contender: string): string {
  if (contender === 'Phaser TimeStep') return PHASER_COLOUR;
  if (contender === 'EMA') return EMA_COLOUR;
  if (contender.startsWith('guarded')) return DEFAULT_COLOUR;
  if (contender.startsWith('linear (0.x')) return LINEAR_COLOUR;
  return POLICY_COLOUR;
}

function labelOf(contender: string): string {
  const index = POLICIES.findIndex((p) => p.name === contender);
  if (index >= 0) return String(index + 1);
  return contender === 'Phaser TimeStep' ? 'P' : 'E';
}

function panel(trace: string, figures: PolicyFigure[], left: number, top: number): string {
  const out: string[] = [];
  const xMax = niceMax(Math.max(...figures.map((f) => f.driftMs)) * 1.08);
  const yMax = niceMax(Math.max(...figures.map((f) => f.variationMs)) * 1.08);
  const x = (ms: number): number => left + (ms / xMax) * PANEL_W;
  const y = (ms: number): number => top + PANEL_H - (ms / yMax) * PANEL_H;
  const phaser = figures.find((f) => f.contender === 'Phaser TimeStep')!;
  out.push(`<text x="${left}" y="${top - 12}" class="title">${escape(trace)}</text>`);
  // The region at least as good as Phaser on both figures.
  out.push(
    `<rect x="${left}" y="${y(phaser.variationMs).toFixed(1)}" width="${(x(phaser.driftMs) - left).toFixed(1)}" height="${(top + PANEL_H - y(phaser.variationMs)).toFixed(1)}" class="win"/>`,
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
  out.push(`<line x1="${x(phaser.driftMs).toFixed(1)}" y1="${top}" x2="${x(phaser.driftMs).toFixed(1)}" y2="${top + PANEL_H}" class="phaser"/>`);
  out.push(`<line x1="${left}" y1="${y(phaser.variationMs).toFixed(1)}" x2="${left + PANEL_W}" y2="${y(phaser.variationMs).toFixed(1)}" class="phaser"/>`);
  // Draw the default last so it sits on top of anything it coincides with.
  const ordered = [...figures].sort((a, b) => Number(a.contender.startsWith('guarded')) - Number(b.contender.startsWith('guarded')));
  for (const f of ordered) {
    const cx = Math.min(x(f.driftMs), left + PANEL_W);
    const cy = Math.max(y(f.variationMs), top);
    const colour = colourOf(f.contender);
    const r = f.contender.startsWith('guarded') ? 9 : 7.5;
    out.push(
      `<g><title>${escape(`${f.contender}: ${format(f.variationMs)} ms variation, ${format(f.driftMs)} ms drift`)}</title>` +
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" fill="${colour}" fill-opacity="0.88"/>` +
        `<text x="${cx.toFixed(1)}" y="${(cy + 3.5).toFixed(1)}" class="dot" text-anchor="middle">${labelOf(f.contender)}</text></g>`,
    );
  }
  return out.join('\n');
}

function svg(figures: PolicyFigure[]): string {
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`);
  parts.push(`<style>
  .title { font-size: 14px; font-weight: bold; fill: #222; }
  .tick { font-size: 11px; fill: #555; }
  .axis { font-size: 11px; fill: #333; }
  .dot { font-size: 10px; font-weight: bold; fill: #fff; }
  .legend { font-size: 12px; fill: #222; }
  .grid { stroke: #e4e4e4; stroke-width: 1; }
  .frame { fill: none; stroke: #999; stroke-width: 1; }
  .win { fill: #2a9d8f; fill-opacity: 0.12; }
  .phaser { stroke: ${PHASER_COLOUR}; stroke-width: 1; stroke-dasharray: 4 3; }
</style>`);
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  parts.push(
    `<text x="${MARGIN_LEFT}" y="26" class="title" style="font-size:16px">Time-debt payback policies: step variation against worst clock drift (lower left is better)</text>`,
  );
  parts.push(
    `<text x="${MARGIN_LEFT}" y="44" class="axis">Shaded: at least as good as Phaser's TimeStep on both (dashed lines). Same filter (BitSquid's trimmed mean, lerp 0.5) under every policy; 600 frames per trace.</text>`,
  );
  POLICY_TRACES.forEach((trace, i) => {
    const left = MARGIN_LEFT + (i % COLUMNS) * (PANEL_W + GAP_X);
    const top = TOP + 20 + Math.floor(i / COLUMNS) * (PANEL_H + GAP_Y);
    parts.push(panel(trace.name, figures.filter((f) => f.trace === trace.name), left, top));
  });
  const legend = [
    ...POLICIES.map((p, i) => ({ label: String(i + 1), name: p.name, text: `${p.description}${p.inPackage ? '' : ' (tried, not in the package)'}` })),
    { label: 'P', name: 'Phaser TimeStep', text: "phaser@4.2.1's 10-frame mean, the reference" },
    { label: 'E', name: 'EMA', text: 'exponential moving average, 2/11 per frame' },
  ];
  legend.forEach((entry, i) => {
    const ly = LEGEND_TOP + 20 + i * 20;
    parts.push(`<circle cx="${MARGIN_LEFT + 8}" cy="${ly - 4}" r="7.5" fill="${colourOf(entry.name)}"/>`);
    parts.push(`<text x="${MARGIN_LEFT + 8}" y="${ly - 0.5}" class="dot" text-anchor="middle">${entry.label}</text>`);
    parts.push(`<text x="${MARGIN_LEFT + 24}" y="${ly}" class="legend"><tspan font-weight="bold">${escape(entry.name)}</tspan>: ${escape(entry.text)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function markdown(figures: PolicyFigure[]): string {
  const traces = POLICY_TRACES.map((t) => t.name);
  const contenders = [...POLICIES.map((p) => p.name), ...REFERENCES.map((r) => r.name)];
  const lines = [`| policy | ${traces.join(' | ')} |`, `| --- | ${traces.map(() => '---').join(' | ')} |`];
  for (const contender of contenders) {
    const cells = traces.map((trace) => {
      const f = figures.find((g) => g.trace === trace && g.contender === contender)!;
      return `${format(f.variationMs)} / ${format(f.driftMs)}`;
    });
    lines.push(`| ${contender} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

checkRunner();
const figures = measurePolicies();
const svgUrl = new URL('../docs/payback-policies.svg', import.meta.url);
writeFileSync(svgUrl, svg(figures));
console.log(`wrote ${svgUrl.pathname}`);

const table = markdown(figures);
const benchmarksUrl = new URL('../BENCHMARKS.md', import.meta.url);
const benchmarks = readFileSync(benchmarksUrl, 'utf8');
const start = '<!-- payback:start -->';
const end = '<!-- payback:end -->';
const block = `${start}\nStep variation (ms) / worst clock drift (ms), written by \`npx tsx scripts/plot-policies.ts\`:\n\n${table}\n${end}`;
const at = benchmarks.indexOf(start);
const updated = at >= 0 ? benchmarks.slice(0, at) + block + benchmarks.slice(benchmarks.indexOf(end) + end.length) : `${benchmarks.trimEnd()}\n\n${block}\n`;
writeFileSync(benchmarksUrl, updated);
console.log(`wrote the policy table into ${benchmarksUrl.pathname}`);
console.log(table);

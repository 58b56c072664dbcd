// Plots step variation against worst clock drift for the smoothing filter's window choices
// (`window` frames, `trim` dropped each side), one panel per shared trace, from the figures of
// bench/filter-windows.ts, drawn by the same code as docs/payback-policies.svg:
//
//   npx tsx scripts/plot-window.ts   → docs/window-tradeoff.svg, and the table in BENCHMARKS.md
//
// Lower left is better on both. The shaded box is "at least as good as Phaser's TimeStep on both".
import { readFileSync, writeFileSync } from 'node:fs';
import { PHASER_NAME, WINDOW_CHOICES, measureWindows } from '../bench/filter-windows.ts';
import { POLICY_TRACES } from '../bench/payback-policies.ts';
import { REFERENCE_COLOUR, figureTable, replaceBlock, scatterSvg } from './scatter-plot.ts';

const DEFAULT_COLOUR = '#d62828';
const EVEN_COLOUR = '#2a7f62';
const ODD_COLOUR = '#3a6ea5';

function colourOf(contender: string): string {
  if (contender === PHASER_NAME) return REFERENCE_COLOUR;
  const choice = WINDOW_CHOICES.find((c) => c.name === contender);
  if (!choice) return ODD_COLOUR;
  if (choice.window === 11 && choice.trim === 2) return DEFAULT_COLOUR;
  return choice.window % 2 === 0 ? EVEN_COLOUR : ODD_COLOUR;
}

const figures = measureWindows();
const traces = POLICY_TRACES.map((t) => t.name);
const svgUrl = new URL('../docs/window-tradeoff.svg', import.meta.url);
writeFileSync(
  svgUrl,
  scatterSvg({
    title: 'Filter window: step variation against worst clock drift (lower left is better)',
    subtitle:
      "Shaded: at least as good as Phaser's TimeStep on both (dashed lines). new TimeStep({ window, trim }), default debt payback; green: even windows, blue: odd, red: the default.",
    traces,
    figures,
    legend: [
      ...WINDOW_CHOICES.map((c, i) => ({
        label: String(i + 1),
        name: c.name,
        text: `${c.window} frames, ${c.trim === 0 ? 'none dropped (a plain mean)' : `the ${c.trim} highest and ${c.trim} lowest dropped`}`,
      })),
      { label: 'P', name: PHASER_NAME, text: "phaser@4.2.1's 10-frame mean, no debt, the reference" },
    ],
    reference: PHASER_NAME,
    highlight: (contender) => contender.endsWith('(default)'),
    colourOf,
  }),
);
console.log(`wrote ${svgUrl.pathname}`);

const table = figureTable('filter', traces, [...WINDOW_CHOICES.map((c) => c.name), PHASER_NAME], figures);
const benchmarksUrl = new URL('../BENCHMARKS.md', import.meta.url);
const body = `Step variation (ms) / worst clock drift (ms), written by \`npx tsx scripts/plot-window.ts\`:\n\n${table}`;
writeFileSync(benchmarksUrl, replaceBlock(readFileSync(benchmarksUrl, 'utf8'), 'window', body));
console.log(`wrote the window table into ${benchmarksUrl.pathname}`);
console.log(table);

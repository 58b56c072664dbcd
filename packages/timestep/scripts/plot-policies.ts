// Plots step variation against worst clock drift for every time-debt payback policy tried, one
// panel per shared trace, from the figures of bench/payback-policies.ts:
//
//   npx tsx scripts/plot-policies.ts   → docs/payback-policies.svg, and the table in BENCHMARKS.md
//
// Lower left is better on both. The shaded box is "at least as good as Phaser's TimeStep on both".
import { readFileSync, writeFileSync } from 'node:fs';
import { POLICIES, POLICY_TRACES, REFERENCES, checkRunner, measurePolicies } from '../bench/payback-policies.ts';
import { REFERENCE_COLOUR, figureTable, replaceBlock, scatterSvg } from './scatter-plot.ts';

const DEFAULT_COLOUR = '#d62828';
const POLICY_COLOUR = '#3a6ea5';
const LINEAR_COLOUR = '#7a7a7a';
const EMA_COLOUR = '#b08900';

function colourOf(contender: string): string {
  if (contender === 'Phaser TimeStep') return REFERENCE_COLOUR;
  if (contender === 'EMA') return EMA_COLOUR;
  if (contender.startsWith('guarded')) return DEFAULT_COLOUR;
  if (contender.startsWith('linear (0.x')) return LINEAR_COLOUR;
  return POLICY_COLOUR;
}

checkRunner();
const figures = measurePolicies();
const traces = POLICY_TRACES.map((t) => t.name);
const svgUrl = new URL('../docs/payback-policies.svg', import.meta.url);
writeFileSync(
  svgUrl,
  scatterSvg({
    title: 'Time-debt payback policies: step variation against worst clock drift (lower left is better)',
    subtitle:
      "Shaded: at least as good as Phaser's TimeStep on both (dashed lines). Same filter (BitSquid's trimmed mean, lerp 0.5) under every policy; 600 frames per trace.",
    traces,
    figures,
    legend: [
      ...POLICIES.map((p, i) => ({ label: String(i + 1), name: p.name, text: `${p.description}${p.inPackage ? '' : ' (tried, not in the package)'}` })),
      { label: 'P', name: 'Phaser TimeStep', text: "phaser@4.2.1's 10-frame mean, the reference" },
      { label: 'E', name: 'EMA', text: 'exponential moving average, 2/11 per frame' },
    ],
    reference: 'Phaser TimeStep',
    highlight: (contender) => contender.startsWith('guarded'),
    colourOf,
  }),
);
console.log(`wrote ${svgUrl.pathname}`);

const table = figureTable('policy', traces, [...POLICIES.map((p) => p.name), ...REFERENCES.map((r) => r.name)], figures);
const benchmarksUrl = new URL('../BENCHMARKS.md', import.meta.url);
const body = `Step variation (ms) / worst clock drift (ms), written by \`npx tsx scripts/plot-policies.ts\`:\n\n${table}`;
writeFileSync(benchmarksUrl, replaceBlock(readFileSync(benchmarksUrl, 'utf8'), 'payback', body));
console.log(`wrote the policy table into ${benchmarksUrl.pathname}`);
console.log(table);

// Prints the correctness table of line merging against structural merging (for the README):
//   npx tsx bench/line-merge-table.ts
import { runScenario, SCENARIOS } from './line-merge-scenarios.ts';

const rows = ['| merge | format | line merge (node-diff3) | cuttle-merge |', '| --- | --- | --- | --- |'];
for (const s of SCENARIOS) {
  for (const format of ['sjson', 'json'] as const) {
    const r = runScenario(s, format);
    const ours = `${r.oursCorrect ? 'clean, correct' : 'WRONG'}${r.oursConflicts > 0 ? `, ${r.oursConflicts} conflict reported (right wins)` : ''}`;
    rows.push(`| ${r.name} | ${format.toUpperCase()} | ${r.line} | ${ours} |`);
  }
}
process.stdout.write(rows.join('\n') + '\n');

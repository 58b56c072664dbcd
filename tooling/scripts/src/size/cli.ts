// `pnpm size [--check] [--write]`, after `pnpm build`: each publishable package's packed tarball
// size and the minified + gzipped bundle of its README example's imports (tree-shaken, our code
// only), beside its whole entry. --check fails when a figure is over its budget in budgets.ts or
// a package's sideEffects is wrong; --write puts the table into the root README.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SIZE_BUDGETS } from './budgets.ts';
import { BUDGETS_FILE, checkBudgets } from './check.ts';
import { measureBundles } from './measure.ts';
import { packedBytes } from './pack.ts';
import { publishablePackages } from '../publishable.ts';
import { sideEffectsFieldProblems, treeShakingProblem } from './side-effects.ts';
import { replaceTable, sizeTable, type TableRow } from './table.ts';

const root = resolve(import.meta.dirname, '../../../..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const write = args.includes('--write');

async function main(): Promise<number> {
  const started = performance.now();
  const packages = publishablePackages(join(root, 'packages'));
  const unbuilt = packages.filter((p) => !existsSync(join(p.dir, 'dist')));
  if (unbuilt.length > 0) {
    console.error(`size: no dist/ in ${unbuilt.map((p) => p.short).join(', ')}: run \`pnpm build\` first`);
    return 1;
  }
  const [packed, bundles] = await Promise.all([packedBytes(packages), measureBundles(packages)]);
  const rows: TableRow[] = packages.map((p) => ({ name: p.manifest.name, short: p.short, packedBytes: packed.get(p.manifest.name)!, bundles: bundles.get(p.manifest.name)!, budget: SIZE_BUDGETS[p.manifest.name] }));
  const table = sizeTable(rows);
  console.log(table);

  const problems: string[] = [];
  console.log('\nsideEffects (the smallest bundle of one named export, against the whole entry):');
  for (const p of packages) {
    const b = bundles.get(p.manifest.name)!;
    const found = [...sideEffectsFieldProblems(p.manifest), treeShakingProblem(p.manifest.name, b)].filter((x) => x !== undefined);
    problems.push(...found);
    const one = b.smallestExport;
    console.log(`  ${found.length === 0 ? 'ok  ' : 'FAIL'} ${p.manifest.name}: ${one === undefined ? 'no named export' : `\`${one.name}\` alone ${one.minBytes} B of ${b.whole.minBytes} B min`}`);
  }
  if (check) {
    problems.push(...checkBudgets(rows.map((r) => ({ name: r.name, packedBytes: r.packedBytes, exampleGzipBytes: r.bundles.example?.gzipBytes })), SIZE_BUDGETS));
  }
  if (write) {
    const readme = join(root, 'README.md');
    writeFileSync(readme, replaceTable(readFileSync(readme, 'utf8'), table));
    console.log('size: wrote the table into README.md');
  }
  for (const problem of problems) console.error(`size: ${problem}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`size: ${packages.length} packages in ${seconds} s; ${problems.length === 0 ? (check ? `all within their budgets (${BUDGETS_FILE})` : 'sideEffects ok') : `${problems.length} problem(s)`}`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();

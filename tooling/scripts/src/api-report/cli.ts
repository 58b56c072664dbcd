// `pnpm api:check`: fails when a published package's API report (packages/<name>/api/*.api.md,
// made by api-extractor from the built dist/*.d.ts) differs from the committed one, so a change
// to the public API shows in review. `pnpm api:update` rewrites them. Run after `pnpm build`.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkApiReports } from './check.ts';

const update = process.argv.includes('--update');
const packagesDir = resolve(import.meta.dirname, '../../../../packages');
const started = performance.now();
const { checked, failures, changed } = checkApiReports({ packagesDir, update });
const seconds = ((performance.now() - started) / 1000).toFixed(1);

for (const change of changed) console.log(`api-report: ${change}`);
for (const failure of failures) console.error(`api-report: ${failure}`);
console.log(`api-report: ${checked.length} entry points (${checked.join(', ')}) in ${seconds} s; ${failures.length === 0 ? 'all reports up to date' : `${failures.length} problem(s)`}`);
if (failures.length > 0) process.exitCode = 1;

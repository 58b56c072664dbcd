// `pnpm docs:api`: makes the API reference of each published package (packages/<name>/docs/api/,
// from api-extractor's doc model by api-documenter) and fails, naming file:line and symbol, on
// an export or member without a doc comment, a {@link} that resolves to nothing, or a doc
// comment that is not valid TSDoc. `--check` (in npm test) writes nothing and also fails when
// the committed reference differs from the one made now. `--only ecs,jobs` makes those
// packages only (any published one, also those not yet enforced). Run after `pnpm build`.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiDocs, NOT_YET_ENFORCED } from './generate.ts';

const args = process.argv.slice(2);
const check = args.includes('--check');
const onlyAt = args.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
const onlyArg = onlyAt < 0 ? undefined : args[onlyAt]!.startsWith('--only=') ? args[onlyAt]!.slice('--only='.length) : args[onlyAt + 1];
if (onlyAt >= 0 && (onlyArg === undefined || onlyArg === '')) throw new Error('docs:api: --only needs a comma-separated list of package folders, e.g. --only ecs,jobs');
const only = onlyArg?.split(',').map((name) => name.trim()).filter((name) => name !== '');

const packagesDir = resolve(import.meta.dirname, '../../../../packages');
const started = performance.now();
const { packages, failures, changed, documented } = apiDocs({ packagesDir, check, ...(only === undefined ? {} : { only }) });
const seconds = ((performance.now() - started) / 1000).toFixed(1);

for (const change of changed) console.log(`docs:api: ${change}`);
for (const failure of failures) console.error(`docs:api: ${failure}`);
const counts = packages.map((short) => `${short} ${documented[short]?.documented ?? 0}/${documented[short]?.items ?? 0}`).join(', ');
console.log(`docs:api: documented items per package: ${counts}`);
if (only === undefined && NOT_YET_ENFORCED.length > 0) console.log(`docs:api: not yet enforced: ${NOT_YET_ENFORCED.join(', ')} (see NOT_YET_ENFORCED in tooling/scripts/src/api-docs/generate.ts)`);
console.log(`docs:api: ${packages.length} packages in ${seconds} s; ${failures.length === 0 ? (check ? 'reference up to date' : 'reference complete') : `${failures.length} problem(s)`}`);
if (failures.length > 0) process.exitCode = 1;

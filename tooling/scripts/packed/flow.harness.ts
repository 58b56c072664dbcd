import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The barrel graph is the README's JSON block, read from the installed package's README.
const readme = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@cuttle/flow/package.json')), 'README.md'), 'utf8');
const barrelSource: unknown = JSON.parse(/```json\n([\s\S]*?)```/.exec(readme)![1]!);
// ---- README example ----
assert.deepEqual(log, ['effect fx/barrel_explosion', 'sound sfx/explosion', 'push 102 by 50', 'destroy 7']);

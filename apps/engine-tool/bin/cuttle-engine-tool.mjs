#!/usr/bin/env node
// Runs the tool host from source (tsx; workspace packages resolve to their src/).
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('./source-hooks.mjs', import.meta.url);
const { main } = await import('../src/host/cli.ts');
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// Runs the engine from source: tsx compiles TypeScript on the fly, and a resolve hook adds the
// workspace's `@cuttle/source` condition so the Cuttle packages load from their src/ (nothing
// to build after a fresh clone). WGSL `?raw` imports get their Vite meaning.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('./source-hooks.mjs', import.meta.url);
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));

// pnpm bundle:node <entry.ts> <out.mjs> [--external name ...]
//   Bundles a Node script for the GPU machine the way `pnpm bench:gpu` bundles benchmarks
//   (workspace packages from src/, WGSL inlined, `webgpu` loaded at run time); packages named
//   with --external (native addons such as sharp) stay imports and must travel beside it.
import { resolve } from 'node:path';
import { bundleNodeScript } from './gpu-bundle.ts';

const argv = process.argv.slice(2);
const external = argv.flatMap((arg, i) => (argv[i - 1] === '--external' ? [arg] : []));
const [entry, outfile] = argv.filter((arg, i) => !arg.startsWith('--') && argv[i - 1] !== '--external');

try {
  if (!entry || !outfile) throw new Error('usage: pnpm bundle:node <entry.ts> <out.mjs> [--external name ...]');
  await bundleNodeScript(resolve(entry), resolve(outfile), external, true);
  console.error(`bundled ${outfile}`);
} catch (error) {
  console.error(`bundle:node: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

// `import source from './shaders/x.wgsl?raw'` is Vite's syntax for "this file as a string".
// This plugin gives esbuild (tsup builds, GPU benchmark bundles) the same meaning, so WGSL
// stays in real .wgsl files and is inlined into what we publish, without its comments.
import { readFile } from 'node:fs/promises';
import { resolve, dirname } from 'node:path';
import type { Plugin } from 'esbuild';
import { stripWgslComments } from './strip-wgsl-comments.ts';

export function rawTextPlugin(): Plugin {
  return {
    name: 'cuttle-raw-text',
    setup(build) {
      build.onResolve({ filter: /\?raw$/ }, (args) => ({
        path: resolve(args.resolveDir || dirname(args.importer), args.path.slice(0, -'?raw'.length)),
        namespace: 'cuttle-raw',
      }));
      build.onLoad({ filter: /.*/, namespace: 'cuttle-raw' }, async (args) => ({
        contents: args.path.endsWith('.wgsl') ? stripWgslComments(await readFile(args.path, 'utf8')) : await readFile(args.path, 'utf8'),
        loader: 'text',
        watchFiles: [args.path],
      }));
    },
  };
}

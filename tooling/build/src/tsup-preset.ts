// The one tsup setup every package uses: ESM plus declarations from src/index.ts, WGSL
// inlined, and types resolved against built packages (not the @cuttle/source condition, which
// would pull a dependency's sources into this package's .d.ts).
import type { Options } from 'tsup';
import { rawTextPlugin } from './raw-text-plugin.ts';

export function cuttlePackage(overrides: Options = {}): Options {
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts: { compilerOptions: { customConditions: [], allowImportingTsExtensions: true } },
    sourcemap: true,
    clean: true,
    treeshake: true,
    esbuildPlugins: [rawTextPlugin()],
    ...overrides,
  };
}

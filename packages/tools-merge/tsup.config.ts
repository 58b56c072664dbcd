import { defineConfig } from 'tsup';
import { cuttlePackage } from '../../tooling/build/src/index.ts';

// Three entries: the platform-neutral core, the Node file-system layer, and the CLI.
export default defineConfig(cuttlePackage({ entry: ['src/index.ts', 'src/node.ts', 'src/cli.ts'], platform: 'node' }));

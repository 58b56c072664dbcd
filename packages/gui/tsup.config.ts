import { defineConfig } from 'tsup';
import { cuttlePackage } from '../../tooling/build/src/index.ts';

// Three entries: the platform-neutral core, the Node file layer, and the cuttle-font CLI.
export default defineConfig(cuttlePackage({ entry: ['src/index.ts', 'src/node.ts', 'src/cli.ts'], platform: 'node' }));

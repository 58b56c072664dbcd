import { defineConfig } from 'tsup';
import { cuttlePackage } from '../../tooling/build/src/index.ts';

// Two entries: the library, and the default worker entry Node starts (dist/worker.js).
export default defineConfig(cuttlePackage({ entry: ['src/index.ts', 'src/worker.ts'] }));

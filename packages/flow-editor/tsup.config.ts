import { defineConfig } from 'tsup';
import { cuttlePackage } from '../../tooling/build/src/index.ts';

export default defineConfig(cuttlePackage());

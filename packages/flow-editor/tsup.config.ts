import { defineConfig } from 'tsup';
import { cuttlePackage } from '../../tooling/build/src/index.ts';

// Two entries: the DOM-free model, and the browser view (`@cuttle/flow-editor/view`), which
// shares the model's code through a common chunk.
export default defineConfig(cuttlePackage({ entry: { index: 'src/index.ts', view: 'src/view/index.ts' } }));

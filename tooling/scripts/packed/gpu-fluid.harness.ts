import assert from 'node:assert/strict';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
// ---- README example ----
assert.equal(fluid.mode, 'nbody');
fluid.destroy();
await finishGpu(device);

import assert from 'node:assert/strict';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
const time = 0.25;
// ---- README example ----
assert.deepEqual(report.fixed, []);
assert.equal(skinning.lastFrame.skinned, 100);
const last = crowd[99]!;
const out = await skinning.read({ firstVertex: last.outputVertex, vertexCount: last.vertexCount });
assert.equal(out.format, 'packed');
assert.ok(out.format === 'packed' && out.positionNormal.some((word) => word !== 0), 'the last instance was not skinned');
skinning.destroy();
await finishGpu(device);

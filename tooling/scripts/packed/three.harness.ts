import assert from 'node:assert/strict';
import { Matrix4 } from 'three';
// ---- README example ----
assert.deepEqual(instances.sync(ecs.transforms), { moved: 1024, missing: 0 });
const matrix = new Matrix4();
mesh.getMatrixAt(33, matrix);
assert.deepEqual([matrix.elements[12], matrix.elements[13], matrix.elements[14]], [1, 0, 1]);

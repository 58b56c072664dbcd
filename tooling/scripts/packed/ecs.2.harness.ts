import assert from 'node:assert/strict';
// ---- README example ----
const world = scene.transforms.fields.world;
assert.equal(copy.transforms.count, 6);
assert.equal(scene.subtreeOf(root).length, 2);
assert.equal(scene.transforms.count, 2); // the loaded planet copy and its moon
assert.ok(world.length > 0);

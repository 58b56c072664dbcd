import assert from 'node:assert/strict';
// @throws positions.create(entity); // throws EcsError
// ---- README example ----
assert.equal(positions.count + masses.count, 0);
assert.equal(y.length > 0, true);

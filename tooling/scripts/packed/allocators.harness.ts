import assert from 'node:assert/strict';
// ---- README example ----
assert.equal(v.gain[0], Math.fround(0.8));
assert.equal(scratch.length, 256);

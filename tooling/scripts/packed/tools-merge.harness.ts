import assert from 'node:assert/strict';
// ---- README example ----
assert.deepEqual(conflicts, [{ path: ['fog'], base: 0.2, left: 0.5, right: 0.9, winner: 'right', reason: 'both changed' }]);
assert.match(writeSjson(merged), /position = \[0 5 0\][\s\S]*id = "c"[\s\S]*fog = 0\.9/);

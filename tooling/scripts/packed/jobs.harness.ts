import assert from 'node:assert/strict';
// ---- README example ----
assert.equal(dataSet[999_999 * 16 + 15], 999_999 + 15);
assert.equal(jobs.isBusy(), false);
await jobs.shutdown();

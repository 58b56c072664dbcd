import assert from 'node:assert/strict';
// ---- README example ----
assert.ok(clock.debt >= 0);
assert.ok(clock.rawDelta > 0.0166 && clock.rawDelta < 0.0168, `last raw delta ${clock.rawDelta}`);

import assert from 'node:assert/strict';
// @throws doc.connect({ node: 'start', pin: 'out' }, { node: music.id, pin: 'name' });
// ---- README example ----
assert.equal(ok, true);
assert.deepEqual([doc.node(music.id)?.x, doc.node(music.id)?.y], [240, 0]);
assert.match(text, /position = \[240 0\]/);
assert.match(text, /from = "start\.out"/);

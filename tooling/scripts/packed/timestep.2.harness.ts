import assert from 'node:assert/strict';

const drawn: number[] = [];
function render(x: number): void {
  drawn.push(x);
}
// ---- README example ----
await new Promise((done) => setTimeout(done, 200));
loop.stop();
assert.ok(drawn.length >= 3, `the loop drew ${drawn.length} frames in 200 ms`);
assert.ok(player.x > 0 && drawn.every((x) => x <= player.x), 'interpolated positions run behind the simulation');

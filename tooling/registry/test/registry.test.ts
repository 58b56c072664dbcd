// Verdaccio 6.8.0 starts on this Node (node-fetch forced to 2.7.0 for it), answers, gives a
// publishing token, proxies nothing, and stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { addUser, startRegistry } from '../src/registry.ts';

test('the local registry starts, creates its user, 404s what was not published, stops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-registry-unit-'));
  const registry = await startRegistry(dir);
  try {
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(registry.token.length).toBeGreaterThan(20);
    const whoami = await fetch(new URL('-/whoami', registry.url), { headers: { authorization: `Bearer ${registry.token}` } });
    expect(await whoami.json()).toEqual({ username: 'cuttle-release' });
    expect((await fetch(new URL('three', registry.url))).status).toBe(404);
    // max_users: 1, so a second user is refused.
    await expect(addUser(registry.url, 'someone-else', 'pw-pw-pw-pw')).rejects.toThrow(/adduser someone-else failed/);
  } finally {
    await registry.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  await expect(fetch(new URL('-/ping', registry.url))).rejects.toThrow();
});

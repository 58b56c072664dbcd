// The Verdaccio config: everything in the temp folder, nothing proxied, publishing needs a user;
// read back with Verdaccio's own parser.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigFile } from 'verdaccio';
import { afterAll, expect, test } from 'vitest';
import { registryPaths, verdaccioConfig } from '../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'cuttle-registry-config-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Parsed {
  storage: string;
  uplinks?: Record<string, unknown>;
  packages: Record<string, { access?: string; publish?: string; proxy?: string }>;
  auth: { htpasswd: { file: string } };
  log: { type: string; path: string };
}

test('Verdaccio parses it: storage, htpasswd and log in the folder, no uplinks, no proxy, publish needs a user', () => {
  const paths = registryPaths(join(dir, 'with "quotes" and spaces'));
  writeFileSync(join(dir, 'config.yaml'), verdaccioConfig(paths));
  const parsed = parseConfigFile(join(dir, 'config.yaml')) as Parsed;
  expect(parsed.storage).toBe(paths.storage);
  expect(parsed.auth.htpasswd.file).toBe(paths.htpasswd);
  expect(parsed.log).toMatchObject({ type: 'file', path: paths.log });
  expect(parsed.uplinks ?? {}).toEqual({});
  for (const rule of Object.values(parsed.packages)) expect(rule.proxy).toBeUndefined();
  expect(parsed.packages['@cuttle/*']).toMatchObject({ access: '$all', publish: '$authenticated' });
});

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { bundle } from './support/bundle.ts';

test('a process that shuts the pool down exits by itself (no open handles)', async () => {
  const files = await bundle({ 'exit-child': join(import.meta.dirname, 'fixtures/exit-child.ts') });
  const result = spawnSync(process.execPath, [fileURLToPath(files.url('exit-child')), files.worker, files.kernels], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.error).toBeUndefined();
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe('done 9999');
  expect(result.status).toBe(0);
});

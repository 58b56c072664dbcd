// One vitest run for the workspace: a project per package, app and tooling folder that has a
// test/ directory. Tests resolve workspace packages to their src/ via the @cuttle/source
// export condition, so nothing needs building first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = import.meta.dirname;

function projects(): TestProjectInlineConfiguration[] {
  const found: TestProjectInlineConfiguration[] = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const dir = join(groupDir, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, 'test')) || !existsSync(join(dir, 'package.json'))) continue;
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
      found.push({
        resolve: { conditions: ['@cuttle/source'] },
        ssr: { resolve: { conditions: ['@cuttle/source'] } },
        test: { name, root: dir, include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' },
      });
    }
  }
  return found;
}

export default defineConfig({
  resolve: { conditions: ['@cuttle/source'] },
  ssr: { resolve: { conditions: ['@cuttle/source'] } },
  test: {
    projects: projects(),
    globalSetup: [join(root, 'tooling/test-utils/src/global-setup.ts')],
  },
});

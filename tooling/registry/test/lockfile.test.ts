import { expect, test } from 'vitest';
import { cuttleName, lockProblems, tarballUrl, unpublishableRanges, type Lockfile } from '../src/lockfile.ts';

const registry = 'http://127.0.0.1:4873/';
const published = new Map([['@cuttle/render', '0.1.0'], ['@cuttle/ecs', '0.2.1']]);
const entry = (name: string, version: string): { version: string; resolved: string } => ({ version, resolved: tarballUrl(registry, name, version) });

test('tarball URLs and Cuttle entries', () => {
  expect(tarballUrl('http://127.0.0.1:4873', '@cuttle/ecs', '0.2.1')).toBe('http://127.0.0.1:4873/@cuttle/ecs/-/ecs-0.2.1.tgz');
  expect(cuttleName('node_modules/@cuttle/render/node_modules/@cuttle/ecs')).toBe('@cuttle/ecs');
  expect(cuttleName('node_modules/@cuttle/render/dist')).toBeUndefined();
  expect(cuttleName('node_modules/three')).toBeUndefined();
});

test('an install of the published versions from the registry passes', () => {
  const lock: Lockfile = { packages: { '': {}, 'node_modules/@cuttle/render': entry('@cuttle/render', '0.1.0'), 'node_modules/@cuttle/ecs': entry('@cuttle/ecs', '0.2.1'), 'node_modules/three': { version: '0.187.0', resolved: 'https://registry.npmjs.org/three/-/three-0.187.0.tgz' } } };
  expect(lockProblems(lock, published, registry)).toEqual([]);
});

test('missing, unresolved, elsewhere-resolved, linked, other-version and unpublished entries fail', () => {
  const lock: Lockfile = {
    packages: {
      'node_modules/@cuttle/render': { version: '0.1.0' },
      'node_modules/@cuttle/render/node_modules/@cuttle/ecs': { version: '0.2.0', resolved: 'https://registry.npmjs.org/@cuttle/ecs/-/ecs-0.2.0.tgz' },
      'node_modules/@cuttle/gui': { version: '0.1.0', resolved: 'file:../gui.tgz', link: true },
    },
  };
  const problems = lockProblems(lock, published, registry);
  expect(problems).toContain('@cuttle/ecs is not installed at node_modules/@cuttle/ecs');
  expect(problems).toContain(`node_modules/@cuttle/render: resolved nowhere, expected ${registry}@cuttle/render/-/render-0.1.0.tgz`);
  expect(problems).toContain('node_modules/@cuttle/render/node_modules/@cuttle/ecs: version 0.2.0, published 0.2.1');
  expect(problems.some((p) => p.includes('registry.npmjs.org'))).toBe(true);
  expect(problems).toContain('node_modules/@cuttle/gui: @cuttle/gui was not published by this release');
});

test('workspace:, file: and link: ranges cannot be published', () => {
  expect(unpublishableRanges({ name: '@cuttle/render', dependencies: { '@cuttle/ecs': '^0.2.1', three: '0.187.0' } })).toEqual([]);
  expect(unpublishableRanges({ name: '@cuttle/render', dependencies: { '@cuttle/ecs': 'workspace:^' }, peerDependencies: { x: 'file:../x' } })).toEqual(['@cuttle/render depends on @cuttle/ecs@workspace:^', '@cuttle/render depends on x@file:../x']);
});

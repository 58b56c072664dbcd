import { expect, test } from 'vitest';
import { bumped, nextPatch, parseVersion, patchReleaseProblems } from '../src/versions.ts';

test('a patch release is patch + 1', () => {
  expect(nextPatch('0.1.0')).toBe('0.1.1');
  expect(nextPatch('1.9.19')).toBe('1.9.20');
  expect(() => nextPatch('1.0.0-next.1')).toThrow(/prerelease/);
  expect(() => parseVersion('1.0')).toThrow(/not a semver version/);
});

test('patchReleaseProblems passes only the bumped package at patch + 1 and everything else unchanged', () => {
  const before = new Map([['@cuttle/timestep', '0.1.0'], ['@cuttle/ecs', '0.2.0']]);
  expect(patchReleaseProblems(before, new Map([['@cuttle/timestep', '0.1.1'], ['@cuttle/ecs', '0.2.0']]), '@cuttle/timestep')).toEqual([]);
  // A minor bump, no bump, another package bumped too, an unknown package: each is a problem.
  expect(patchReleaseProblems(before, new Map([['@cuttle/timestep', '0.2.0'], ['@cuttle/ecs', '0.2.0']]), '@cuttle/timestep')).toEqual(['@cuttle/timestep: expected 0.1.0 → 0.1.1, got 0.2.0']);
  expect(patchReleaseProblems(before, before, '@cuttle/timestep')).toHaveLength(1);
  expect(patchReleaseProblems(before, new Map([['@cuttle/timestep', '0.1.1'], ['@cuttle/ecs', '0.2.1']]), '@cuttle/timestep')).toEqual(['@cuttle/ecs: changed 0.2.0 → 0.2.1 though only @cuttle/timestep had a changeset']);
  expect(patchReleaseProblems(before, before, '@cuttle/nope')).toEqual(['@cuttle/nope is not a publishable package']);
});

test('bumped lists what changed', () => {
  expect(bumped(new Map([['a', '0.0.0'], ['b', '1.0.0']]), new Map([['a', '0.1.0'], ['b', '1.0.0']]))).toEqual(['a@0.0.0 → 0.1.0']);
});

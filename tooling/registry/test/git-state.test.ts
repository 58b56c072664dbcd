import { expect, test } from 'vitest';
import { gitLeftovers } from '../src/git-state.ts';

test('new tags and worktrees under the temporary folder are leftovers; others are not', () => {
  const before = { tags: ['v0'], worktrees: ['/work/main'] };
  expect(gitLeftovers(before, { tags: ['v0'], worktrees: ['/work/main', '/tmp/other'] }, '/tmp/cuttle-registry-x')).toEqual([]);
  expect(gitLeftovers(before, { tags: ['v0', '@cuttle/ecs@0.1.0'], worktrees: ['/work/main', '/tmp/cuttle-registry-x/repo'] }, '/tmp/cuttle-registry-x')).toEqual(['new tag @cuttle/ecs@0.1.0', 'worktree /tmp/cuttle-registry-x/repo still registered']);
});

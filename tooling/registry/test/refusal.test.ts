// Outputs as npm 11 / pnpm 10 print them against Verdaccio 6 (captured from real runs).
import { expect, test } from 'vitest';
import type { CommandResult } from '../src/command.ts';
import { duplicateRefusal } from '../src/refusal.ts';

const result = (code: number, stderr: string, stdout = ''): CommandResult => ({ command: 'pnpm publish', code, stdout, stderr });

test('the registry refusing a version it has is a refusal', () => {
  const e409 = 'npm warn using --force Recommended protections disabled.\nnpm error code E409\nnpm error 409 Conflict - PUT http://127.0.0.1:38883/@cuttle%2ftimestep - this package is already present\n';
  expect(duplicateRefusal(result(1, e409))).toBe('npm error code E409');
  expect(duplicateRefusal(result(1, 'npm error You cannot publish over the previously published versions: 0.1.0.\n'))).toMatch(/cannot publish over/);
  expect(duplicateRefusal(result(1, 'npm error code EPUBLISHCONFLICT\n'))).toBe('npm error code EPUBLISHCONFLICT');
  expect(duplicateRefusal(result(1, 'npm error 403 Forbidden - PUT https://registry.npmjs.org/x - You cannot publish over the previously published versions: 1.0.0.\nnpm error code E403\n'))).toBeDefined();
});

test('a publish that succeeded or failed for another reason is not a refusal', () => {
  expect(duplicateRefusal(result(0, 'npm notice Publishing to http://127.0.0.1:1/ with tag latest'))).toBeUndefined();
  expect(duplicateRefusal(result(1, 'npm error code ENEEDAUTH\nnpm error need auth This command requires you to be logged in\n'))).toBeUndefined();
  expect(duplicateRefusal(result(1, 'npm error code ECONNREFUSED\nnpm error 409 Conflict\n'))).toBeUndefined();
  expect(duplicateRefusal(result(1, 'npm error code E403\nnpm error 403 Forbidden - user cuttle-release is not allowed to publish package @cuttle/x\n'))).toBeUndefined();
  expect(duplicateRefusal(result(-1, '(killed after 1000 ms)'))).toBeUndefined();
});

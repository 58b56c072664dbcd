// The command table of `cuttle-merge`, spelled out (no registration side effects, so bundlers
// keep every command).
import { diffCommand, dispatch, gitDriverCommand, helpCommand, mergeCommand, type CliCommand, type CliIo } from './cli-main.ts';
import { hashCheckCommand, hashCommand } from './hash-check.ts';
import { depsCommand } from './project-files.ts';

const COMMANDS: ReadonlyMap<string, CliCommand> = new Map([
  ['diff', diffCommand],
  ['merge', mergeCommand],
  ['git-driver', gitDriverCommand],
  ['deps', depsCommand],
  ['hash', hashCommand],
  ['hash-check', hashCheckCommand],
  ['help', helpCommand],
]);

/** Runs `cuttle-merge` with `argv` (without the program name); returns the exit code. */
export function runCli(argv: readonly string[], io: CliIo): number {
  return dispatch(COMMANDS, argv, io);
}

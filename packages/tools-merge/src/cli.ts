#!/usr/bin/env node
// The `cuttle-merge` bin: all logic lives in cli-main.ts (the command table is cli-run.ts).
import { runCli } from './cli-run.ts';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  color: process.stdout.isTTY && process.env.NO_COLOR === undefined,
});

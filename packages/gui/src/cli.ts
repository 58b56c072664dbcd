#!/usr/bin/env node
// The `cuttle-font` bin: all logic lives in cli-run.ts.
import { runCli } from './cli-run.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});

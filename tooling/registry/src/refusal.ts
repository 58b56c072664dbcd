// Whether a failed publish was the registry refusing to publish over an existing version, as
// opposed to failing for another reason (no auth, no network, a broken package).
import type { CommandResult } from './command.ts';

/** What npm, pnpm and Verdaccio print when a version exists already. */
const refusalPatterns = [
  /\bEPUBLISHCONFLICT\b/,
  /cannot publish over (the )?previously published version/i,
  /this package is already present/i,
  /\b409 Conflict\b/i,
  /\bE409\b/,
  /\bE403\b[^\n]*(already|previously published|exists)/i,
];

/** Other failures that must never pass for a refusal. */
const otherFailures = [/\bE401\b/, /\bENEEDAUTH\b/, /\bECONNREFUSED\b/, /\bE404\b/, /\bENOTFOUND\b/];

/** The line that shows the publish was refused as a duplicate, or undefined when it was not. */
export function duplicateRefusal(result: CommandResult): string | undefined {
  if (result.code === 0) return undefined;
  const output = `${result.stderr}\n${result.stdout}`;
  if (otherFailures.some((p) => p.test(output))) return undefined;
  for (const line of output.split('\n')) {
    if (refusalPatterns.some((p) => p.test(line))) return line.trim();
  }
  return undefined;
}

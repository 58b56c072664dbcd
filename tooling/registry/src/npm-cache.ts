// npm's cache keeps the metadata and tarballs it fetched from the local registry under its URL.
// The next run may get the same port, and `--prefer-offline` would then take that run's
// packuments, so the test forgets them before installing and after.
import { runCommand, runOk } from './command.ts';

const prefix = 'make-fetch-happen:request-cache:';

/** The cache keys of `lines` (`npm cache ls` output) that came from `registry`. */
export function registryKeys(lines: string, registry: string): string[] {
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  return lines.split('\n').map((l) => l.trim()).filter((key) => key.startsWith(prefix) && key.slice(prefix.length).startsWith(base));
}

/** What one `npm cache clean <keys>` did: the keys it deleted, the key it stopped at (already without content). */
export function cleanOutcome(stdout: string, stderr: string): { deleted: Set<string>; notFound?: string } {
  const deleted = new Set([...stdout.matchAll(/^Deleted: (.+)$/gm)].map((m) => m[1]!.trim()));
  const notFound = /Not Found: (.+)$/m.exec(stderr)?.[1]?.trim();
  return notFound === undefined ? { deleted } : { deleted, notFound };
}

/** Removes from npm's cache what was fetched from `registry`; returns how many entries. */
export async function forgetRegistry(registry: string, cwd: string): Promise<number> {
  let keys = registryKeys((await runOk('npm', ['cache', 'ls'], { cwd, timeoutMs: 60_000 })).stdout, registry);
  let removed = 0;
  // `npm cache clean` stops at the first key whose content is gone (shared with a key removed
  // before); such an entry is a cache miss anyway: skip it and go on with the rest.
  while (keys.length > 0) {
    const result = await runCommand('npm', ['cache', 'clean', ...keys], { cwd, timeoutMs: 60_000 });
    const { deleted, notFound } = cleanOutcome(result.stdout, result.stderr);
    if (deleted.size === 0 && notFound === undefined) break;
    removed += deleted.size;
    keys = keys.filter((k) => !deleted.has(k) && k !== notFound);
  }
  return removed;
}

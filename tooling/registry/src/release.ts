// The repository's own release path, run in the scratch repository against the local registry:
// `changeset version`, then `pnpm release --registry <url> --no-build` (tooling/scripts/release.sh:
// `changeset publish`, which publishes with `pnpm publish`); a forced re-publish; a patch changeset.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, runOk, type CommandResult } from './command.ts';

/** The scratch repository's .npmrc: the token that publishes to `registry` (as CI would write it). */
export function writeAuth(repo: string, registry: string, token: string): void {
  writeFileSync(join(repo, '.npmrc'), `//${new URL(registry).host}/:_authToken=${token}\n`);
}

export function pendingChangesets(repo: string): number {
  return readdirSync(join(repo, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md').length;
}

export function versionPackages(repo: string): Promise<CommandResult> {
  return runOk('pnpm', ['changeset', 'version'], { cwd: repo, timeoutMs: 120_000 });
}

/** `pnpm release` as a maintainer runs it, pointed at `registry`, with dist/ already built. */
export function release(repo: string, registry: string): Promise<CommandResult> {
  return runCommand('pnpm', ['run', 'release', '--registry', registry, '--no-build'], { cwd: repo, timeoutMs: 300_000 });
}

/**
 * Publishes the package in `dir` again with the tool `changeset publish` uses, `--force` so that
 * pnpm and npm skip their own "already published" check and the registry has to refuse.
 */
export function forcePublish(dir: string, registry: string): Promise<CommandResult> {
  return runCommand('pnpm', ['publish', '--no-git-checks', '--force', '--access', 'public'], { cwd: dir, env: { npm_config_registry: registry }, timeoutMs: 120_000 });
}

/** Adds a patch changeset for `name` and returns its file. */
export function writePatchChangeset(repo: string, name: string): string {
  const file = join(repo, '.changeset', 'registry-test-patch.md');
  writeFileSync(file, `---\n"${name}": patch\n---\n\nRegistry test: a patch release.\n`);
  return file;
}

/** Terminal colour codes (FORCE_COLOR). */
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The name@version lines `changeset publish` lists under "packages published successfully". */
export function publishedList(output: string): string[] {
  const plain = output.replace(ansi, '');
  const at = plain.indexOf('packages published successfully');
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of plain.slice(at).split('\n').slice(1)) {
    const m = /(@cuttle\/[\w.-]+@\d+\.\d+\.\d+\S*)\s*$/.exec(line);
    if (m === null) break;
    out.push(m[1]!);
  }
  return out;
}

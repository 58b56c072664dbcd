// The scratch repository the registry test releases from, so the checkout is never touched: a
// `git clone --shared` of this checkout's HEAD under a temporary folder (its commits and the tags
// `changeset publish` makes stay there; unlike a worktree it adds no branch or tag to this
// repository), plus what the working tree has that HEAD lacks among the release inputs (as
// `release.sh --dry-run` copies changesets and manifests), installed with pnpm, with dist/ copied
// from the checkout (CI has run `pnpm build`).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runOk } from './command.ts';

/**
 * What goes from the working tree into the scratch repository when it differs from HEAD: the
 * changesets, what is published beside dist/, the release script, and the workspace's manifests
 * with the lockfile (so that `pnpm install --frozen-lockfile` there installs what the working tree
 * would commit). In CI the working tree is HEAD and nothing is copied.
 */
export const releaseInputs = [
  '.changeset',
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  '*/*/package.json',
  'packages/*/CHANGELOG.md',
  'packages/*/README.md',
  'tooling/scripts/release.sh',
];

export class ScratchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScratchError';
  }
}

/** Clones `root` at HEAD into `dir` and makes it ready to release from. */
export async function createScratchRepo(root: string, dir: string): Promise<void> {
  const head = (await runOk('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
  await runOk('git', ['clone', '--quiet', '--shared', '--no-checkout', root, dir], { cwd: root });
  await runOk('git', ['checkout', '--quiet', '--detach', head], { cwd: dir });
  const changed = (await runOk('git', ['ls-files', '--modified', '--others', '--exclude-standard', '-z', '--', ...releaseInputs], { cwd: root })).stdout.split('\0').filter((f) => f !== '');
  for (const file of new Set(changed)) {
    const target = join(dir, file);
    if (existsSync(join(root, file))) {
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(root, file), target);
    } else {
      rmSync(target, { force: true });
    }
  }
  await runOk('pnpm', ['install', '--prefer-offline', '--frozen-lockfile'], { cwd: dir, env: { CI: 'true' }, timeoutMs: 300_000 });
  for (const pkg of listDirs(join(dir, 'packages'))) {
    const built = join(root, 'packages', pkg, 'dist');
    if (existsSync(built)) cpSync(built, join(dir, 'packages', pkg, 'dist'), { recursive: true });
  }
}

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
}

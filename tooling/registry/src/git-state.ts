// What the registry test must not leave in the checkout's repository: the tags `changeset
// publish` makes, a worktree of its temporary folder. (HEAD, branches and the working tree are
// not compared: others may work in this checkout meanwhile; the scratch repository is a separate
// clone, so they are never written.)
import { runOk } from './command.ts';

export interface GitState {
  tags: string[];
  worktrees: string[];
}

export async function gitState(root: string): Promise<GitState> {
  const lines = async (argv: string[]): Promise<string[]> => (await runOk('git', argv, { cwd: root })).stdout.split('\n').filter((l) => l !== '');
  return { tags: await lines(['tag', '--list']), worktrees: (await lines(['worktree', 'list', '--porcelain'])).filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length)) };
}

/** How `after` differs from `before` in what the test could have left (empty when nothing). */
export function gitLeftovers(before: GitState, after: GitState, tmp: string): string[] {
  const out = after.tags.filter((t) => !before.tags.includes(t)).map((t) => `new tag ${t}`);
  out.push(...after.worktrees.filter((w) => w.startsWith(tmp)).map((w) => `worktree ${w} still registered`));
  return out;
}

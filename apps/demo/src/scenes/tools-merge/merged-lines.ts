// The merged level line by line, from the package's own merge view (`mergeLines`, the one its
// CLI prints and writes as HTML): unchanged units fold to "… n unchanged items …", added and
// removed lines are green and red, and each change is tagged with the side it came from.
import { mergeLines, type LineOrigin, type MergeResult } from '@cuttle/tools-merge';
import type { MergeView } from './merge-session.ts';

const TAG: Record<LineOrigin, string> = { base: '', left: 'A', right: 'B', both: 'A+B', conflict: '!' };
const GUTTER = { same: ' ', add: '+', remove: '−' } as const;

export function renderMergedLines(target: HTMLElement, view: MergeView): void {
  // Only open conflicts are conflicts here; a picked one shows as the side it came from.
  const conflicts = view.groups.filter((g) => g.choice === undefined).flatMap((g) => g.conflicts);
  const result: MergeResult = { merged: view.resolved, conflicts };
  // Unchanged blocks of more than two lines fold, so the changes are near the top.
  const rows = mergeLines(view.base, view.a, view.b, result, { foldAbove: 2 }).map((line) => {
    const row = document.createElement('div');
    row.className = `line ${line.kind} ${line.origin ?? 'base'}`;
    const tag = document.createElement('span');
    tag.className = 'tag';
    tag.textContent = TAG[line.origin ?? 'base'];
    const text = document.createElement('span');
    text.textContent = `${GUTTER[line.kind]} ${'    '.repeat(line.depth)}${line.text}`;
    row.append(tag, text);
    return row;
  });
  target.replaceChildren(...rows);
}

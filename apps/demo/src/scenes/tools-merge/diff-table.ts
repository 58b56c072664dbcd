// The visual merge, field by field, as the post's merge view shows it: base, A, B and the merged
// value side by side, coloured by what happened (added, removed, changed, conflict) and by who
// did it. Conflicts come first, each with a button per side; the merge kept B's value (the
// post's "always pick the right-hand branch") until a side is picked.
import { valueAt, type JsonValue, type Path } from '@cuttle/tools-merge';
import type { ConflictGroup, Side } from './conflicts.ts';
import type { FieldRow } from './field-changes.ts';
import { fieldLabel, valueNode } from './format-value.ts';
import type { MergeView } from './merge-session.ts';

const KIND_TEXT = { added: '+ added', removed: '− removed', changed: '~ changed' } as const;

function cell(path: Path, value: JsonValue | undefined, className = ''): HTMLTableCellElement {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.append(valueNode(path, value));
  return td;
}

function fieldCell(path: Path, note: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.className = 'field';
  const { unit, field } = fieldLabel(path);
  const name = document.createElement('code');
  if (unit) name.append(Object.assign(document.createElement('b'), { textContent: unit }), document.createElement('br'));
  name.append(field);
  const small = document.createElement('small');
  small.textContent = note;
  td.append(name, small);
  return td;
}

function conflictRow(group: ConflictGroup, merged: JsonValue | undefined, pick: (key: string, side: Side) => void): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = group.choice === undefined ? 'conflict open' : 'conflict resolved';
  tr.dataset.key = group.key;
  const note = group.choice === undefined ? `! conflict: ${group.reason}` : `✓ resolved: ${group.choice} picked`;
  tr.append(fieldCell(group.path, note), cell(group.path, group.base, 'base'));
  for (const side of ['A', 'B'] as const) {
    const td = cell(group.path, side === 'A' ? group.a : group.b, `side-${side.toLowerCase()}${group.choice === side ? ' picked' : ''}`);
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `Pick ${side}`;
    const { unit, field } = fieldLabel(group.path);
    button.title = `Keep ${side}'s ${field}${unit ? ` of ${unit}` : ''} in the merged level`;
    button.setAttribute('aria-pressed', String(group.choice === side));
    button.addEventListener('click', () => { pick(group.key, side); });
    td.append(button);
    tr.append(td);
  }
  const result = cell(group.path, merged, 'merged');
  if (group.choice === undefined) result.append(Object.assign(document.createElement('small'), { textContent: 'B for now' }));
  tr.append(result);
  return tr;
}

function fieldRow(row: FieldRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = `${row.kind} from-${row.origin === 'A+B' ? 'both' : row.origin.toLowerCase()}`;
  const by = row.origin === 'A+B' ? 'A and B (the same edit)' : row.origin;
  tr.append(
    fieldCell(row.path, `${KIND_TEXT[row.kind]} by ${by}`),
    cell(row.path, row.base, 'base'),
    cell(row.path, row.a, row.origin === 'B' ? 'side-a same' : 'side-a'),
    cell(row.path, row.b, row.origin === 'A' ? 'side-b same' : 'side-b'),
    cell(row.path, row.merged, 'merged'),
  );
  return tr;
}

/** Rebuilds the table for a merge view. */
export function renderDiffTable(table: HTMLTableElement, view: MergeView, pick: (key: string, side: Side) => void): void {
  const head = document.createElement('thead');
  head.innerHTML = '<tr><th>field</th><th>base</th><th>A</th><th>B</th><th>merged</th></tr>';
  const body = document.createElement('tbody');
  for (const group of view.groups) body.append(conflictRow(group, valueAt(view.resolved, group.path), pick));
  for (const row of view.rows) body.append(fieldRow(row));
  if (view.groups.length === 0 && view.rows.length === 0) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 5;
    td.className = 'empty';
    td.textContent = 'No changes yet: press "Simulate edits", or edit A or B above.';
    tr.append(td);
    body.append(tr);
  }
  table.replaceChildren(head, body);
}

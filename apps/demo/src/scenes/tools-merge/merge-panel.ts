// The panel beside the map: the two people's versions as editable SJSON, the "Simulate edits"
// button that makes the example edits, the field-by-field diff with its conflict buttons, and
// the merged level (the package's line view, and the SJSON text the merge writes).
import { renderDiffTable } from './diff-table.ts';
import { renderMergedLines } from './merged-lines.ts';
import type { MergeSession } from './merge-session.ts';
import { personA, personB } from './simulated-edits.ts';

/** Typing settles for this long before the level is merged again. */
const EDIT_DELAY_MS = 250;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function details(summary: string, open: boolean, ...content: HTMLElement[]): HTMLDetailsElement {
  const d = element('details', 'merge-section');
  d.open = open;
  d.append(element('summary', '', summary), ...content);
  return d;
}

function editor(label: string, text: string): { box: HTMLElement; area: HTMLTextAreaElement; error: HTMLElement } {
  const box = element('label', 'merge-editor');
  const area = element('textarea', '');
  area.spellcheck = false;
  area.wrap = 'off';
  area.rows = 14;
  area.value = text;
  const error = element('p', 'merge-error');
  box.append(element('span', '', label), area, error);
  return { box, area, error };
}

/** Scrolls a text area so its first line that differs from `base` is in view (a few lines down). */
function showFirstChange(area: HTMLTextAreaElement, base: string): void {
  const lines = area.value.split('\n');
  const baseLines = base.split('\n');
  const first = lines.findIndex((line, i) => line !== baseLines[i]);
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 16;
  area.scrollTop = first < 0 ? 0 : Math.max(0, (first - 3) * lineHeight);
}

export class MergePanel {
  readonly element: HTMLElement;
  readonly #session: MergeSession;
  readonly #changed: () => void;
  readonly #a: ReturnType<typeof editor>;
  readonly #b: ReturnType<typeof editor>;
  readonly #summary = element('p', 'merge-summary');
  readonly #table = element('table', 'merge-diff');
  readonly #lines = element('div', 'merge-lines');
  readonly #text = element('pre', 'merge-text merge-written');
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `changed` runs after every merge or pick (the map redraws from the session's view). */
  constructor(session: MergeSession, changed: () => void) {
    this.#session = session;
    this.#changed = changed;
    this.element = element('section', 'merge-panel');
    this.element.setAttribute('aria-label', 'Level merge');
    const simulate = element('button', '', 'Simulate edits');
    simulate.type = 'button';
    simulate.title = 'A moves a crate and makes the pool lamp blue; B adds a crate and makes the same lamp red';
    const reset = element('button', '', 'Reset to base');
    reset.type = 'button';
    simulate.addEventListener('click', () => { this.#setTexts(personA(session.baseText), personB(session.baseText)); });
    reset.addEventListener('click', () => { this.#setTexts(session.baseText, session.baseText); });
    this.#summary.setAttribute('role', 'status');
    this.#a = editor('A (left)', session.baseText);
    this.#b = editor('B (right)', session.baseText);
    for (const side of [this.#a, this.#b]) side.area.addEventListener('input', () => { this.#schedule(); });
    const bar = element('div', 'merge-bar');
    bar.append(simulate, reset);
    const legend = element('p', 'merge-legend');
    legend.innerHTML = '<span class="added">+ added</span><span class="removed">− removed</span><span class="changed">~ changed</span><span class="conflict">! conflict</span><span class="side-a">A</span><span class="side-b">B</span>';
    const editors = element('div', 'merge-editors');
    editors.append(this.#a.box, this.#b.box);
    const base = element('pre', 'merge-text', session.baseText);
    this.element.append(
      element('p', 'merge-intro', 'Two people edited the same level. The 3-way merge combines their edits field by field; a conflict is only a field both changed differently.'),
      bar,
      this.#summary,
      legend,
      this.#table,
      element('p', 'merge-map-legend', 'Map, top-down: grey columns, brown crates, teal walkers, blue pool, lamps in their light colour. Outlined: changed by A (cyan), by B (violet), by both (white), open conflict (orange); a faint square is where a moved unit stood, a red one where a removed unit stood.'),
      details('Edit the two versions (SJSON)', true, editors, details('The common base', false, base)),
      details('Merged level, line by line', true, this.#lines),
      details('Merged level as written (SJSON)', false, this.#text),
    );
    this.render();
  }

  #setTexts(a: string, b: string): void {
    this.#a.area.value = a;
    this.#b.area.value = b;
    this.#merge();
    showFirstChange(this.#a.area, this.#session.baseText);
    showFirstChange(this.#b.area, this.#session.baseText);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => { this.#merge(); }, EDIT_DELAY_MS);
  }

  #merge(): void {
    clearTimeout(this.#timer);
    const errors = this.#session.edit(this.#a.area.value, this.#b.area.value);
    this.#a.error.textContent = errors.a ? `Does not parse (the merge uses A's last good version): ${errors.a}` : '';
    this.#b.error.textContent = errors.b ? `Does not parse (the merge uses B's last good version): ${errors.b}` : '';
    this.render();
  }

  render(): void {
    const view = this.#session.view;
    const byA = view.rows.filter((r) => r.origin !== 'B').length + view.groups.length;
    const byB = view.rows.filter((r) => r.origin !== 'A').length + view.groups.length;
    this.#summary.textContent = `A changed ${byA} ${byA === 1 ? 'field' : 'fields'}, B ${byB} · conflicts: ${view.open} open of ${view.groups.length} · merged level: ${view.units.length} units`;
    this.#summary.classList.toggle('has-open', view.open > 0);
    renderDiffTable(this.#table, view, (key, side) => {
      this.#session.pick(key, side);
      this.render();
    });
    renderMergedLines(this.#lines, view);
    this.#text.textContent = view.text;
    this.#changed();
  }

  destroy(): void {
    clearTimeout(this.#timer);
  }
}

// The searchable palette: a text box over a listbox of node types, filtered with
// FlowPalette.search as the user types. Arrow keys move the choice, Enter or a click adds it,
// Escape closes. It knows nothing of the graph: it calls `onPick` with the entry.
import type { FlowPaletteEntry, FlowPalette } from '../palette.ts';

const LIMIT = 40;
let nextId = 0;

export class PalettePopup {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  readonly list: HTMLUListElement;
  readonly #palette: FlowPalette;
  #entries: FlowPaletteEntry[] = [];
  #active = 0;
  #onPick: (entry: FlowPaletteEntry) => void = () => undefined;
  #onClose: () => void = () => undefined;

  constructor(palette: FlowPalette) {
    this.#palette = palette;
    const id = `cfe-palette-${nextId++}`;
    this.element = document.createElement('div');
    this.element.className = 'cfe-palette';
    this.input = document.createElement('input');
    this.input.type = 'text';
    this.input.placeholder = 'Add a node…';
    this.input.setAttribute('role', 'combobox');
    this.input.setAttribute('aria-label', 'Search node types');
    this.input.setAttribute('aria-autocomplete', 'list');
    this.input.setAttribute('aria-controls', id);
    this.input.setAttribute('aria-expanded', 'true');
    this.list = document.createElement('ul');
    this.list.id = id;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Node types');
    this.element.append(this.input, this.list);
    this.input.addEventListener('input', () => { this.#filter(); });
    this.input.addEventListener('keydown', (e) => { this.#key(e); });
    this.list.addEventListener('pointerdown', (e) => {
      e.stopPropagation();
      const item = (e.target as Element).closest('li');
      const index = item === null ? -1 : Number(item.dataset.index);
      const entry = this.#entries[index];
      if (entry !== undefined) {
        e.preventDefault();
        this.#pick(entry);
      }
    });
    this.element.addEventListener('pointerdown', (e) => { e.stopPropagation(); });
    this.element.addEventListener('wheel', (e) => { e.stopPropagation(); });
  }

  get open(): boolean {
    return this.element.style.display === 'block';
  }

  /** Opens at a screen position inside the view, with an empty query. */
  show(left: number, top: number, onPick: (entry: FlowPaletteEntry) => void, onClose: () => void): void {
    this.#onPick = onPick;
    this.#onClose = onClose;
    this.element.style.left = `${left}px`;
    this.element.style.top = `${top}px`;
    this.element.style.display = 'block';
    this.input.value = '';
    this.#filter();
    this.input.focus();
  }

  hide(): void {
    if (!this.open) return;
    this.element.style.display = 'none';
    this.#onClose();
  }

  #filter(): void {
    this.#entries = this.#palette.search(this.input.value, LIMIT);
    this.#active = 0;
    this.list.replaceChildren(
      ...this.#entries.map((entry, index) => {
        const li = document.createElement('li');
        li.id = `${this.list.id}-${index}`;
        li.setAttribute('role', 'option');
        li.dataset.index = String(index);
        li.dataset.type = entry.type;
        li.textContent = entry.title;
        const small = document.createElement('small');
        small.textContent = entry.type;
        li.append(small);
        return li;
      }),
    );
    this.#mark();
  }

  #mark(): void {
    const items = this.list.children;
    for (let i = 0; i < items.length; i++) items[i]!.setAttribute('aria-selected', String(i === this.#active));
    const active = items[this.#active];
    if (active === undefined) this.input.removeAttribute('aria-activedescendant');
    else {
      this.input.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    }
  }

  #key(e: KeyboardEvent): void {
    e.stopPropagation();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = this.#entries.length;
      if (n > 0) this.#active = (this.#active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.#mark();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const entry = this.#entries[this.#active];
      if (entry !== undefined) this.#pick(entry);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.hide();
    }
  }

  #pick(entry: FlowPaletteEntry): void {
    const pick = this.#onPick;
    this.hide();
    pick(entry);
  }
}

// Comment boxes and groups: rectangles behind the nodes with a header to grab them by.
// Reconciled by record identity like the nodes.
import type { FlowEditorComment, FlowEditorGroup } from '../api.ts';

type Box = FlowEditorComment | FlowEditorGroup;

interface BoxDrawn {
  element: HTMLElement;
  record: Box;
}

export class BoxLayer {
  readonly element: HTMLElement;
  readonly #drawn = { comments: new Map<string, BoxDrawn>(), groups: new Map<string, BoxDrawn>() };

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'cfe-boxes';
  }

  sync(kind: 'comments' | 'groups', boxes: readonly Box[], selected: ReadonlySet<string>): void {
    const drawn = this.#drawn[kind];
    const seen = new Set<string>();
    for (const box of boxes) {
      seen.add(box.id);
      let entry = drawn.get(box.id);
      if (entry === undefined) {
        const element = document.createElement('div');
        element.className = kind === 'comments' ? 'cfe-comment' : 'cfe-group';
        element.dataset[kind === 'comments' ? 'comment' : 'group'] = box.id;
        const header = document.createElement('div');
        header.className = 'cfe-box-header';
        element.append(header);
        this.element.append(element);
        entry = { element, record: box };
        drawn.set(box.id, entry);
        this.#draw(entry);
      } else if (entry.record !== box) {
        entry.record = box;
        this.#draw(entry);
      }
      entry.element.classList.toggle('cfe-selected', selected.has(box.id));
    }
    for (const [id, entry] of drawn) {
      if (seen.has(id)) continue;
      entry.element.remove();
      drawn.delete(id);
    }
  }

  #draw(entry: BoxDrawn): void {
    const box = entry.record;
    const s = entry.element.style;
    s.transform = `translate(${box.x}px,${box.y}px)`;
    s.width = `${box.width}px`;
    s.height = `${box.height}px`;
    const text = 'title' in box ? box.title : box.text;
    entry.element.firstElementChild!.textContent = text;
    entry.element.setAttribute('aria-label', `${'title' in box ? 'group' : 'comment'}: ${text}`);
  }
}

/** Height of a box's header in graph units: where a box is grabbed (its inside passes clicks to the canvas). */
export const BOX_HEADER = 22;

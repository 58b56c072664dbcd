// The view's keys, when it or a node in it has focus: Delete/Backspace, Ctrl+C/V, Ctrl+Z,
// Ctrl+Shift+Z/Ctrl+Y, Ctrl+A, Space for the palette, arrows to move the selection, F to fit,
// +/- to zoom, F9 to toggle the focused node's breakpoint, Escape to cancel. Refused commands (a bad paste) show their message.
import { FlowEditorError } from '../errors.ts';
import type { FlowEditorView } from './flow-editor-view.ts';
import type { PointerInput } from './pointer-input.ts';

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class KeyboardInput {
  readonly #view: FlowEditorView;
  readonly #abort = new AbortController();
  /** What Ctrl+C copied last (the system clipboard gets it too, when the page may write it). */
  clipboard = '';

  readonly #pointer: PointerInput;

  constructor(view: FlowEditorView, pointer: PointerInput) {
    this.#view = view;
    this.#pointer = pointer;
    const signal = this.#abort.signal;
    view.element.addEventListener('keydown', (e) => { this.#key(e); }, { signal });
    view.element.addEventListener('paste', (e) => {
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (text === '') return;
      e.preventDefault();
      this.#paste(text);
    }, { signal });
  }

  destroy(): void {
    this.#abort.abort();
  }

  #key(e: KeyboardEvent): void {
    const view = this.#view;
    const doc = view.document;
    const ctrl = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let handled = true;
    if (key === 'Delete' || key === 'Backspace') {
      if (!view.selection.empty) doc.remove(view.selection.toSelection());
    } else if (ctrl && key === 'z') {
      if (e.shiftKey) doc.redo();
      else doc.undo();
    } else if (ctrl && key === 'y') {
      doc.redo();
    } else if (ctrl && key === 'c') {
      if (!view.selection.empty) {
        this.clipboard = doc.copy(view.selection.toSelection());
        (navigator.clipboard as Clipboard | undefined)?.writeText(this.clipboard).catch(() => undefined);
      }
    } else if (ctrl && key === 'v') {
      if (this.clipboard !== '') this.#paste(this.clipboard);
      else handled = false;
    } else if (ctrl && key === 'a') {
      view.select({ nodes: doc.nodes.map((n) => n.id) });
    } else if (!ctrl && key === ' ') {
      view.openPalette(this.#pointer.pointer);
    } else if (!ctrl && ARROWS[key] !== undefined) {
      if (view.selection.empty) {
        const [x, y] = ARROWS[key];
        view.panBy(-x * 40, -y * 40);
      } else {
        const [x, y] = ARROWS[key];
        const step = e.shiftKey ? 50 : 10;
        doc.move(view.selection.toSelection(), x * step, y * step);
        doc.endDrag();
      }
    } else if (!ctrl && key === 'f') {
      view.fit();
    } else if (!ctrl && (key === '+' || key === '=')) {
      view.zoomAt(1.2);
    } else if (!ctrl && key === '-') {
      view.zoomAt(1 / 1.2);
    } else if (key === 'F9') {
      // The focused node, else the one selected node.
      const focused = (document.activeElement as HTMLElement | null)?.dataset.node;
      const only = view.selection.nodes.size === 1 ? view.selection.nodes.values().next().value : undefined;
      const id = focused ?? only;
      if (id !== undefined) view.toggleBreakpoint(id);
    } else if (key === 'Escape') {
      this.#pointer.cancel();
      view.select({});
      view.setStatus('');
    } else {
      handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  #paste(text: string): void {
    const view = this.#view;
    const pointer = this.#pointer.pointer;
    try {
      const pasted = view.document.paste(text, pointer === undefined ? {} : { at: view.viewport.toGraph(pointer.x, pointer.y) });
      view.select(pasted);
    } catch (error) {
      if (!(error instanceof FlowEditorError)) throw error;
      view.setStatus(`Paste refused: ${error.message}`, true);
    }
  }
}

// Pointer gestures of the view: drag on empty space pans (shift+drag draws a selection
// rectangle), drag on a node moves the selection (one undo step per drag), drag from a pin
// connects with live feedback from checkConnection, the wheel zooms around the pointer, a
// right-click on empty space opens the palette, the minimap moves the view, and a click on a
// node's gutter dot toggles its breakpoint.
import type { FlowPinRef, FlowPoint } from '../api.ts';
import { FlowConnectError } from '../errors.ts';
import { BOX_HEADER } from './box-layer.ts';
import type { FlowEditorView } from './flow-editor-view.ts';
import { rectContainsPoint, rectFromCorners } from './geometry.ts';
import type { PinHit } from './graph-layout.ts';
import type { SelectionKind } from './selection.ts';
import { wheelZoomFactor } from './viewport.ts';

/** Pixels a press may travel and still count as a click. */
const CLICK_SLOP = 3;

type Gesture =
  | { kind: 'pan'; startX: number; startY: number; lastX: number; lastY: number; moved: boolean }
  | { kind: 'move'; last: FlowPoint; startX: number; startY: number; moved: boolean }
  | { kind: 'connect'; from: PinHit; target: PinHit | undefined; ok: boolean }
  | { kind: 'marquee'; start: FlowPoint; add: boolean }
  | { kind: 'minimap' };

function refOf(hit: PinHit): FlowPinRef {
  return { node: hit.pin.node, pin: hit.pin.name, kind: hit.pin.kind };
}

export class PointerInput {
  readonly #view: FlowEditorView;
  readonly #abort = new AbortController();
  #gesture: Gesture | undefined;
  #marked: Element | undefined;
  /** The last pointer position in the view's pixels, when it was over the view. */
  pointer: FlowPoint | undefined;

  constructor(view: FlowEditorView) {
    this.#view = view;
    const root = view.element;
    const signal = this.#abort.signal;
    root.addEventListener('pointerdown', (e) => { this.#down(e); }, { signal });
    root.addEventListener('pointermove', (e) => { this.#move(e); }, { signal });
    root.addEventListener('pointerup', (e) => { this.#up(e); }, { signal });
    root.addEventListener('pointercancel', () => { this.cancel(); }, { signal });
    root.addEventListener('pointerleave', () => { if (this.#gesture === undefined) this.pointer = undefined; }, { signal });
    root.addEventListener('wheel', (e) => { this.#wheel(e); }, { signal, passive: false });
    root.addEventListener('contextmenu', (e) => { this.#contextMenu(e); }, { signal });
  }

  destroy(): void {
    this.#abort.abort();
  }

  /** Abandons the gesture in progress (Escape): a connect draws nothing, a drag keeps what it moved. */
  cancel(): void {
    const g = this.#gesture;
    this.#gesture = undefined;
    if (g?.kind === 'move') this.#view.document.endDrag();
    this.#view.links.setPreview(undefined);
    this.#view.repaint();
    this.#view.marquee.style.display = 'none';
    this.#mark(undefined, '');
  }

  #local(e: PointerEvent | WheelEvent | MouseEvent): FlowPoint {
    const box = this.#view.element.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  }

  #down(e: PointerEvent): void {
    const view = this.#view;
    if (view.palettePopup.open) view.palettePopup.hide();
    const screen = this.#local(e);
    this.pointer = screen;
    if (e.target === view.minimap?.canvas) {
      if (e.button !== 0) return;
      this.#gesture = { kind: 'minimap' };
      view.element.setPointerCapture(e.pointerId);
      this.#minimapTo(e);
      e.preventDefault();
      return;
    }
    if (e.button === 2) return;
    e.preventDefault();
    const dot = e.button === 0 ? (e.target as Element | null)?.closest('.cfe-bp') : null;
    const dotNode = dot?.closest<HTMLElement>('.cfe-node')?.dataset.node;
    if (dotNode !== undefined) {
      view.toggleBreakpoint(dotNode);
      view.nodeElement(dotNode)?.focus({ preventScroll: true });
      return;
    }
    const p = view.viewport.toGraph(screen.x, screen.y);
    view.element.setPointerCapture(e.pointerId);
    if (e.button === 1) {
      this.#gesture = { kind: 'pan', startX: screen.x, startY: screen.y, lastX: screen.x, lastY: screen.y, moved: false };
      view.element.focus({ preventScroll: true });
      return;
    }
    if (e.button !== 0) return;
    const pin = view.layout.pinAt(p);
    if (pin !== undefined) {
      view.setStatus('');
      this.#gesture = { kind: 'connect', from: pin, target: undefined, ok: false };
      view.element.focus({ preventScroll: true });
      return;
    }
    const node = view.layout.nodeAt(p);
    const box = node === undefined ? this.#boxHeaderAt(p) : undefined;
    const hit: [SelectionKind, string] | undefined = node !== undefined ? ['nodes', node] : box;
    if (hit !== undefined) {
      const [kind, id] = hit;
      if (e.shiftKey || !view.selection.has(kind, id)) view.selection.pick(kind, id, e.shiftKey);
      view.selectionChanged();
      const element = kind === 'nodes' ? view.nodeElement(id) : undefined;
      (element ?? view.element).focus({ preventScroll: true });
      this.#gesture = { kind: 'move', last: p, startX: screen.x, startY: screen.y, moved: false };
      return;
    }
    view.element.focus({ preventScroll: true });
    if (e.shiftKey) {
      this.#gesture = { kind: 'marquee', start: screen, add: true };
      return;
    }
    this.#gesture = { kind: 'pan', startX: screen.x, startY: screen.y, lastX: screen.x, lastY: screen.y, moved: false };
  }

  #boxHeaderAt(p: FlowPoint): [SelectionKind, string] | undefined {
    const doc = this.#view.document;
    for (let i = doc.comments.length - 1; i >= 0; i--) {
      const c = doc.comments[i]!;
      if (rectContainsPoint({ x: c.x, y: c.y, width: c.width, height: BOX_HEADER }, p)) return ['comments', c.id];
    }
    for (let i = doc.groups.length - 1; i >= 0; i--) {
      const g = doc.groups[i]!;
      if (rectContainsPoint({ x: g.x, y: g.y, width: g.width, height: BOX_HEADER }, p)) return ['groups', g.id];
    }
    return undefined;
  }

  #move(e: PointerEvent): void {
    const view = this.#view;
    const screen = this.#local(e);
    this.pointer = screen;
    const g = this.#gesture;
    if (g === undefined) return;
    switch (g.kind) {
      case 'minimap':
        this.#minimapTo(e);
        return;
      case 'pan':
        if (!g.moved && Math.hypot(screen.x - g.startX, screen.y - g.startY) < CLICK_SLOP) return;
        g.moved = true;
        view.panBy(screen.x - g.lastX, screen.y - g.lastY);
        g.lastX = screen.x;
        g.lastY = screen.y;
        return;
      case 'move': {
        if (!g.moved && Math.hypot(screen.x - g.startX, screen.y - g.startY) < CLICK_SLOP) return;
        g.moved = true;
        const p = view.viewport.toGraph(screen.x, screen.y);
        const dx = Math.round(p.x - g.last.x);
        const dy = Math.round(p.y - g.last.y);
        if (dx === 0 && dy === 0) return;
        view.document.move(view.selection.toSelection(), dx, dy);
        g.last = { x: g.last.x + dx, y: g.last.y + dy };
        return;
      }
      case 'marquee': {
        const r = rectFromCorners(g.start, screen);
        const s = view.marquee.style;
        s.display = 'block';
        s.left = `${r.x}px`;
        s.top = `${r.y}px`;
        s.width = `${r.width}px`;
        s.height = `${r.height}px`;
        return;
      }
      case 'connect':
        this.#connectFeedback(g, screen);
        return;
    }
  }

  #connectFeedback(g: Extract<Gesture, { kind: 'connect' }>, screen: FlowPoint): void {
    const view = this.#view;
    const p = view.viewport.toGraph(screen.x, screen.y);
    const hit = view.layout.pinAt(p);
    const target = hit !== undefined && !(hit.pin.node === g.from.pin.node && hit.pin.name === g.from.pin.name && hit.direction === g.from.direction) ? hit : undefined;
    let refusal = '';
    if (target !== undefined) {
      try {
        view.document.checkConnection(refOf(g.from), refOf(target));
      } catch (error) {
        if (!(error instanceof FlowConnectError) && !(error instanceof Error)) throw error;
        refusal = error.message;
      }
    }
    g.target = target;
    g.ok = target !== undefined && refusal === '';
    const end = target?.anchor ?? p;
    const [a, b] = g.from.direction === 'output' ? [g.from.anchor, end] : [end, g.from.anchor];
    view.links.setPreview({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, refused: refusal !== '' });
    view.repaint();
    this.#mark(target, refusal);
  }

  /** Marks the pin under the pointer as a fit (green) or a refusal (red, with the message in the status line). */
  #mark(target: PinHit | undefined, refusal: string): void {
    const view = this.#view;
    this.#marked?.classList.remove('cfe-ok', 'cfe-refused');
    this.#marked = undefined;
    if (target === undefined) {
      if (view.status !== '' && refusal === '' && this.#gesture?.kind === 'connect') view.setStatus('');
      return;
    }
    const element = view.nodeElement(target.pin.node)?.querySelector(`.cfe-pin[data-dir="${target.direction}"][data-kind="${target.pin.kind}"][data-pin="${CSS.escape(target.pin.name)}"]`) ?? undefined;
    element?.classList.add(refusal === '' ? 'cfe-ok' : 'cfe-refused');
    this.#marked = element;
    view.setStatus(refusal === '' ? '' : `Refused: ${refusal}`, refusal !== '');
  }

  #up(e: PointerEvent): void {
    const view = this.#view;
    const g = this.#gesture;
    this.#gesture = undefined;
    if (view.element.hasPointerCapture(e.pointerId)) view.element.releasePointerCapture(e.pointerId);
    if (g === undefined) return;
    switch (g.kind) {
      case 'pan':
        if (!g.moved && e.button === 0) {
          view.selection.clear();
          view.selectionChanged();
        }
        return;
      case 'move':
        if (g.moved) view.document.endDrag();
        return;
      case 'marquee': {
        view.marquee.style.display = 'none';
        const a = view.viewport.toGraph(g.start.x, g.start.y);
        const screen = this.#local(e);
        const b = view.viewport.toGraph(screen.x, screen.y);
        for (const id of view.layout.nodesInRect(rectFromCorners(a, b))) view.selection.nodes.add(id);
        view.selectionChanged();
        return;
      }
      case 'connect': {
        this.#connectFeedback(g, this.#local(e));
        view.links.setPreview(undefined);
        view.repaint();
        const refused = this.#marked?.classList.contains('cfe-refused') === true;
        this.#marked?.classList.remove('cfe-ok', 'cfe-refused');
        this.#marked = undefined;
        if (g.ok && g.target !== undefined) {
          view.document.connect(refOf(g.from), refOf(g.target));
          view.setStatus('');
        } else if (!refused) {
          view.setStatus('');
        }
        return;
      }
      case 'minimap':
        return;
    }
  }

  #wheel(e: WheelEvent): void {
    const view = this.#view;
    e.preventDefault();
    const screen = this.#local(e);
    const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? view.height : 1;
    if (view.options.wheel === 'pan' && !e.ctrlKey) view.panBy(-e.deltaX * scale, -e.deltaY * scale);
    else view.zoomAt(wheelZoomFactor(e.deltaY * scale), screen);
  }

  #contextMenu(e: MouseEvent): void {
    const view = this.#view;
    e.preventDefault();
    const screen = this.#local(e);
    if (view.layout.nodeAt(view.viewport.toGraph(screen.x, screen.y)) === undefined) view.openPalette(screen);
  }

  #minimapTo(e: PointerEvent): void {
    const view = this.#view;
    const minimap = view.minimap!;
    const box = minimap.canvas.getBoundingClientRect();
    const p = minimap.toGraph(e.clientX - box.left - minimap.canvas.clientLeft, e.clientY - box.top - minimap.canvas.clientTop);
    view.viewport.centreOn(p, view.width, view.height);
    view.viewChanged();
  }
}

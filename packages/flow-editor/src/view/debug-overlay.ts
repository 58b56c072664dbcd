// The live-debugging layer of the view: what a host reports from a running instance drawn on
// the nodes. Nodes that ran glow (a class, faded by CSS) with their run count on hover, a
// hovered pin shows its last value, nodes carry breakpoints (a dot in the title gutter, F9)
// and the node an instance stopped at is marked. The view never touches a runtime: the host
// feeds setActivity, setPinValues, setBreakpoints and setPausedAt, and hears toggles.
import type { FlowPin } from '../api.ts';
import { FlowEditorError } from '../errors.ts';
import type { FlowEditorView } from './flow-editor-view.ts';
import { NodeActivity } from './node-activity.ts';
import { PinValueTable, checkCounts, checkPinValues, formatPinValue, type FlowNodeCounts, type FlowPinValues } from './pin-values.ts';

/** Called when the user toggles a breakpoint (its dot, F9); return false to refuse it (the view then shows no change). */
export type FlowBreakpointListener = (nodeId: string, on: boolean) => boolean | undefined;

interface HoveredPin {
  pin: FlowPin;
  /** The pin's place among its node's data pins: inputs first, then outputs. */
  index: number;
}

/** Whether a node can hold a breakpoint: the runtime stops before nodes that run (event pins); pure nodes run inside their readers. */
function breakable(view: FlowEditorView, id: string): boolean {
  const pins = view.document.pins(id);
  if (pins === undefined) return false;
  return pins.inputs.some((p) => p.kind === 'event') || pins.outputs.some((p) => p.kind === 'event');
}

export class DebugOverlay {
  readonly #view: FlowEditorView;
  readonly activity = new NodeActivity();
  readonly breakpoints = new Set<string>();
  readonly #listeners = new Set<FlowBreakpointListener>();
  readonly #values = new PinValueTable();
  readonly #tooltip: HTMLElement;
  readonly #abort = new AbortController();
  readonly #darken = (id: string): void => { this.#view.nodeElement(id)?.classList.remove('cfe-ran'); };
  #pausedAt: string | undefined;
  #hovered: HoveredPin | undefined;
  #sweep: ReturnType<typeof setTimeout> | undefined;

  constructor(view: FlowEditorView) {
    this.#view = view;
    this.#tooltip = document.createElement('div');
    this.#tooltip.className = 'cfe-pin-value';
    this.#tooltip.setAttribute('role', 'tooltip');
    view.element.append(this.#tooltip);
    const signal = this.#abort.signal;
    view.element.addEventListener('pointermove', (e) => { this.#pointer(e); }, { signal });
    view.element.addEventListener('pointerleave', () => { this.#hover(undefined); }, { signal });
    view.element.addEventListener('pointerdown', () => { this.#hover(undefined); }, { signal });
  }

  destroy(): void {
    this.#abort.abort();
    if (this.#sweep !== undefined) clearTimeout(this.#sweep);
  }

  get pausedAt(): string | undefined {
    return this.#pausedAt;
  }

  /** The text of the pin-value tooltip ('' when hidden). */
  get tooltip(): string {
    return this.#hovered === undefined ? '' : this.#tooltip.textContent;
  }

  setActivity(runs: FlowNodeCounts): void {
    checkCounts(runs);
    const now = performance.now();
    if (runs instanceof Map) {
      for (const [id, count] of runs as ReadonlyMap<string, number>) if (count > 0) this.#ran(id, count, now);
    } else {
      const flat = runs as Exclude<FlowNodeCounts, ReadonlyMap<string, number>>;
      const { ids, counts } = flat;
      for (let i = 0; i < ids.length; i++) {
        const count = counts[i]!;
        if (count > 0) this.#ran(ids[i]!, count, now);
      }
    }
    this.#expire(now);
  }

  #ran(id: string, count: number, now: number): void {
    const element = this.#view.nodeElement(id);
    if (element === undefined) return; // a node the edited document no longer has
    if (this.activity.ran(id, count, now)) element.classList.add('cfe-ran');
    element.dataset.runs = String(this.activity.total(id));
  }

  #expire(now: number): void {
    const left = this.activity.expire(now, this.#darken);
    if (left > 0 && this.#sweep === undefined) {
      // When the host stops reporting, lit nodes still go dark.
      this.#sweep = setTimeout(() => {
        this.#sweep = undefined;
        this.#expire(performance.now());
      }, this.activity.holdMs);
    }
  }

  setPinValues(values: FlowPinValues | undefined): void {
    checkPinValues(values);
    this.#values.set(values);
    if (values === undefined) this.#hover(undefined);
    else if (this.#hovered !== undefined) this.#showValue(this.#hovered);
  }

  onBreakpointToggle(listener: FlowBreakpointListener): () => void {
    if (typeof listener !== 'function') throw new FlowEditorError('bad-argument', `onBreakpointToggle needs a function, got ${typeof listener}.`);
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  /** The user's toggle (dot, F9): asks the listeners, then shows it; returns whether it changed. */
  toggle(id: string, on = !this.breakpoints.has(id)): boolean {
    if (this.#view.document.node(id) === undefined || !breakable(this.#view, id)) return false;
    if (on === this.breakpoints.has(id)) return false;
    let refused = false;
    for (const listener of this.#listeners) if (listener(id, on) === false) refused = true;
    if (refused) return false;
    if (on) this.breakpoints.add(id);
    else this.breakpoints.delete(id);
    this.#view.nodeElement(id)?.classList.toggle('cfe-breakpoint', on);
    return true;
  }

  setBreakpoints(ids: Iterable<string>): void {
    if ((ids as unknown) === null || typeof (ids as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function' || typeof ids === 'string') {
      throw new FlowEditorError('bad-argument', `setBreakpoints needs an iterable of node ids, got ${typeof ids}.`);
    }
    const next = new Set<string>();
    for (const id of ids) {
      if (typeof id !== 'string') throw new FlowEditorError('bad-argument', `setBreakpoints: node ids are strings, got ${typeof id}.`);
      next.add(id);
    }
    for (const id of this.breakpoints) if (!next.has(id)) this.#view.nodeElement(id)?.classList.remove('cfe-breakpoint');
    for (const id of next) if (!this.breakpoints.has(id)) this.#view.nodeElement(id)?.classList.add('cfe-breakpoint');
    this.breakpoints.clear();
    for (const id of next) this.breakpoints.add(id);
  }

  setPausedAt(id: string | undefined): void {
    if (id !== undefined && typeof id !== 'string') throw new FlowEditorError('bad-argument', `setPausedAt needs a node id or undefined, got ${typeof id}.`);
    if (id === this.#pausedAt) return;
    if (this.#pausedAt !== undefined) this.#view.nodeElement(this.#pausedAt)?.classList.remove('cfe-paused');
    this.#pausedAt = id;
    if (id === undefined) return;
    this.#view.nodeElement(id)?.classList.add('cfe-paused');
    this.#view.revealNode(id);
  }

  /** Puts the debugging classes back on a node element the view has just (re)drawn. */
  decorate(id: string, element: HTMLElement): void {
    if (this.activity.isLit(id)) element.classList.add('cfe-ran');
    const total = this.activity.total(id);
    if (total > 0) element.dataset.runs = String(total);
    if (this.breakpoints.has(id)) element.classList.add('cfe-breakpoint');
    if (this.#pausedAt === id) element.classList.add('cfe-paused');
    if (breakable(this.#view, id)) element.classList.add('cfe-breakable');
  }

  /** Drops the state of nodes the document no longer has. */
  forget(id: string): void {
    this.activity.forget(id);
    this.breakpoints.delete(id);
    if (this.#pausedAt === id) this.#pausedAt = undefined;
    if (this.#hovered?.pin.node === id) this.#hover(undefined);
  }

  #pointer(e: PointerEvent): void {
    if (!this.#values.present || e.buttons !== 0) {
      if (this.#hovered !== undefined) this.#hover(undefined);
      return;
    }
    const view = this.#view;
    const box = view.element.getBoundingClientRect();
    const hit = view.layout.pinAt(view.viewport.toGraph(e.clientX - box.left, e.clientY - box.top));
    if (hit?.pin.kind !== 'data') {
      this.#hover(undefined);
      return;
    }
    if (this.#hovered?.pin === hit.pin) return;
    const pins = view.document.pins(hit.pin.node);
    if (pins === undefined) return;
    let index = 0;
    let found = -1;
    for (const p of pins.inputs) {
      if (p.kind !== 'data') continue;
      if (p === hit.pin) found = index;
      index++;
    }
    for (const p of pins.outputs) {
      if (p.kind !== 'data') continue;
      if (p === hit.pin) found = index;
      index++;
    }
    this.#hover(found < 0 ? undefined : { pin: hit.pin, index: found });
  }

  #hover(hovered: HoveredPin | undefined): void {
    this.#hovered = hovered;
    if (hovered === undefined) {
      this.#tooltip.style.display = '';
      return;
    }
    this.#showValue(hovered);
  }

  #showValue(hovered: HoveredPin): void {
    const view = this.#view;
    const { pin } = hovered;
    const value = this.#values.get(pin.node, hovered.index);
    const text = `${pin.name} = ${formatPinValue(value, pin.valueType, this.#values.strings)}`;
    if (this.#tooltip.textContent !== text) this.#tooltip.textContent = text;
    const anchor = view.layout.anchor({ node: pin.node, pin: pin.name, kind: 'data' }, pin.direction);
    if (anchor === undefined) return;
    const p = view.viewport.toScreen(anchor.x, anchor.y);
    const s = this.#tooltip.style;
    s.display = 'block';
    s.left = `${Math.round(pin.direction === 'input' ? p.x - 8 : p.x + 8)}px`;
    s.top = `${Math.round(p.y - 30)}px`;
    s.transform = pin.direction === 'input' ? 'translateX(-100%)' : '';
  }
}

// The editor's view in a browser: draws a FlowDocument as DOM nodes in one CSS-transformed layer
// with one SVG for the links, comments and groups behind them, a minimap and a palette, and turns
// pointer and keys into the document's commands (pointer-input.ts, keyboard-input.ts). It
// redraws from the document's onChange, touching only the nodes, links and boxes whose records
// changed, once per animation frame. A host debugging a running instance feeds it activity, pin
// values, breakpoints and the paused node (debug-overlay.ts).
import type { FlowEditorLink, FlowPoint, FlowRect, FlowSelection } from '../api.ts';
import type { FlowDocument } from '../flow-document.ts';
import { FlowEditorError } from '../errors.ts';
import { FlowPalette } from '../palette.ts';
import { pinColour } from '../pin-colours.ts';
import { BoxLayer } from './box-layer.ts';
import { DebugOverlay, type FlowBreakpointListener } from './debug-overlay.ts';
import { rectsIntersect } from './geometry.ts';
import { GraphLayout } from './graph-layout.ts';
import { KeyboardInput } from './keyboard-input.ts';
import { LinkCanvas } from './link-canvas.ts';
import { Minimap } from './minimap.ts';
import { drawNode, issuesKey, linkedPinsKey, placeNode, type NodeDrawn } from './node-element.ts';
import { PalettePopup } from './palette-popup.ts';
import type { FlowNodeCounts, FlowPinValues } from './pin-values.ts';
import { PointerInput } from './pointer-input.ts';
import { ViewSelection } from './selection.ts';
import { VIEW_CSS } from './styles.ts';
import { Viewport, type ViewportState } from './viewport.ts';

/** Options of a {@link FlowEditorView}; every one has a default. */
export interface FlowEditorViewOptions {
  /** The palette to add nodes from; default: every type of the document's registry. */
  palette?: FlowPalette;
  /** What a plain wheel does: 'zoom' around the pointer (default) or 'pan' (trackpads); ctrl+wheel and pinches always zoom. */
  wheel?: 'zoom' | 'pan';
  /** Show the minimap (default true). */
  minimap?: boolean;
  /** Skip drawing nodes outside the visible area (default true). */
  cull?: boolean;
  /** Accessible name of the editor (default "Flow graph editor"). */
  label?: string;
}

/** Below this zoom the DOM nodes are hidden and the canvas draws plain boxes (text would be under 5 px). */
export const FAR_ZOOM = 0.4;
/** Culling keeps nodes this far outside the screen, as a fraction of it, so a pan shows no gaps. */
const CULL_MARGIN = 0.25;

/**
 * The DOM editor of a `FlowDocument`: nodes as elements over a canvas of links, pan and zoom, selection, dragging, connecting, the node palette, a minimap, keyboard commands, and the debugger's overlays (lit nodes, pin values, the node an instance stopped at).
 */
export class FlowEditorView {
  /** The editor's root element (put it in the page; `destroy()` removes it). */
  readonly element: HTMLElement;
  /** The document the view shows and edits. */
  readonly document: FlowDocument;
  /** Node boxes and hit tests in graph units. */
  readonly layout: GraphLayout;
  /** The camera: pan and zoom between graph units and the view's pixels. */
  readonly viewport = new Viewport();
  /** What is selected in the view. */
  readonly selection = new ViewSelection();
  /** The options with their defaults filled in (palette and label excepted). */
  readonly options: Readonly<Required<Omit<FlowEditorViewOptions, 'palette' | 'label'>>>;
  /** @internal pieces the input handlers reach */
  readonly layer: HTMLElement;
  /** The canvas the links are drawn on; used by the view's input handlers, not meant for callers. */
  readonly links: LinkCanvas;
  /** The node palette popup; used by the view's input handlers, not meant for callers. */
  readonly palettePopup: PalettePopup;
  /** The minimap, or undefined with `minimap: false`; used by the view's input handlers, not meant for callers. */
  readonly minimap: Minimap | undefined;
  /** The selection rectangle element; used by the view's input handlers, not meant for callers. */
  readonly marquee: HTMLElement;
  readonly #statusElement: HTMLElement;
  readonly #nodesElement: HTMLElement;
  readonly #boxes: BoxLayer;
  readonly #drawn = new Map<string, NodeDrawn>();
  readonly #culled = new Set<string>();
  readonly #pointer: PointerInput;
  readonly #keyboard: KeyboardInput;
  readonly #debug: DebugOverlay;
  readonly #unsubscribe: () => void;
  readonly #resize: ResizeObserver | undefined;
  #frame = 0;
  #graphDirty = true;
  #issuesDirty = true;
  #viewDirty = true;
  #minimapDirty = true;
  #status = '';
  #destroyed = false;
  #lastSyncMs = 0;
  #far = false;
  #canvasDirty = true;

  constructor(container: HTMLElement, doc: FlowDocument, options: FlowEditorViewOptions = {}) {
    const given: unknown = container;
    if (typeof HTMLElement === 'undefined' || !(given instanceof HTMLElement)) throw new FlowEditorError('bad-argument', 'FlowEditorView needs an HTMLElement to mount into.');
    this.document = doc;
    this.layout = new GraphLayout(doc);
    this.options = { wheel: options.wheel ?? 'zoom', minimap: options.minimap ?? true, cull: options.cull ?? true };
    const root = document.createElement('div');
    root.className = 'cfe-root';
    root.tabIndex = 0;
    root.setAttribute('role', 'application');
    root.setAttribute('aria-roledescription', 'node graph editor');
    root.setAttribute('aria-label', options.label ?? 'Flow graph editor');
    root.style.width = '100%';
    root.style.height = '100%';
    const style = document.createElement('style');
    style.textContent = VIEW_CSS;
    this.#boxes = new BoxLayer();
    this.#boxes.element.classList.add('cfe-layer');
    this.links = new LinkCanvas();
    this.layer = document.createElement('div');
    this.layer.className = 'cfe-layer cfe-nodes';
    this.#nodesElement = this.layer;
    this.marquee = document.createElement('div');
    this.marquee.className = 'cfe-marquee';
    this.#statusElement = document.createElement('div');
    this.#statusElement.className = 'cfe-status';
    this.#statusElement.setAttribute('role', 'status');
    this.#statusElement.setAttribute('aria-live', 'polite');
    this.palettePopup = new PalettePopup(options.palette ?? new FlowPalette(doc.registry));
    root.append(style, this.#boxes.element, this.links.canvas, this.layer, this.marquee, this.#statusElement, this.palettePopup.element);
    if (this.options.minimap) {
      this.minimap = new Minimap();
      root.append(this.minimap.canvas);
    }
    this.element = root;
    container.append(root);
    this.#unsubscribe = doc.onChange((change) => {
      this.#graphDirty = true;
      this.#minimapDirty = true;
      if (change.graphChanged) this.#issuesDirty = true;
      this.selection.retain((kind, id) => (kind === 'nodes' ? doc.node(id) : kind === 'comments' ? doc.comment(id) : doc.group(id)) !== undefined);
      this.#schedule();
    });
    this.#debug = new DebugOverlay(this);
    this.#pointer = new PointerInput(this);
    this.#keyboard = new KeyboardInput(this, this.#pointer);
    // Focus moving to a node off screen (Tab) would scroll the root: keep it unscrolled and bring the node into view instead.
    root.addEventListener('scroll', () => {
      root.scrollTop = 0;
      root.scrollLeft = 0;
    });
    root.addEventListener('focusin', (e) => {
      const id = (e.target as HTMLElement).dataset.node;
      if (id === undefined) return;
      if (!this.selection.nodes.has(id)) this.select({ nodes: [id] });
      this.revealNode(id);
    });
    this.#resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => { this.#viewDirty = true; this.#schedule(); });
    this.#resize?.observe(root);
    const bounds = this.layout.bounds();
    if (bounds !== undefined) this.viewport.fit(bounds, this.width, this.height);
    this.#draw();
  }

  /** Width of the view in CSS pixels (at least 1). */
  get width(): number {
    return this.element.clientWidth || 1;
  }

  /** Height of the view in CSS pixels (at least 1). */
  get height(): number {
    return this.element.clientHeight || 1;
  }

  /** The camera's pan and zoom, to save and restore with `setViewport`. */
  get viewportState(): ViewportState {
    return this.viewport.state;
  }

  /** Moves the camera to a saved pan and zoom (zoom clamped to {@link MIN_ZOOM} to {@link MAX_ZOOM}). */
  setViewport(state: ViewportState): void {
    this.viewport.set(state);
    this.viewChanged();
  }

  /** Pans the camera by (dx, dy) in the view's pixels. */
  panBy(dx: number, dy: number): void {
    this.viewport.panBy(dx, dy);
    this.viewChanged();
  }

  /** Zooms by `factor` around a point in the view's pixels (default its centre). */
  zoomAt(factor: number, screen: FlowPoint = { x: this.width / 2, y: this.height / 2 }): void {
    this.viewport.zoomAt(screen.x, screen.y, factor);
    this.viewChanged();
  }

  /** Shows the whole graph. */
  fit(): void {
    const bounds = this.layout.bounds();
    if (bounds !== undefined) this.viewport.fit(bounds, this.width, this.height);
    this.viewChanged();
  }

  /** Pans so a node is on screen (when it is not already). */
  revealNode(id: string): void {
    const r = this.layout.rect(id);
    if (r === undefined) return;
    const visible = this.viewport.visibleRect(this.width, this.height);
    if (r.x >= visible.x && r.y >= visible.y && r.x + r.width <= visible.x + visible.width && r.y + r.height <= visible.y + visible.height) return;
    this.viewport.centreOn({ x: r.x + r.width / 2, y: r.y + r.height / 2 }, this.width, this.height);
    this.viewChanged();
  }

  /** The selected ids. */
  get selected(): Required<FlowSelection> {
    return this.selection.toSelection();
  }

  /** Replaces the selection with these ids. */
  select(selection: FlowSelection): void {
    this.selection.set(selection);
    this.selectionChanged();
  }

  /** Opens the palette at a point in the view's pixels (default: its centre); the node it adds goes there. */
  openPalette(screen: FlowPoint = { x: this.width / 2, y: this.height / 2 }): void {
    const at = this.viewport.toGraph(screen.x, screen.y);
    const left = Math.max(0, Math.min(screen.x, this.width - 264));
    const top = Math.max(0, Math.min(screen.y, this.height - 300));
    this.palettePopup.show(left, top, (entry) => {
      const node = this.document.addNode(entry, { x: Math.round(at.x), y: Math.round(at.y) });
      this.select({ nodes: [node.id] });
    }, () => { this.element.focus({ preventScroll: true }); });
  }

  /** The message the view shows last (a refused link, a failed paste); '' when none. */
  get status(): string {
    return this.#status;
  }

  /** Shows a message at the bottom of the view; `refused` styles it as a refusal. */
  setStatus(text: string, refused = false): void {
    this.#status = text;
    this.#statusElement.textContent = text;
    this.#statusElement.classList.toggle('cfe-refused', refused);
  }

  /** Numbers for tests and benchmarks: elements drawn, nodes culled, the last redraw's time in ms. */
  get stats(): { nodes: number; links: number; culled: number; lastSyncMs: number } {
    return { nodes: this.#drawn.size, links: this.links.size, culled: this.#culled.size, lastSyncMs: this.#lastSyncMs };
  }

  /** The element drawn for a node (undefined when it is not drawn). */
  nodeElement(id: string): HTMLElement | undefined {
    return this.#drawn.get(id)?.element;
  }

  /** Draws now what is pending instead of at the next animation frame. */
  flush(): void {
    if (this.#frame !== 0) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#draw();
  }

  /**
   * Live debugging: the nodes that ran since the last call glow (held while they keep running,
   * then fading), their run count on hover. Keyed by node id: a Map, or `{ ids, counts }` with
   * `ids[i]` naming `counts[i]` (a FlowWatch's `runs` and `program.nodeId(i)` for each i). Ids
   * the document does not have are skipped. Only nodes that light up or go dark change class.
   */
  setActivity(runs: FlowNodeCounts): void {
    this.#debug.setActivity(runs);
  }

  /**
   * Live debugging: the values a hovered data pin shows. A Map from node id to the node's data
   * pin values (inputs then outputs, the runtime's order), or a FlowWatch's arrays as they are:
   * `{ ids, values: watch.pinValues, start: watch.pinStart, strings?: program.strings }`. Read
   * only when a pin is hovered; undefined hides them.
   */
  setPinValues(values: FlowPinValues | undefined): void {
    this.#debug.setPinValues(values);
  }

  /** The text of the pin-value tooltip ('' when none is shown). */
  get pinValueText(): string {
    return this.#debug.tooltip;
  }

  /** Node ids with a breakpoint shown. */
  get breakpoints(): ReadonlySet<string> {
    return this.#debug.breakpoints;
  }

  /** Shows these breakpoints (and no others); the host's truth, e.g. the runtime's `debugStatus(i).breakpoints`. */
  setBreakpoints(ids: Iterable<string>): void {
    this.#debug.setBreakpoints(ids);
  }

  /**
   * Toggles a breakpoint as the user does (its dot, F9): the listeners hear it and may refuse it
   * by returning false; returns whether it changed. Nodes without event pins (pure nodes) hold none.
   */
  toggleBreakpoint(id: string, on?: boolean): boolean {
    return this.#debug.toggle(id, on);
  }

  /** Calls `listener(nodeId, on)` when the user toggles a breakpoint; returns the unsubscribe function. */
  onBreakpointToggle(listener: FlowBreakpointListener): () => void {
    return this.#debug.onBreakpointToggle(listener);
  }

  /** Marks the node an instance stopped at (and brings it into view); undefined clears it. */
  setPausedAt(id: string | undefined): void {
    this.#debug.setPausedAt(id);
  }

  /** Id of the node marked as where an instance stopped, or undefined. */
  get pausedAt(): string | undefined {
    return this.#debug.pausedAt;
  }

  /** Nodes glowing now. */
  get litNodes(): number {
    return this.#debug.activity.lit;
  }

  /** Stops listening to the document and to input, and removes the element; later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#debug.destroy();
    this.#unsubscribe();
    this.#pointer.destroy();
    this.#keyboard.destroy();
    this.#resize?.disconnect();
    if (this.#frame !== 0) cancelAnimationFrame(this.#frame);
    this.element.remove();
  }

  /** @internal the camera moved: redraw the transform, the culling and the minimap's outline. */
  viewChanged(): void {
    this.#viewDirty = true;
    this.#schedule();
  }

  /** @internal the canvas content changed (the link being dragged): redraw it. */
  repaint(): void {
    this.#canvasDirty = true;
    this.#schedule();
  }

  /** @internal the selection changed: redraw the highlights. */
  selectionChanged(): void {
    for (const [id, drawn] of this.#drawn) drawn.element.classList.toggle('cfe-selected', this.selection.nodes.has(id));
    this.#boxes.sync('comments', this.document.comments, this.selection.comments);
    this.#boxes.sync('groups', this.document.groups, this.selection.groups);
  }

  #schedule(): void {
    if (this.#frame !== 0 || this.#destroyed) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #draw(): void {
    const start = performance.now();
    if (this.#graphDirty) {
      this.#graphDirty = false;
      this.#syncGraph(this.#issuesDirty);
      this.#issuesDirty = false;
      this.#viewDirty = true;
      this.#canvasDirty = true;
    }
    if (this.#viewDirty) {
      this.#viewDirty = false;
      const v = this.viewport;
      const transform = `translate(${v.x}px,${v.y}px) scale(${v.zoom})`;
      const far = v.zoom < FAR_ZOOM;
      if (!far && this.options.cull) this.#cull();
      if (far !== this.#far) {
        this.#far = far;
        this.layer.style.display = far ? 'none' : '';
      }
      if (!far) this.layer.style.transform = transform;
      this.#boxes.element.style.transform = transform;
      this.#canvasDirty = true;
      if (this.minimap !== undefined) {
        if (this.#minimapDirty) {
          this.#minimapDirty = false;
          const bounds = this.layout.bounds() ?? { x: 0, y: 0, width: 1, height: 1 };
          this.minimap.drawNodes(bounds, this.#minimapRects());
        }
        this.minimap.drawView(v.visibleRect(this.width, this.height));
      }
    }
    if (this.#canvasDirty) {
      this.#canvasDirty = false;
      this.links.draw(this.viewport, this.width, this.height, this.#far ? this.#farNodes() : undefined);
    }
    this.#lastSyncMs = performance.now() - start;
  }

  *#farNodes(): Generator<{ rect: FlowRect; category: string }> {
    for (const n of this.document.nodes) yield { rect: this.layout.rect(n.id)!, category: n.type.slice(0, Math.max(0, n.type.indexOf('/'))) };
  }

  *#minimapRects(): Generator<{ rect: FlowRect; colour: string }> {
    for (const c of this.document.comments) yield { rect: c, colour: 'rgba(240,180,41,.25)' };
    for (const g of this.document.groups) yield { rect: g, colour: 'rgba(74,143,224,.25)' };
    for (const n of this.document.nodes) {
      const rect = this.layout.rect(n.id)!;
      yield { rect, colour: this.selection.nodes.has(n.id) ? '#f0b429' : this.document.issuesOf(n.id).length > 0 ? '#ff5a4e' : '#8d93a1' };
    }
  }

  /** Brings node elements, links and boxes up to date with the document; `issues`: recheck issues and linked pins too. */
  #syncGraph(issues: boolean): void {
    const doc = this.document;
    const dirty = new Set<string>();
    const seen = new Set<string>();
    for (const node of doc.nodes) {
      seen.add(node.id);
      const pins = doc.pins(node.id);
      let drawn = this.#drawn.get(node.id);
      if (drawn === undefined) {
        const element = document.createElement('div');
        drawn = { element, record: node, pins, issuesKey: '', linkedKey: '' };
        this.#drawn.set(node.id, drawn);
        this.#nodesElement.append(element);
        this.#redrawNode(drawn, node.id);
        placeNode(element, node);
        dirty.add(node.id);
        continue;
      }
      const moved = drawn.record.x !== node.x || drawn.record.y !== node.y;
      let redraw = drawn.pins !== pins || (drawn.record !== node && (drawn.record.inputs !== node.inputs || drawn.record.settings !== node.settings || drawn.record.type !== node.type));
      if (issues && !redraw) redraw = issuesKey(doc.issuesOf(node.id)) !== drawn.issuesKey || this.#linkedKey(node.id) !== drawn.linkedKey;
      drawn.record = node;
      drawn.pins = pins;
      if (redraw) this.#redrawNode(drawn, node.id);
      if (moved) placeNode(drawn.element, node);
      if (moved || redraw) dirty.add(node.id);
    }
    if (seen.size !== this.#drawn.size) {
      for (const [id, drawn] of this.#drawn) {
        if (seen.has(id)) continue;
        // A removed element takes the focus with it (to the page's body): keep it in the view, so
        // the next key (Ctrl+Z after a Delete) still reaches the editor.
        if (drawn.element.contains(document.activeElement)) this.element.focus({ preventScroll: true });
        drawn.element.remove();
        this.#drawn.delete(id);
        this.#culled.delete(id);
        this.#debug.forget(id);
      }
      this.layout.prune();
    }
    this.links.sync(doc.links, this.layout, (link) => this.#linkColour(link), dirty);
    this.#boxes.sync('comments', doc.comments, this.selection.comments);
    this.#boxes.sync('groups', doc.groups, this.selection.groups);
  }

  #linkedKey(id: string): string {
    const linked = new Set<string>();
    for (const link of this.document.linksOf(id)) {
      if (link.from.node === id) linked.add(`out:${link.kind}:${link.from.pin}`);
      if (link.to.node === id) linked.add(`in:${link.kind}:${link.to.pin}`);
    }
    return linkedPinsKey(linked);
  }

  #redrawNode(drawn: NodeDrawn, id: string): void {
    const issues = this.document.issuesOf(id);
    drawn.issuesKey = issuesKey(issues);
    drawn.linkedKey = this.#linkedKey(id);
    drawNode(drawn.element, drawn.record, drawn.pins, issues, new Set(drawn.linkedKey === '' ? [] : drawn.linkedKey.split(',')));
    drawn.element.classList.toggle('cfe-selected', this.selection.nodes.has(id));
    this.#debug.decorate(id, drawn.element);
    if (this.#culled.has(id)) drawn.element.style.display = 'none';
  }

  #linkColour(link: FlowEditorLink): string {
    return this.document.pin(link.from, 'output')?.colour ?? pinColour('data', undefined);
  }

  /** Hides nodes well outside the screen (display: none costs them no style, layout or paint). */
  #cull(): void {
    const w = this.width;
    const h = this.height;
    const v = this.viewport.visibleRect(w, h);
    const mx = v.width * CULL_MARGIN;
    const my = v.height * CULL_MARGIN;
    const area = { x: v.x - mx, y: v.y - my, width: v.width + 2 * mx, height: v.height + 2 * my };
    for (const [id, drawn] of this.#drawn) {
      const r = this.layout.rect(id);
      const show = r !== undefined && rectsIntersect(r, area);
      if (show === !this.#culled.has(id)) continue;
      if (show) this.#culled.delete(id);
      else this.#culled.add(id);
      drawn.element.style.display = show ? '' : 'none';
    }
  }
}

// Links, and the whole graph when zoomed far out, on one screen-sized canvas under the node
// layer. Link ends are kept in flat arrays (recomputed only for links whose end nodes changed);
// a frame strokes the visible ones in one path per colour. Below FAR_ZOOM node boxes are drawn
// here too (the DOM nodes are hidden then), one fill per category colour, no text.
import type { FlowEditorLink, FlowRect } from '../api.ts';
import type { GraphLayout } from './graph-layout.ts';
import { NODE_HEADER } from './geometry.ts';
import type { Viewport } from './viewport.ts';

export const CATEGORY_COLOURS: Readonly<Record<string, string>> = { event: '#6b2a2a', logic: '#3d3f6b', math: '#2f5a3a', variable: '#5a4a22', action: '#22506b' };
const OTHER_CATEGORY = '#373b46';
const NODE_BODY = '#2a2d35';
const EVENT_LINK = '#f4f4f4';

export class LinkCanvas {
  readonly canvas: HTMLCanvasElement;
  #ids: string[] = [];
  #index = new Map<string, number>();
  /** x1, y1, x2, y2 per link, in graph units; NaN when an end is missing. */
  #ends = new Float64Array(0);
  #styles: string[] = [];
  #event: boolean[] = [];
  #preview: { x1: number; y1: number; x2: number; y2: number; refused: boolean } | undefined;

  constructor() {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'cfe-canvas';
    this.canvas.setAttribute('aria-hidden', 'true');
  }

  get size(): number {
    return this.#ids.length;
  }

  /**
   * Brings the link list up to date: new and removed links, and new ends for links touching
   * `dirtyNodes` (undefined: all).
   */
  sync(links: readonly FlowEditorLink[], layout: GraphLayout, colourOf: (link: FlowEditorLink) => string, dirtyNodes: ReadonlySet<string> | undefined): void {
    const sameList = links.length === this.#ids.length && links.every((l, i) => l.id === this.#ids[i]);
    if (!sameList) {
      const ends = new Float64Array(links.length * 4);
      const ids: string[] = [];
      const index = new Map<string, number>();
      const styles: string[] = [];
      const event: boolean[] = [];
      links.forEach((link, i) => {
        const old = this.#index.get(link.id);
        ids.push(link.id);
        index.set(link.id, i);
        event.push(link.kind === 'event');
        styles.push(link.kind === 'event' ? EVENT_LINK : colourOf(link));
        if (old !== undefined && dirtyNodes !== undefined && !dirtyNodes.has(link.from.node) && !dirtyNodes.has(link.to.node)) ends.set(this.#ends.subarray(old * 4, old * 4 + 4), i * 4);
        else this.#setEnds(ends, i, link, layout);
      });
      this.#ids = ids;
      this.#index = index;
      this.#ends = ends;
      this.#styles = styles;
      this.#event = event;
      return;
    }
    links.forEach((link, i) => {
      if (dirtyNodes === undefined || dirtyNodes.has(link.from.node) || dirtyNodes.has(link.to.node)) {
        this.#setEnds(this.#ends, i, link, layout);
        if (link.kind === 'data') this.#styles[i] = colourOf(link);
      }
    });
  }

  #setEnds(ends: Float64Array, i: number, link: FlowEditorLink, layout: GraphLayout): void {
    const a = layout.anchor(link.from, 'output');
    const b = layout.anchor(link.to, 'input');
    ends[i * 4] = a?.x ?? NaN;
    ends[i * 4 + 1] = a?.y ?? NaN;
    ends[i * 4 + 2] = b?.x ?? NaN;
    ends[i * 4 + 3] = b?.y ?? NaN;
  }

  /** The link being dragged out of a pin (graph units), or undefined to hide it. */
  setPreview(preview: { x1: number; y1: number; x2: number; y2: number; refused: boolean } | undefined): void {
    this.#preview = preview;
  }

  /** Draws a frame: links crossing `visible`, and node boxes when `farNodes` is given. */
  draw(viewport: Viewport, width: number, height: number, farNodes: Iterable<{ rect: FlowRect; category: string }> | undefined): void {
    const dpr = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
    const pw = Math.max(1, Math.round(width * dpr));
    const ph = Math.max(1, Math.round(height * dpr));
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const g = this.canvas.getContext('2d');
    if (g === null) return;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, pw, ph);
    const zoom = viewport.zoom;
    g.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * viewport.x, dpr * viewport.y);
    const v = viewport.visibleRect(width, height);
    const x0 = v.x;
    const y0 = v.y;
    const x1 = v.x + v.width;
    const y1 = v.y + v.height;
    const pixel = 1 / zoom;
    if (farNodes !== undefined) {
      const byColour = new Map<string, FlowRect[]>();
      g.fillStyle = NODE_BODY;
      for (const { rect, category } of farNodes) {
        if (rect.x > x1 || rect.y > y1 || rect.x + rect.width < x0 || rect.y + rect.height < y0) continue;
        g.fillRect(rect.x, rect.y, rect.width, rect.height);
        const colour = CATEGORY_COLOURS[category] ?? OTHER_CATEGORY;
        let list = byColour.get(colour);
        if (list === undefined) byColour.set(colour, (list = []));
        list.push(rect);
      }
      for (const [colour, rects] of byColour) {
        g.fillStyle = colour;
        for (const r of rects) g.fillRect(r.x, r.y, r.width, NODE_HEADER);
      }
    }
    // One path per colour; curves only when a link is big enough on screen to show the bend.
    const ends = this.#ends;
    const n = this.#ids.length;
    const paths = new Map<string, Path2D>();
    for (let i = 0; i < n; i++) {
      const ax = ends[i * 4]!;
      const ay = ends[i * 4 + 1]!;
      const bx = ends[i * 4 + 2]!;
      const by = ends[i * 4 + 3]!;
      if (Number.isNaN(ax) || Number.isNaN(bx)) continue;
      const bend = Math.max(40, Math.abs(bx - ax) * 0.5);
      if (Math.max(ax + bend, bx) < x0 || Math.min(ax, bx - bend) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
      const key = this.#event[i] ? `e${this.#styles[i]!}` : `d${this.#styles[i]!}`;
      let path = paths.get(key);
      if (path === undefined) paths.set(key, (path = new Path2D()));
      path.moveTo(ax, ay);
      if ((Math.abs(bx - ax) + Math.abs(by - ay)) * zoom < 12) path.lineTo(bx, by);
      else path.bezierCurveTo(ax + bend, ay, bx - bend, by, bx, by);
    }
    for (const [key, path] of paths) {
      g.strokeStyle = key.slice(1);
      g.lineWidth = Math.max(key.startsWith('e') ? 3.5 : 2, pixel);
      g.stroke(path);
    }
    const p = this.#preview;
    if (p !== undefined) {
      const bend = Math.max(40, Math.abs(p.x2 - p.x1) * 0.5);
      g.beginPath();
      g.moveTo(p.x1, p.y1);
      g.bezierCurveTo(p.x1 + bend, p.y1, p.x2 - bend, p.y2, p.x2, p.y2);
      g.setLineDash([6, 4]);
      g.strokeStyle = p.refused ? '#ff5a4e' : EVENT_LINK;
      g.lineWidth = Math.max(2, pixel);
      g.stroke();
      g.setLineDash([]);
    }
  }
}

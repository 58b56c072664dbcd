// The minimap: every node as a dot-sized rectangle on a small canvas, with the visible part of
// the graph outlined. Nodes are drawn to an offscreen canvas only when the graph changes; a pan
// only redraws the outline. Clicking or dragging on it centres the view there.
import type { FlowPoint, FlowRect } from '../api.ts';

export const MINIMAP_WIDTH = 200;
export const MINIMAP_HEIGHT = 140;

export class Minimap {
  readonly canvas: HTMLCanvasElement;
  readonly #nodes: HTMLCanvasElement;
  #bounds: FlowRect = { x: 0, y: 0, width: 1, height: 1 };
  #scale = 1;
  #ox = 0;
  #oy = 0;

  constructor() {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'cfe-minimap';
    this.canvas.width = MINIMAP_WIDTH;
    this.canvas.height = MINIMAP_HEIGHT;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Minimap: click or drag to move the view');
    this.#nodes = document.createElement('canvas');
    this.#nodes.width = MINIMAP_WIDTH;
    this.#nodes.height = MINIMAP_HEIGHT;
  }

  /** Redraws the node layer: `rects` in graph units, `bounds` around them (and the view). */
  drawNodes(bounds: FlowRect, rects: Iterable<{ rect: FlowRect; colour: string }>): void {
    this.#bounds = bounds;
    this.#scale = Math.min((MINIMAP_WIDTH - 8) / Math.max(1, bounds.width), (MINIMAP_HEIGHT - 8) / Math.max(1, bounds.height));
    this.#ox = (MINIMAP_WIDTH - bounds.width * this.#scale) / 2 - bounds.x * this.#scale;
    this.#oy = (MINIMAP_HEIGHT - bounds.height * this.#scale) / 2 - bounds.y * this.#scale;
    const g = this.#nodes.getContext('2d');
    if (g === null) return;
    g.clearRect(0, 0, MINIMAP_WIDTH, MINIMAP_HEIGHT);
    for (const { rect, colour } of rects) {
      g.fillStyle = colour;
      g.fillRect(rect.x * this.#scale + this.#ox, rect.y * this.#scale + this.#oy, Math.max(1, rect.width * this.#scale), Math.max(1, rect.height * this.#scale));
    }
  }

  /** Composes the node layer with the outline of the visible graph rectangle. */
  drawView(visible: FlowRect): void {
    const g = this.canvas.getContext('2d');
    if (g === null) return;
    g.clearRect(0, 0, MINIMAP_WIDTH, MINIMAP_HEIGHT);
    g.drawImage(this.#nodes, 0, 0);
    g.strokeStyle = '#f0b429';
    g.lineWidth = 1;
    g.strokeRect(visible.x * this.#scale + this.#ox + 0.5, visible.y * this.#scale + this.#oy + 0.5, visible.width * this.#scale, visible.height * this.#scale);
  }

  /** The graph point under a minimap pixel. */
  toGraph(px: number, py: number): FlowPoint {
    return { x: (px - this.#ox) / this.#scale, y: (py - this.#oy) / this.#scale };
  }

  get bounds(): FlowRect {
    return this.#bounds;
  }
}

// Words and lines on the canvas, drawn with @cuttle/gui over the squares: a caption per
// section, the colour legend, the histogram's bin sizes, and the fragmentation graph (axes and
// one line per allocator, from the last HISTORY samples).
import { Gui, GuiRenderer, layoutText, TextLayout, type GuiFont, type GuiId, type LineParams } from '@cuttle/gui';
import type { DemoFont } from '../gui/demo-font.ts';
import { FREE_BINS } from './memory-map.ts';
import type { SceneLayout } from './layout.ts';
import { LEGEND } from './palette.ts';
import { LEGEND_ROW } from './picture.ts';

export const HISTORY = 360;
const TEXT = 0xd8dbe6ff;
const DIM = 0x8a90a6ff;
/** Graph line colours: ours, the peer's. */
export const OURS_COLOR = 0xf7b840ff;
export const PEER_COLOR = 0x5cc8ffff;

/** 16, 1K, 2M: bin labels that fit under a narrow column. */
function shortBytes(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  return bytes < 1024 * 1024 ? `${bytes / 1024}K` : `${bytes / (1024 * 1024)}M`;
}

export interface OverlayText {
  map: string;
  pool: string;
  bins: string;
  graph: string;
  ours: string;
  peer: string;
}

export class Overlay {
  readonly #gui = new Gui();
  readonly #renderer: GuiRenderer;
  readonly #font: GuiFont;
  readonly #material: number;
  readonly #measure = new TextLayout();
  readonly #captions: Record<keyof OverlayText, GuiId>;
  readonly #text: OverlayText = { map: '', pool: '', bins: '', graph: '', ours: '', peer: '' };
  readonly #legend: GuiId[] = [];
  readonly #binLabels: GuiId[] = [];
  readonly #axes: GuiId[] = [];
  readonly #axisLabels: GuiId[] = [];
  readonly #oursLine: LineParams;
  readonly #peerLine: LineParams;
  readonly #oursId: GuiId;
  readonly #peerId: GuiId;
  #layout: SceneLayout | undefined;

  constructor(device: GPUDevice, format: GPUTextureFormat, font: DemoFont) {
    this.#renderer = new GuiRenderer(device, format);
    this.#font = font.font;
    this.#material = this.#renderer.createTextMaterial(font.font, font.pages, { outline: { width: 1.2, color: 0x000000c0 } });
    const text = (): GuiId => this.#gui.create('text', { x: 0, y: 0, text: '', font: this.#font, material: this.#material, layer: 1 });
    this.#captions = { map: text(), pool: text(), bins: text(), graph: text(), ours: text(), peer: text() };
    for (let i = 0; i < LEGEND.length; i++) this.#legend.push(text());
    for (let i = 0; i < FREE_BINS; i++) this.#binLabels.push(text());
    for (let i = 0; i < 3; i++) {
      this.#axes.push(this.#gui.create('rect', { x: 0, y: 0, width: 1, height: 1, color: 0x2a3044ff }));
      this.#axisLabels.push(text());
    }
    this.#oursLine = { points: new Float32Array(HISTORY * 2), width: 2, color: OURS_COLOR };
    this.#peerLine = { points: new Float32Array(HISTORY * 2), width: 2, color: PEER_COLOR };
    this.#oursId = this.#gui.create('line', this.#oursLine);
    this.#peerId = this.#gui.create('line', this.#peerLine);
  }

  #width(text: string, size: number): number {
    return layoutText(this.#font, text, { size }, this.#measure).width;
  }

  #place(id: GuiId, x: number, y: number, text: string, color: number, size: number): void {
    this.#gui.update(id, { x, y, text, font: this.#font, material: this.#material, size, color, layer: 1 });
  }

  /** Moves everything that depends on the canvas size. */
  relayout(layout: SceneLayout): void {
    this.#layout = layout;
    const size = layout.textSize;
    const { bins, graph } = layout;
    // Beside the swatches that BlockPicture.legend draws.
    for (let i = 0; i < LEGEND.length; i++) {
      const { label } = LEGEND[i]!;
      this.#place(this.#legend[i]!, layout.legend.x + 20, layout.legend.y + (i + 0.5) * LEGEND_ROW - size * 0.65, label, TEXT, size);
    }
    const columnPitch = bins.width / FREE_BINS;
    const every = columnPitch < 34 ? 2 : 1;
    for (let i = 0; i < FREE_BINS; i++) {
      const label = i % every === 0 ? shortBytes(2 ** (i + 4)) : '';
      this.#place(this.#binLabels[i]!, bins.x + (i + 0.5) * columnPitch - this.#width(label, size - 2) / 2, bins.y + bins.height + 3, label, DIM, size - 2);
    }
    const axisY = [graph.y, graph.y + graph.height / 2, graph.y + graph.height];
    const axisText = ['100 %', '50 %', '0 %'];
    for (let i = 0; i < 3; i++) {
      this.#gui.update(this.#axes[i]!, { x: graph.x, y: axisY[i]!, width: graph.width, height: 1, color: i === 2 ? 0x4a5270ff : 0x262b3cff });
      this.#place(this.#axisLabels[i]!, graph.x - 6 - this.#width(axisText[i]!, size - 1), axisY[i]! - size * 0.6, axisText[i]!, DIM, size - 1);
    }
    this.#writeCaptions();
  }

  /** Sets the captions; only the ones that changed are rebuilt. */
  setText(text: OverlayText): void {
    let changed = false;
    for (const key of Object.keys(text) as (keyof OverlayText)[]) {
      if (this.#text[key] !== text[key]) {
        this.#text[key] = text[key];
        changed = true;
      }
    }
    if (changed) this.#writeCaptions();
  }

  #writeCaptions(): void {
    const layout = this.#layout;
    if (!layout) return;
    const size = layout.textSize;
    const lift = layout.captionHeight - 3;
    const t = this.#text;
    this.#place(this.#captions.map, layout.map.x, layout.map.y - lift, t.map, TEXT, size);
    this.#place(this.#captions.pool, layout.pool.x, layout.pool.y - lift, t.pool, TEXT, size);
    this.#place(this.#captions.bins, layout.bins.x, layout.bins.y - lift, t.bins, TEXT, size);
    this.#place(this.#captions.graph, layout.graph.x, layout.graph.y - lift, t.graph, TEXT, size);
    // The two graph legends go right-aligned on the graph's caption line.
    const peerWidth = this.#width(t.peer, size);
    const oursWidth = this.#width(t.ours, size);
    const right = layout.graph.x + layout.graph.width;
    this.#place(this.#captions.peer, right - peerWidth, layout.graph.y - lift, t.peer, PEER_COLOR, size);
    this.#place(this.#captions.ours, right - peerWidth - 18 - oursWidth, layout.graph.y - lift, t.ours, OURS_COLOR, size);
  }

  /** Redraws both graph lines from ring buffers of fractions (0..1); `head` is the next slot to write. */
  graph(ours: Float32Array, peer: Float32Array, head: number, samples: number): void {
    const layout = this.#layout;
    if (!layout) return;
    const { x, y, width, height } = layout.graph;
    const count = Math.max(2, Math.min(samples, HISTORY));
    for (const [series, line] of [[ours, this.#oursLine], [peer, this.#peerLine]] as const) {
      const points = line.points as Float32Array;
      for (let i = 0; i < HISTORY; i++) {
        // The newest sample sits at the right edge; until the ring is full the oldest one repeats leftwards.
        const age = Math.max(0, i - (HISTORY - count));
        const slot = (head + 2 * HISTORY - count + age) % HISTORY;
        points[i * 2] = x + (width * i) / (HISTORY - 1);
        points[i * 2 + 1] = y + height * (1 - Math.min(1, Math.max(0, series[slot]!)));
      }
    }
    this.#gui.update(this.#oursId, this.#oursLine);
    this.#gui.update(this.#peerId, this.#peerLine);
  }

  /** Draws over `target` (loaded, not cleared). */
  draw(encoder: GPUCommandEncoder, target: GPUTextureView, width: number, height: number): void {
    const pass = encoder.beginRenderPass({ label: 'allocators overlay', colorAttachments: [{ view: target, loadOp: 'load', storeOp: 'store' }] });
    this.#renderer.draw(pass, this.#gui, width, height);
    pass.end();
  }

  destroy(): void {
    this.#renderer.destroy();
  }
}

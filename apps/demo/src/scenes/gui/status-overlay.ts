// The demo's status line as GUI text on the canvas, drawn over every scene: a retained Gui
// with a backdrop and one text object, updated only when the line changes.
import { Gui, GuiRenderer, type GuiId } from '@cuttle/gui';
import { loadDemoFont, type DemoFont } from './demo-font.ts';

const SIZE = 13;
const PAD = 6;

export class StatusOverlay {
  readonly #renderer: GuiRenderer;
  readonly #gui = new Gui();
  readonly #font: DemoFont;
  readonly #material: number;
  readonly #backdrop: GuiId;
  readonly #text: GuiId;
  #line = '';
  #width = 0;
  #height = 0;
  /** Draw calls of the latest frame (the smoke test reads it). */
  drawCalls = 0;

  private constructor(device: GPUDevice, format: GPUTextureFormat, font: DemoFont) {
    this.#renderer = new GuiRenderer(device, format);
    this.#font = font;
    this.#material = this.#renderer.createTextMaterial(font.font, font.pages, { outline: { width: 1.5, color: 0x000000c0 } });
    this.#backdrop = this.#gui.create('rect', { x: 0, y: 0, width: 1, height: 1, color: 0x000000a0 });
    this.#text = this.#gui.create('text', { x: 0, y: 0, text: '', font: font.font, material: this.#material, size: SIZE, layer: 1 });
  }

  static async create(device: GPUDevice, format: GPUTextureFormat): Promise<StatusOverlay> {
    return new StatusOverlay(device, format, await loadDemoFont());
  }

  get text(): string {
    return this.#line;
  }

  #place(): void {
    const lineHeight = Math.ceil(SIZE * 1.3) + PAD;
    const y = this.#height - lineHeight;
    this.#gui.update(this.#backdrop, { x: 0, y, width: this.#width, height: lineHeight, color: 0x000000a0 });
    this.#gui.update(this.#text, { x: PAD, y: y + PAD / 2, text: this.#line, font: this.#font.font, material: this.#material, size: SIZE, color: 0xf2f4f8ff, layer: 1 });
  }

  /** Draws the line along the bottom of `target` (loaded, not cleared). */
  draw(encoder: GPUCommandEncoder, target: GPUTextureView, width: number, height: number, line: string): void {
    if (line !== this.#line || width !== this.#width || height !== this.#height) {
      this.#line = line;
      this.#width = width;
      this.#height = height;
      this.#place();
    }
    const pass = encoder.beginRenderPass({ label: 'status overlay', colorAttachments: [{ view: target, loadOp: 'load', storeOp: 'store' }] });
    this.drawCalls = this.#renderer.draw(pass, this.#gui, width, height);
    pass.end();
  }

  destroy(): void {
    this.#renderer.destroy();
  }
}

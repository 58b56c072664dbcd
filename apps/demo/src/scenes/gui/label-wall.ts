// 10,000 labels through one Gui API in either mode: retained (created once, a tenth updated per
// frame) or immediate (all of them created again every frame). Same pictures, same draw calls.
import { Gui, type GuiFont, type GuiId, type TextParams } from '@cuttle/gui';

export const LABELS = 10_000;
const COLUMNS = 100;
const CELL_W = 64;
const CELL_H = 10;
const SIZE = 8;

export class LabelWall {
  gui: Gui;
  readonly #ids: GuiId[] = [];
  readonly #values = new Int32Array(LABELS);
  readonly #params: TextParams;
  readonly #top: number;
  #frame = 0;

  constructor(font: GuiFont, material: number, mode: 'retained' | 'immediate', top: number) {
    this.gui = new Gui({ mode });
    this.#top = top;
    this.#params = { x: 0, y: 0, text: '', font, material, size: SIZE, color: 0 };
    for (let i = 0; i < LABELS; i++) this.#values[i] = (i * 7919) % 100_000;
    if (mode === 'retained') for (let i = 0; i < LABELS; i++) this.#ids.push(this.gui.create('text', this.#label(i)));
  }

  get mode(): 'retained' | 'immediate' {
    return this.gui.mode;
  }

  #label(i: number): TextParams {
    const p = this.#params;
    const v = this.#values[i]!;
    p.x = 8 + (i % COLUMNS) * CELL_W;
    p.y = this.#top + Math.floor(i / COLUMNS) * CELL_H;
    p.text = `#${String(i).padStart(4, '0')} ${String(v).padStart(5, '0')}`;
    // Colour follows the value: changed labels flash brighter.
    p.color = ((0x60 + (v % 0x60)) << 24) | ((0x90 + (v % 0x50)) << 16) | (0xd0 << 8) | 0xff;
    return p;
  }

  /** One frame: a tenth of the values change; retained mode updates those, immediate redraws all. */
  frame(): void {
    const first = (this.#frame * 1009) % LABELS;
    for (let k = 0; k < LABELS / 10; k++) {
      const i = (first + k * 10) % LABELS;
      this.#values[i] = (this.#values[i]! + 1 + k) % 100_000;
    }
    if (this.gui.mode === 'retained') {
      for (let k = 0; k < LABELS / 10; k++) {
        const i = (first + k * 10) % LABELS;
        this.gui.update(this.#ids[i]!, this.#label(i));
      }
    } else {
      this.gui.beginFrame();
      for (let i = 0; i < LABELS; i++) this.gui.create('text', this.#label(i));
    }
    this.#frame++;
  }
}

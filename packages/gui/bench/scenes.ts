// The scenes the frame benchmarks (and the demo) build: 10,000 retained 16-character labels
// with a tenth of them updated each frame, and 1,000 immediate-mode widgets in four panels.
import { readFileSync } from 'node:fs';
import { distanceFieldFontFromTtf, Gui, GuiFont, PAGE_QUADS, Ui, type GuiId, type PatchingStrategy } from '../src/index.ts';

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

export function benchFont(): GuiFont {
  return new GuiFont(distanceFieldFontFromTtf(new Uint8Array(readFileSync(DEJAVU)), { size: 32 }).font);
}

export const TEXT_MATERIAL = 1;

/**
 * Label text for object `i` in `generation`: 16 characters, or 8 to 24 when `varying`. No spaces,
 * so every character is a quad. (Until 2026-11-29 the text was 15 characters long, so the fixed
 * labels had 15 and the varying ones 8 to 15.)
 */
export function labelText(i: number, generation: number, varying = false): string {
  const hp = String((i * 7919 + generation * 104729) % 100000).padStart(5, '0');
  const mp = String((i * 104729 + generation * 7919) % 100000).padStart(5, '0');
  const base = `#${String(i).padStart(5, '0')}-hp-${hp}-mp-${mp}-`;
  return varying ? base.slice(0, 8 + ((i + generation) % 17)) : base.slice(0, 16);
}

/** What the renderer does with the CPU side each frame: walks dirty pages, counts upload bytes. */
export function planUploads(gui: Gui): number {
  let bytes = 0;
  for (const batch of gui.batches) {
    if (gui.mode === 'immediate') bytes += batch.used * 80;
    else if (batch.anyDirty) {
      const pages = Math.ceil(batch.used / PAGE_QUADS);
      for (let p = 0; p < pages; p++) if (batch.dirtyPages[p]) bytes += PAGE_QUADS * 80;
    }
    batch.clearDirty();
  }
  return bytes;
}

export interface RetainedScene {
  gui: Gui;
  /** Runs one frame: updates a tenth of the labels with fresh text and positions. */
  frame(): void;
}

export function retainedLabels(font: GuiFont, patching: PatchingStrategy, varying: boolean, count = 10_000): RetainedScene {
  const gui = new Gui({ mode: 'retained', patching });
  const ids: GuiId[] = [];
  const params = { x: 0, y: 0, text: '', font, material: TEXT_MATERIAL, size: 10, color: 0xffffffff };
  for (let i = 0; i < count; i++) {
    params.x = (i % 100) * 12;
    params.y = Math.floor(i / 100) * 8;
    params.text = labelText(i, 0, varying);
    ids.push(gui.create('text', params));
  }
  planUploads(gui);
  // Texts prepared outside the timed frames, as a game has them: distinct from the current ones.
  const generations = 8;
  const pool = Array.from({ length: generations }, (_, g) => Array.from({ length: count }, (_, i) => labelText(i, g + 1, varying)));
  let frameNumber = 0;
  const perFrame = count / 10;
  return {
    gui,
    frame() {
      const texts = pool[frameNumber % generations]!;
      const first = (frameNumber * 3331) % count;
      for (let k = 0; k < perFrame; k++) {
        const i = (first + k * 10) % count;
        params.x = (i % 100) * 12 + (frameNumber & 3);
        params.y = Math.floor(i / 100) * 8;
        params.text = texts[i]!;
        gui.update(ids[i]!, params);
      }
      planUploads(gui);
      frameNumber++;
    },
  };
}

export interface ImmediateScene {
  ui: Ui;
  frame(): void;
}

/** 1,000 widgets (labels, buttons, checkboxes, sliders) in four clipped panels, rebuilt every frame. */
export function immediateWidgets(font: GuiFont, widgets = 1000): ImmediateScene {
  const ui = new Ui(new Gui({ mode: 'immediate' }), { font, textMaterial: TEXT_MATERIAL, fontSize: 12 });
  const checked = new Uint8Array(widgets);
  const values = new Float64Array(widgets);
  const names = Array.from({ length: widgets }, (_, i) => `Item ${i}`);
  let frameNumber = 0;
  return {
    ui,
    frame() {
      ui.beginFrame({ pointerX: 100 + (frameNumber % 200), pointerY: 80, pointerDown: (frameNumber & 8) !== 0, wheelY: frameNumber % 30 === 0 ? 20 : 0 });
      const perPanel = widgets / 4;
      for (let p = 0; p < 4; p++) {
        ui.beginPanel(`Panel ${p}`, p * 320, 0, 310, 700);
        for (let k = 0; k < perPanel; k++) {
          const i = p * perPanel + k;
          switch (i & 3) {
            case 0: ui.label(names[i]!); break;
            case 1: if (ui.button(names[i]!)) checked[i] = checked[i]! ^ 1; break;
            case 2: checked[i] = ui.checkbox(names[i]!, checked[i] === 1) ? 1 : 0; break;
            default: values[i] = ui.slider(names[i]!, values[i]!, 0, 100, 1);
          }
        }
        ui.endPanel();
      }
      ui.endFrame();
      planUploads(ui.gui);
      frameNumber++;
    },
  };
}

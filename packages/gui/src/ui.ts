// Immediate-mode widgets on an immediate-mode Gui: label, button, checkbox, slider and
// scrolling, clipping panels, with pointer and keyboard input. A widget is a function call
// each frame; its id is a hash of its label and the ids of the panels around it, so it is
// the same every frame without the caller keeping anything. The little state a widget needs
// between frames (hot, active, focused, a panel's scroll) lives here, keyed by those ids.
import { GuiError } from './errors.ts';
import type { Gui } from './gui.ts';
import type { GuiFont } from './gui-font.ts';
import { layoutText, TextLayout } from './text-layout.ts';

/** One frame's pointer and keyboard input, in the Gui's pixels. */
export interface UiInput {
  /** Pointer x in pixels. */
  pointerX: number;
  /** Pointer y in pixels. */
  pointerY: number;
  /** Whether the primary button (or touch) is down; presses and releases are found by comparing frames. */
  pointerDown: boolean;
  /** Wheel movement this frame in pixels (positive scrolls content up). */
  wheelY?: number;
  /** Keys pressed this frame, as KeyboardEvent.key: 'Tab', 'Enter', ' ', 'ArrowLeft', ... */
  keys?: readonly string[];
  /** Whether Shift is held (Shift+Tab moves the focus backwards; default false). */
  shift?: boolean;
}

/** Font and colours of the widgets; colours are 0xRRGGBBAA and default to a dark blue-grey theme. */
export interface UiTheme {
  /** The font of every label. */
  font: GuiFont;
  /** A text material for the font (GuiRenderer.createTextMaterial). */
  textMaterial: number;
  /** Em size of the text in pixels (default 16); rows are 1.6 times as tall. */
  fontSize?: number;
  /** Text colour (default 0xe8ecf4ff). */
  text?: number;
  /** Background colour (default 0x202634f0); kept in the theme for the caller, the widgets do not draw it. */
  background?: number;
  /** Panel body colour (default 0x2a3142f0). */
  panel?: number;
  /** Colour of buttons, boxes, slider tracks and panel title bars (default 0x3b4560ff). */
  widget?: number;
  /** Colour of the widget under the pointer, and of a focused text field (default 0x4a5678ff). */
  hot?: number;
  /** Colour of the widget being pressed or dragged (default 0x2f7fd0ff). */
  active?: number;
  /** Checkmarks, slider fill, carets and scroll bars (default 0x4fa3ffff). */
  accent?: number;
  /** Outline of the widget with keyboard focus (default 0xffcc44ff). */
  focus?: number;
}

const LAYER_PANEL = 0;
const LAYER_WIDGET = 1;
const LAYER_TEXT = 2;
const LAYER_FOCUS = 3;

/** FNV-1a over a string, seeded with the parent id: stable ids from labels. */
export function widgetId(label: string, parent = 0x811c9dc5): number {
  // "Save##toolbar" shows "Save" and hashes the whole string, so equal labels can differ.
  let h = parent >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h || 1;
}

function visible(label: string): string {
  const end = label.indexOf('##');
  return end < 0 ? label : label.slice(0, end);
}

interface Panel {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  clip: number;
  contentTop: number;
  scroll: number;
  cursorY: number;
}

/**
 * Immediate-mode widgets (label, button, checkbox, slider, text field, scrolling and clipping panels) drawn into an immediate-mode {@link Gui}. A widget is a function call each frame; its id is a hash of its label and the panels around it, and the little state widgets keep between frames (hot, active, focus, scroll) lives here.
 */
export class Ui {
  /** The immediate-mode Gui the widgets draw into. */
  readonly gui: Gui;
  /** The theme with every default filled in. */
  readonly theme: Required<UiTheme>;
  /** Widget under the pointer, the one being pressed or dragged, and the keyboard focus. */
  hot = 0;
  /** Id of the widget being pressed or dragged (0: none). */
  active = 0;
  /** Id of the widget with keyboard focus (0: none). */
  focused = 0;
  readonly #measure = new TextLayout();
  readonly #scroll = new Map<number, number>();
  readonly #contentHeight = new Map<number, number>();
  /** Caret of each text field, in UTF-16 units. */
  readonly #carets = new Map<number, number>();
  #input: Required<UiInput> = { pointerX: -1, pointerY: -1, pointerDown: false, wheelY: 0, keys: [], shift: false };
  #pressed = false;
  #released = false;
  #wasDown = false;
  #panels: Panel[] = [];
  #focusOrder: number[] = [];
  #lastFocusOrder: number[] = [];
  #nextHot = 0;
  #cursorX = 8;
  #cursorY = 8;
  #width = 200;
  #inFrame = false;

  constructor(gui: Gui, theme: UiTheme) {
    if (gui.mode !== 'immediate') throw new GuiError("Ui: widgets are immediate mode; create the Gui with { mode: 'immediate' }.");
    this.gui = gui;
    this.theme = {
      fontSize: 16,
      text: 0xe8ecf4ff,
      background: 0x202634f0,
      panel: 0x2a3142f0,
      widget: 0x3b4560ff,
      hot: 0x4a5678ff,
      active: 0x2f7fd0ff,
      accent: 0x4fa3ffff,
      focus: 0xffcc44ff,
      ...theme,
    };
  }

  get #lineHeight(): number {
    return Math.ceil(this.theme.fontSize * 1.6);
  }

  /** Starts a frame: clears the Gui and takes this frame's input. */
  beginFrame(input: UiInput, area: { x?: number; y?: number; width?: number } = {}): void {
    if (this.#inFrame) throw new GuiError('Ui.beginFrame: the previous frame was not ended (call endFrame).');
    this.#inFrame = true;
    this.gui.beginFrame();
    this.#input = { wheelY: 0, keys: [], shift: false, ...input };
    this.#pressed = input.pointerDown && !this.#wasDown;
    this.#released = !input.pointerDown && this.#wasDown;
    this.#wasDown = input.pointerDown;
    this.#nextHot = 0;
    this.#cursorX = area.x ?? 8;
    this.#cursorY = area.y ?? 8;
    this.#width = area.width ?? 200;
    this.#focusOrder = [];
    // Tab and Shift+Tab walk last frame's focusable widgets in the order they were declared.
    for (const key of this.#input.keys) {
      if (key !== 'Tab' || this.#lastFocusOrder.length === 0) continue;
      const at = this.#lastFocusOrder.indexOf(this.focused);
      const n = this.#lastFocusOrder.length;
      this.focused = this.#lastFocusOrder[at < 0 ? (this.#input.shift ? n - 1 : 0) : (at + (this.#input.shift ? n - 1 : 1)) % n]!;
    }
  }

  /** Ends the frame: settles hot, active and focus for the next one. Throws {@link GuiError} when no frame was begun or a panel is still open. */
  endFrame(): void {
    if (!this.#inFrame) throw new GuiError('Ui.endFrame: no frame was begun.');
    if (this.#panels.length > 0) throw new GuiError(`Ui.endFrame: ${this.#panels.length} panel(s) still open (call endPanel).`);
    this.#inFrame = false;
    this.hot = this.#nextHot;
    if (this.#released) this.active = 0;
    // A press on no widget takes the keyboard focus away.
    if (this.#pressed && this.#nextHot === 0) this.focused = 0;
    this.#lastFocusOrder = this.#focusOrder;
    if (this.focused !== 0 && !this.#focusOrder.includes(this.focused)) this.focused = 0;
  }

  #parentId(): number {
    return this.#panels.length > 0 ? this.#panels[this.#panels.length - 1]!.id : 0x811c9dc5;
  }

  #clip(): number {
    return this.#panels.length > 0 ? this.#panels[this.#panels.length - 1]!.clip : 0;
  }

  /** Reserves a row of the current container and returns its rectangle. */
  #row(height: number): { x: number; y: number; width: number } {
    const panel = this.#panels[this.#panels.length - 1];
    if (panel) {
      const y = panel.cursorY - panel.scroll;
      panel.cursorY += height + 4;
      return { x: panel.x + 8, y, width: panel.width - 16 };
    }
    const y = this.#cursorY;
    this.#cursorY += height + 4;
    return { x: this.#cursorX, y, width: this.#width };
  }

  #insideClip(x: number, y: number): boolean {
    const panel = this.#panels[this.#panels.length - 1];
    if (!panel) return true;
    return x >= panel.x && x < panel.x + panel.width && y >= panel.contentTop && y < panel.y + panel.height;
  }

  /** Hover, press and keyboard focus for a widget's rectangle; returns whether it was clicked. */
  #interact(id: number, x: number, y: number, width: number, height: number): boolean {
    this.#focusOrder.push(id);
    const { pointerX: px, pointerY: py } = this.#input;
    const over = px >= x && px < x + width && py >= y && py < y + height && this.#insideClip(px, py);
    if (over) this.#nextHot = id;
    if (over && this.#pressed) {
      this.active = id;
      this.focused = id;
    }
    const clicked = this.#released && this.active === id && over;
    const keyed = this.focused === id && this.#input.keys.some((k) => k === 'Enter' || k === ' ');
    return clicked || keyed;
  }

  #text(text: string, x: number, y: number, color: number, size = this.theme.fontSize): void {
    if (text === '') return;
    this.gui.create('text', { x, y, text, font: this.theme.font, material: this.theme.textMaterial, size, color, layer: LAYER_TEXT, clip: this.#clip() });
  }

  #focusRing(id: number, x: number, y: number, width: number, height: number): void {
    if (this.focused !== id) return;
    this.gui.create('line', { points: [x - 2, y - 2, x + width + 2, y - 2, x + width + 2, y + height + 2, x - 2, y + height + 2, x - 2, y - 2], width: 2, color: this.theme.focus, layer: LAYER_FOCUS, clip: this.#clip() });
  }

  #textWidth(text: string): number {
    return layoutText(this.theme.font, text, { size: this.theme.fontSize }, this.#measure).width;
  }

  /** A line of text in the current row. */
  label(text: string): void {
    const h = this.#lineHeight;
    const { x, y } = this.#row(h);
    this.#text(text, x, y + (h - this.theme.fontSize * 1.2) / 2, this.theme.text);
  }

  /** A push button; true on the frame it is clicked (or activated with Enter/Space). */
  button(label: string): boolean {
    const id = widgetId(label, this.#parentId());
    const h = this.#lineHeight;
    const row = this.#row(h);
    const width = Math.min(row.width, this.#textWidth(visible(label)) + 24);
    const clicked = this.#interact(id, row.x, row.y, width, h);
    const color = this.active === id ? this.theme.active : this.hot === id ? this.theme.hot : this.theme.widget;
    this.gui.create('roundedRect', { x: row.x, y: row.y, width, height: h, radius: 4, segments: 3, color, layer: LAYER_WIDGET, clip: this.#clip() });
    this.#text(visible(label), row.x + 12, row.y + (h - this.theme.fontSize * 1.2) / 2, this.theme.text);
    this.#focusRing(id, row.x, row.y, width, h);
    return clicked;
  }

  /** A checkbox; returns the new value (toggled when clicked or activated). */
  checkbox(label: string, checked: boolean): boolean {
    const id = widgetId(label, this.#parentId());
    const h = this.#lineHeight;
    const row = this.#row(h);
    const box = h - 6;
    const width = box + 8 + this.#textWidth(visible(label));
    const value = this.#interact(id, row.x, row.y, width, h) ? !checked : checked;
    const clip = this.#clip();
    this.gui.create('rect', { x: row.x, y: row.y + 3, width: box, height: box, color: this.hot === id ? this.theme.hot : this.theme.widget, layer: LAYER_WIDGET, clip });
    if (value) this.gui.create('rect', { x: row.x + 4, y: row.y + 7, width: box - 8, height: box - 8, color: this.theme.accent, layer: LAYER_WIDGET, clip });
    this.#text(visible(label), row.x + box + 8, row.y + (h - this.theme.fontSize * 1.2) / 2, this.theme.text);
    this.#focusRing(id, row.x, row.y + 3, box, box);
    return value;
  }

  /** A horizontal slider from min to max; returns the new value (drag, or arrow keys when focused). */
  slider(label: string, value: number, min: number, max: number, step = (max - min) / 100): number {
    if (!(max > min)) throw new GuiError(`Ui.slider("${label}"): max (${max}) must be greater than min (${min}).`);
    const id = widgetId(label, this.#parentId());
    const h = this.#lineHeight;
    const row = this.#row(h);
    const track = Math.max(40, row.width * 0.6);
    this.#interact(id, row.x, row.y, track, h);
    let v = Math.min(max, Math.max(min, value));
    if (this.active === id && this.#input.pointerDown) {
      const t = Math.min(1, Math.max(0, (this.#input.pointerX - row.x) / track));
      v = min + t * (max - min);
      if (step > 0) v = Math.min(max, min + Math.round((v - min) / step) * step);
    }
    if (this.focused === id) {
      for (const key of this.#input.keys) {
        if (key === 'ArrowLeft' || key === 'ArrowDown') v = Math.max(min, v - step);
        if (key === 'ArrowRight' || key === 'ArrowUp') v = Math.min(max, v + step);
      }
    }
    const clip = this.#clip();
    const t = (v - min) / (max - min);
    this.gui.create('rect', { x: row.x, y: row.y + h / 2 - 3, width: track, height: 6, color: this.theme.widget, layer: LAYER_WIDGET, clip });
    this.gui.create('rect', { x: row.x, y: row.y + h / 2 - 3, width: track * t, height: 6, color: this.theme.accent, layer: LAYER_WIDGET, clip });
    this.gui.create('rect', { x: row.x + track * t - 5, y: row.y + 3, width: 10, height: h - 6, color: this.active === id ? this.theme.active : this.hot === id ? this.theme.hot : this.theme.text, layer: LAYER_WIDGET, clip });
    const shown = Math.abs(v) >= 100 || Number.isInteger(step) ? v.toFixed(0) : v.toFixed(2);
    this.#text(`${visible(label)} ${shown}`, row.x + track + 8, row.y + (h - this.theme.fontSize * 1.2) / 2, this.theme.text);
    this.#focusRing(id, row.x, row.y, track, h);
    return v;
  }

  /**
   * A one-line text field; returns the new text. Click or Tab to focus, then typed characters
   * (KeyboardEvent.key of length 1-2, so astral characters too), Backspace, Delete, the arrow
   * keys, Home and End edit it at the caret.
   */
  textInput(label: string, value: string): string {
    const id = widgetId(label, this.#parentId());
    const h = this.#lineHeight;
    const row = this.#row(h);
    const box = Math.max(40, row.width * 0.6);
    this.#interact(id, row.x, row.y, box, h);
    let text = value;
    let caret = Math.min(this.#carets.get(id) ?? text.length, text.length);
    if (this.focused === id) {
      const previous = (at: number): number => (at >= 2 && /[\uDC00-\uDFFF]/.test(text[at - 1]!) && /[\uD800-\uDBFF]/.test(text[at - 2]!) ? at - 2 : Math.max(0, at - 1));
      const following = (at: number): number => (at + 1 < text.length && /[\uD800-\uDBFF]/.test(text[at]!) ? at + 2 : Math.min(text.length, at + 1));
      for (const key of this.#input.keys) {
        if (key === 'Backspace') {
          const from = previous(caret);
          text = text.slice(0, from) + text.slice(caret);
          caret = from;
        } else if (key === 'Delete') text = text.slice(0, caret) + text.slice(following(caret));
        else if (key === 'ArrowLeft') caret = previous(caret);
        else if (key === 'ArrowRight') caret = following(caret);
        else if (key === 'Home') caret = 0;
        else if (key === 'End') caret = text.length;
        else if ((key.length === 1 || (key.length === 2 && key.codePointAt(0)! > 0xffff)) && key !== 'Tab' && key !== 'Enter' && key.charCodeAt(0) >= 0x20) {
          text = text.slice(0, caret) + key + text.slice(caret);
          caret += key.length;
        }
      }
    }
    this.#carets.set(id, caret);
    const clip = this.#clip();
    this.gui.create('rect', { x: row.x, y: row.y, width: box, height: h, color: this.focused === id ? this.theme.hot : this.theme.widget, layer: LAYER_WIDGET, clip });
    const textY = row.y + (h - this.theme.fontSize * 1.2) / 2;
    this.#text(text, row.x + 6, textY, this.theme.text);
    if (this.focused === id) {
      const before = text.slice(0, caret);
      const trimmed = before.trimEnd();
      const space = this.theme.font.slotOf(32);
      const spaceWidth = space >= 0 ? (this.theme.font.xadvance[space]! * this.theme.fontSize) / this.theme.font.emSize : 0;
      const caretX = row.x + 6 + this.#textWidth(trimmed) + (before.length - trimmed.length) * spaceWidth;
      this.gui.create('rect', { x: caretX, y: row.y + 4, width: 2, height: h - 8, color: this.theme.accent, layer: LAYER_FOCUS, clip });
    }
    this.#text(visible(label), row.x + box + 8, textY, this.theme.text);
    this.#focusRing(id, row.x, row.y, box, h);
    return text;
  }

  /**
   * Opens a panel: a titled box whose contents are clipped to it and scroll with the wheel
   * when they are taller than it. Close with endPanel().
   */
  beginPanel(title: string, x: number, y: number, width: number, height: number): void {
    const id = widgetId(title, this.#parentId());
    const titleHeight = this.#lineHeight;
    const outer = this.#panels[this.#panels.length - 1];
    this.gui.create('rect', { x, y, width, height, color: this.theme.panel, layer: LAYER_PANEL, clip: this.#clip() });
    this.gui.create('rect', { x, y, width, height: titleHeight, color: this.theme.widget, layer: LAYER_PANEL, clip: this.#clip() });
    this.#text(visible(title), x + 8, y + (titleHeight - this.theme.fontSize * 1.2) / 2, this.theme.text);
    // The content clip is the panel below its title, inside any enclosing panel's clip.
    let cx0 = x;
    let cy0 = y + titleHeight;
    let cx1 = x + width;
    let cy1 = y + height;
    if (outer) {
      const r = this.gui.clipRects;
      cx0 = Math.max(cx0, r[outer.clip * 4]!);
      cy0 = Math.max(cy0, r[outer.clip * 4 + 1]!);
      cx1 = Math.min(cx1, r[outer.clip * 4 + 2]!);
      cy1 = Math.min(cy1, r[outer.clip * 4 + 3]!);
    }
    const clip = this.gui.addClip({ x: cx0, y: cy0, width: Math.max(0, cx1 - cx0), height: Math.max(0, cy1 - cy0) });
    const contentTop = y + titleHeight;
    const viewHeight = Math.max(0, height - titleHeight);
    const overflow = Math.max(0, (this.#contentHeight.get(id) ?? 0) - viewHeight);
    let scroll = this.#scroll.get(id) ?? 0;
    const { pointerX: px, pointerY: py, wheelY } = this.#input;
    if (wheelY !== 0 && px >= x && px < x + width && py >= contentTop && py < y + height) scroll += wheelY;
    scroll = Math.min(overflow, Math.max(0, scroll));
    this.#scroll.set(id, scroll);
    this.#panels.push({ id, x, y, width, height, clip, contentTop, scroll, cursorY: contentTop + 6 });
    if (overflow > 0 && viewHeight > 0) {
      const barHeight = (viewHeight * viewHeight) / (viewHeight + overflow);
      this.gui.create('rect', { x: x + width - 5, y: contentTop + (scroll / overflow) * (viewHeight - barHeight), width: 4, height: barHeight, color: this.theme.accent, layer: LAYER_WIDGET, clip });
    }
  }

  /** Closes the innermost panel opened with `beginPanel`; throws {@link GuiError} when none is open. */
  endPanel(): void {
    const panel = this.#panels.pop();
    if (!panel) throw new GuiError('Ui.endPanel: no panel is open.');
    this.#contentHeight.set(panel.id, panel.cursorY - panel.contentTop + 2);
  }

  /** Scroll offset of a panel (by title) in pixels. */
  scrollOf(title: string): number {
    return this.#scroll.get(widgetId(title, this.#parentId())) ?? 0;
  }
}

// Immediate-mode widgets: stable ids, pointer clicks and drags, keyboard focus and
// activation, panels that clip and scroll.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Gui, GuiError, GuiFont, parseBMFontText, QUAD_WORDS, Ui, widgetId, type UiInput } from '../src/index.ts';

const font = new GuiFont(parseBMFontText(readFileSync(join(import.meta.dirname, 'fixtures/arial-2pages.fnt'), 'utf8')));
const TEXT = 7;

function ui(): Ui {
  return new Ui(new Gui({ mode: 'immediate' }), { font, textMaterial: TEXT, fontSize: 16 });
}

const idle: UiInput = { pointerX: -1, pointerY: -1, pointerDown: false };

/** Runs one frame of a small tool window and reports what the widgets returned. */
function frame(u: Ui, input: UiInput, state: { on: boolean; volume: number }): { save: boolean; load: boolean } {
  u.beginFrame(input, { x: 10, y: 10, width: 200 });
  u.label('Settings');
  const save = u.button('Save');
  const load = u.button('Load');
  state.on = u.checkbox('Music', state.on);
  state.volume = u.slider('Volume', state.volume, 0, 100, 1);
  u.endFrame();
  return { save, load };
}

// Rows start at y = 10 and are 26 px (16 * 1.6) tall plus 4 px apart: label, Save, Load, Music, Volume.
const rowY = (row: number): number => 10 + row * 30 + 10;

test('ids come from labels and the panels around them, the same every frame', () => {
  expect(widgetId('Save')).toBe(widgetId('Save'));
  expect(widgetId('Save##left')).not.toBe(widgetId('Save##right'));
  expect(widgetId('Save', widgetId('Panel A'))).not.toBe(widgetId('Save', widgetId('Panel B')));
});

test('a button clicks on release over it, not on press, and not when released elsewhere', () => {
  const u = ui();
  const state = { on: false, volume: 50 };
  frame(u, idle, state);
  expect(frame(u, { pointerX: 20, pointerY: rowY(1), pointerDown: true }, state).save).toBe(false);
  expect(u.active).toBe(widgetId('Save'));
  expect(frame(u, { pointerX: 20, pointerY: rowY(1), pointerDown: false }, state).save).toBe(true);
  expect(frame(u, { pointerX: 20, pointerY: rowY(1), pointerDown: false }, state).save).toBe(false);
  // Pressed on Load, dragged away, released: no click.
  frame(u, { pointerX: 20, pointerY: rowY(2), pointerDown: true }, state);
  expect(frame(u, { pointerX: 300, pointerY: 300, pointerDown: false }, state).load).toBe(false);
  expect(u.hot).toBe(0);
});

test('checkbox toggles on click; slider follows a drag and snaps to its step', () => {
  const u = ui();
  const state = { on: false, volume: 50 };
  frame(u, { pointerX: 15, pointerY: rowY(3), pointerDown: true }, state);
  frame(u, { pointerX: 15, pointerY: rowY(3), pointerDown: false }, state);
  expect(state.on).toBe(true);
  // The track is 120 px (60% of 200) from x = 10: pressing at x = 40 is 25%.
  frame(u, { pointerX: 40, pointerY: rowY(4), pointerDown: true }, state);
  expect(state.volume).toBe(25);
  frame(u, { pointerX: 400, pointerY: 0, pointerDown: true }, state);
  expect(state.volume).toBe(100);
  frame(u, { pointerX: 400, pointerY: 0, pointerDown: false }, state);
  expect(u.active).toBe(0);
});

test('keyboard: Tab walks the widgets in order, Enter and Space activate, arrows move a slider', () => {
  const u = ui();
  const state = { on: false, volume: 50 };
  frame(u, idle, state);
  frame(u, { ...idle, keys: ['Tab'] }, state);
  expect(u.focused).toBe(widgetId('Save'));
  expect(frame(u, { ...idle, keys: ['Enter'] }, state).save).toBe(true);
  frame(u, { ...idle, keys: ['Tab', 'Tab'] }, state);
  expect(u.focused).toBe(widgetId('Music'));
  frame(u, { ...idle, keys: [' '] }, state);
  expect(state.on).toBe(true);
  frame(u, { ...idle, keys: ['Tab'] }, state);
  frame(u, { ...idle, keys: ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft'] }, state);
  expect(state.volume).toBe(52);
  frame(u, { ...idle, keys: ['Tab'], shift: true }, state);
  expect(u.focused).toBe(widgetId('Music'));
  // The focus ring is drawn on its own layer.
  expect(u.gui.batches.some((b) => b.layer === 3 && b.used > 0)).toBe(true);
});

test('panels clip their contents, scroll with the wheel, and hide clicks outside their clip', () => {
  const u = ui();
  const clicks: string[] = [];
  const run = (input: UiInput): void => {
    u.beginFrame(input);
    u.beginPanel('Log', 0, 0, 200, 100);
    for (let i = 0; i < 10; i++) if (u.button(`Item ${i}`)) clicks.push(`Item ${i}`);
    u.endPanel();
    u.endFrame();
  };
  run(idle);
  // Title 26 px, contents from y = 32: Item 2 at 92..118 is cut by the bottom at y = 100.
  const clip = u.gui.clipRects.subarray(4, 8);
  expect(Array.from(clip)).toEqual([0, 26, 200, 100]);
  // The title is not clipped; the buttons' text is stamped with the panel's clip.
  const textBatch = u.gui.batches.find((b) => b.material === TEXT)!;
  expect(textBatch.words[4]! & 0xffff).toBe(0);
  expect(textBatch.words[(textBatch.used - 1) * QUAD_WORDS + 4]! & 0xffff).toBe(1);
  // A click at y = 110 is below the panel: Item 2's button is there but clipped away.
  run({ pointerX: 20, pointerY: 110, pointerDown: true });
  run({ pointerX: 20, pointerY: 110, pointerDown: false });
  expect(clicks).toEqual([]);
  // Scroll 60 px down: Item 2 moves to y = 32; clicking it works now.
  run({ pointerX: 20, pointerY: 50, pointerDown: false, wheelY: 60 });
  expect(u.scrollOf('Log')).toBe(60);
  run({ pointerX: 20, pointerY: 40, pointerDown: true });
  run({ pointerX: 20, pointerY: 40, pointerDown: false });
  expect(clicks).toEqual(['Item 2']);
  // Scrolling stops at the end of the contents.
  run({ pointerX: 20, pointerY: 50, pointerDown: false, wheelY: 10_000 });
  expect(u.scrollOf('Log')).toBe(10 * 30 + 6 + 2 - 74);
  // The scroll bar is drawn.
  expect(u.gui.batches.find((b) => b.layer === 1)!.used).toBeGreaterThan(0);
});

test('misuse is reported', () => {
  expect(() => new Ui(new Gui(), { font, textMaterial: TEXT })).toThrow(/immediate mode/);
  const u = ui();
  u.beginFrame(idle);
  expect(() => { u.beginFrame(idle); }).toThrow(/not ended/);
  u.beginPanel('P', 0, 0, 10, 10);
  expect(() => { u.endFrame(); }).toThrow(/still open/);
  u.endPanel();
  expect(() => { u.endPanel(); }).toThrow(GuiError);
  expect(() => u.slider('s', 0, 1, 1)).toThrow(/must be greater/);
  u.endFrame();
});

test('text input: focus, typing (astral characters too), Backspace, Delete, arrows, Home, End', () => {
  const u = ui();
  let name = 'AV';
  const run = (input: UiInput): void => {
    u.beginFrame(input);
    name = u.textInput('Name', name);
    u.endFrame();
  };
  run(idle);
  // Typing before the field has focus does nothing.
  run({ ...idle, keys: ['x'] });
  expect(name).toBe('AV');
  run({ pointerX: 20, pointerY: 20, pointerDown: true });
  run({ pointerX: 20, pointerY: 20, pointerDown: false, keys: ['é', ' ', '😀'] });
  expect(name).toBe('AVé 😀');
  run({ ...idle, keys: ['Backspace'] });
  expect(name).toBe('AVé ');
  run({ ...idle, keys: ['Home', 'ArrowRight', 'Delete', 'End', 'a'] });
  expect(name).toBe('Aé a');
  run({ ...idle, keys: ['ArrowLeft', 'Backspace', 'Enter', 'Shift'] });
  expect(name).toBe('Aéa');
  // The caret is drawn on the focus layer, with the focus ring.
  expect(u.gui.batches.find((b) => b.layer === 3)!.used).toBeGreaterThanOrEqual(5);
  // A click elsewhere takes the focus away; typing then leaves the text alone.
  run({ pointerX: 500, pointerY: 500, pointerDown: true });
  expect(u.focused).toBe(0);
  run({ ...idle, keys: ['z'] });
  expect(name).toBe('Aéa');
});

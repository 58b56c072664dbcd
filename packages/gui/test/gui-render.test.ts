// The WebGPU renderer on lavapipe: reference pictures of shapes and distance-field text
// (fill, outline, glow, shadow, clipping), retained and immediate mode drawing the same
// pixels with the same draw calls, and two GUIs in one pass.
import { gpuTest } from '@cuttle/test-utils';
import { beforeAll, expect } from 'vitest';
import { distanceFieldFontFromTtf, Gui, GuiError, GuiFont, GuiRenderer, REFERENCE_SOLID, renderReference, SOLID_MATERIAL, textStyleUniform, Ui, type FontWithPages, type GuiImage, type ReferenceMaterial, type TextStyle } from '../src/index.ts';
import { dejaVuSans } from './font-files.ts';
import { compareWithReference, renderPixels } from './render-helpers.ts';

const W = 192;
const H = 96;
let sdf: FontWithPages;
let font: GuiFont;

beforeAll(() => {
  sdf = distanceFieldFontFromTtf(dejaVuSans(), { size: 32, scale: 8, spread: 4, chars: 'AVacdegiloprstxfGUIMSnumvbhkSaeyTW0123456789:. ' });
  font = new GuiFont(sdf.font);
});

function checker(): GuiImage {
  const data = new Uint8Array(8 * 8 * 4);
  for (let i = 0; i < 64; i++) {
    const on = ((i & 7) >> 2) ^ (i >> 5);
    data.set(on ? [255, 220, 40, 255] : [40, 120, 255, 255], i * 4);
  }
  return { width: 8, height: 8, channels: 4, data };
}

interface Materials {
  atlas: number;
  text: number;
  fancy: number;
}

const FANCY: TextStyle = { outline: { width: 1.5, color: 0x000000ff }, glow: { width: 2.5, color: 0xff8800c0 }, shadow: { offsetX: 1.5, offsetY: 1.5, softness: 1, color: 0x00000090 } };

function materials(renderer: GuiRenderer): Materials {
  return {
    atlas: renderer.createAtlasMaterial([checker()], { filter: 'nearest' }),
    text: renderer.createTextMaterial(font, sdf.pages),
    fancy: renderer.createTextMaterial(font, sdf.pages, FANCY),
  };
}

/** The same materials for the TypeScript reference renderer, in the same order. */
function referenceMaterials(): ReferenceMaterial[] {
  const page = sdf.pages[0]!;
  return [
    REFERENCE_SOLID,
    { kind: 'textured', pages: [checker()], filter: 'nearest' },
    { kind: 'text', pages: sdf.pages, filter: 'linear', style: textStyleUniform({}, font.spread, page.width, page.height) },
    { kind: 'text', pages: sdf.pages, filter: 'linear', style: textStyleUniform(FANCY, font.spread, page.width, page.height) },
  ];
}

/** The test scene; `frame` moves a few objects, so retained mode has updates to make. */
function scene(gui: Gui, m: Materials, frame: number, ids: number[] = []): number[] {
  const clip = gui.mode === 'immediate' || ids.length === 0 ? gui.addClip({ x: 120, y: 50, width: 60, height: 36 }) : 1;
  const objects: [string, object][] = [
    ['rect', { x: 4, y: 4, width: 60, height: 30, color: 0x3050a0ff }],
    ['roundedRect', { x: 70, y: 4, width: 50, height: 30, radius: 10, color: 0x40a060ff }],
    ['line', { points: [4, 90, 60, 40 + frame * 5, 116, 90], width: 3, color: 0xffffffff, layer: 1 }],
    ['image', { x: 126, y: 4, width: 32, height: 32, material: m.atlas }],
    ['rect', { x: 10 + frame * 3, y: 20, width: 30, height: 30, color: 0xff000080, layer: 1 }],
    ['text', { x: 6, y: 36, text: `GUI ${frame}`, font, material: m.text, size: 20, color: 0xffffffff, layer: 2 }],
    ['text', { x: 70, y: 36, text: 'AVa', font, material: m.fancy, size: 20, color: 0xffee88ff, layer: 2 }],
    ['rect', { x: 110, y: 40, width: 80, height: 60, color: 0x8080ffff, clip, layer: 1 }],
    ['text', { x: 122, y: 56, text: 'clipped text', font, material: m.text, size: 16, color: 0x000000ff, clip, layer: 2 }],
  ];
  if (ids.length === 0 || gui.mode === 'immediate') return objects.map(([kind, params]) => gui.create(kind, params));
  objects.forEach(([, params], i) => { gui.update(ids[i]!, params); });
  return ids;
}

gpuTest('reference picture: shapes, atlas image, distance-field text with outline, glow, shadow and clipping', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const gui = new Gui();
  scene(gui, m, 0);
  const { pixels, drawCalls } = await renderPixels(device, renderer, [gui], W, H);
  // (layer, material) pairs: (0 solid), (0 atlas), (1 solid), (2 text), (2 fancy).
  expect(drawCalls).toBe(5);
  const result = await compareWithReference('reference-scene', pixels, W, H);
  expect(result.ok, result.message).toBe(true);
  // Spot checks that do not depend on the stored picture.
  const at = (x: number, y: number): number[] => Array.from(pixels.subarray((y * W + x) * 4, (y * W + x) * 4 + 4));
  expect(at(6, 6)).toEqual([0x30, 0x50, 0xa0, 255]);
  expect(at(127, 5)).toEqual([40, 120, 255, 255]);
  expect(at(143, 5)).toEqual([255, 220, 40, 255]);
  // The clipped panel: inside the clip it is drawn, left of the clip (x < 120) it is not.
  expect(at(150, 80)).toEqual([0x80, 0x80, 0xff, 255]);
  expect(at(114, 80)).toEqual([26, 31, 41, 255]);
  renderer.destroy();
});

gpuTest('the WGSL matches the TypeScript reference renderer (shapes, atlas, text with outline, glow, shadow, clipping)', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const gui = new Gui();
  scene(gui, m, 1);
  const { pixels } = await renderPixels(device, renderer, [gui], W, H);
  const expected = renderReference([gui], referenceMaterials(), W, H, [0.1, 0.12, 0.16, 1]);
  let off = 0;
  let worst = 0;
  for (let i = 0; i < W * H; i++) {
    let diff = 0;
    for (let c = 0; c < 4; c++) diff = Math.max(diff, Math.abs(pixels[i * 4 + c]! - expected[i * 4 + c]!));
    worst = Math.max(worst, diff);
    if (diff > 6) off++;
  }
  // Away from edges the two agree to a few levels; on edges rasterisation tie-breaks and
  // derivative choices may differ, in a small share of pixels.
  expect(off, `${off} pixels differ by more than 6 (worst ${worst})`).toBeLessThan(W * H * 0.01);
  renderer.destroy();
});

gpuTest('distance-field text stays sharp when scaled: the edge takes about one pixel at 24 px and at 96 px', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const widths: number[] = [];
  for (const size of [24, 96]) {
    const gui = new Gui();
    gui.create('rect', { x: 0, y: 0, width: W, height: H, color: 0x000000ff });
    gui.create('text', { x: 4, y: -size * 0.1, text: 'l', font, material: m.text, size, color: 0xffffffff, layer: 1 });
    const { pixels } = await renderPixels(device, renderer, [gui], W, H);
    // Along a row through the stem of the 'l': count partly covered pixels on its left edge.
    const row = Math.floor(size * 0.5);
    let partial = 0;
    let solid = 0;
    for (let x = 0; x < W / 2; x++) {
      const v = pixels[(row * W + x) * 4]!;
      if (v > 20 && v < 235) partial++;
      if (v >= 235) solid++;
    }
    expect(solid).toBeGreaterThanOrEqual(size === 96 ? 8 : 1);
    widths.push(partial);
  }
  // Two stem edges, each antialiased over one or two pixels, at both sizes (a bitmap font
  // magnified 4x would smear over four pixels per edge).
  for (const w of widths) expect(w).toBeLessThanOrEqual(4);
  renderer.destroy();
});

gpuTest('retained and immediate mode draw the same pixels with the same draw calls', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const retained = new Gui({ mode: 'retained' });
  const immediate = new Gui({ mode: 'immediate' });
  let ids: number[] = [];
  let last: { pixels: Uint8Array; drawCalls: number } | undefined;
  for (let frame = 0; frame < 3; frame++) {
    ids = scene(retained, m, frame, ids);
    immediate.beginFrame();
    scene(immediate, m, frame);
    const a = await renderPixels(device, renderer, [retained], W, H);
    const b = await renderPixels(device, renderer, [immediate], W, H);
    expect(a.drawCalls).toBe(b.drawCalls);
    expect(Buffer.from(a.pixels).equals(Buffer.from(b.pixels))).toBe(true);
    last = a;
  }
  expect(last!.drawCalls).toBe(5);
  renderer.destroy();
});

gpuTest('reference picture: immediate-mode widgets in a scrolled, clipped panel', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const ui = new Ui(new Gui({ mode: 'immediate' }), { font, textMaterial: m.text, fontSize: 12 });
  const state = { music: true, volume: 70 };
  for (const input of [{ pointerX: 30, pointerY: 60, pointerDown: false }, { pointerX: 30, pointerY: 60, pointerDown: false, wheelY: 12 }, { pointerX: 30, pointerY: 60, pointerDown: false, keys: ['Tab'] }]) {
    ui.beginFrame(input);
    ui.beginPanel('Settings', 4, 4, 150, 88);
    ui.label('Audio');
    ui.button('Save');
    state.music = ui.checkbox('Music', state.music);
    state.volume = ui.slider('Vol', state.volume, 0, 100, 1);
    ui.endPanel();
    ui.endFrame();
  }
  const { pixels, drawCalls } = await renderPixels(device, renderer, [ui.gui], W, H);
  expect(drawCalls).toBe(4);
  const result = await compareWithReference('reference-widgets', pixels, W, H);
  expect(result.ok, result.message).toBe(true);
  renderer.destroy();
});

gpuTest('two GUIs at once: a retained HUD under an immediate-mode overlay', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  const hud = new Gui();
  for (let i = 0; i < 200; i++) hud.create('rect', { x: (i % 20) * 9, y: Math.floor(i / 20) * 9, width: 8, height: 8, color: 0x204080ff });
  const overlay = new Gui({ mode: 'immediate' });
  for (let frame = 0; frame < 2; frame++) {
    overlay.beginFrame();
    overlay.create('rect', { x: 0, y: 0, width: 40, height: 40, color: 0xff000080 });
    overlay.create('text', { x: 50, y: 10, text: `fps ${60 + frame}`, font, material: m.text, size: 16 });
    const { pixels, drawCalls } = await renderPixels(device, renderer, [hud, overlay], W, H);
    expect(drawCalls).toBe(1 + 2);
    // Half-transparent red over the HUD's blue square: both contribute.
    const p = Array.from(pixels.subarray((4 * W + 4) * 4, (4 * W + 4) * 4 + 4));
    expect(p[0]).toBeGreaterThan(120);
    expect(p[2]).toBeGreaterThan(50);
  }
  renderer.destroy();
});

gpuTest('bad materials and styles are refused', async ({ device }) => {
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const m = materials(renderer);
  expect(() => { renderer.setTextStyle(SOLID_MATERIAL, {}); }).toThrow(/not a text material/);
  expect(() => { renderer.setTextStyle(m.text, { outline: { width: 9, color: 0 } }); }).toThrow(/exceeds the font's spread/);
  expect(() => renderer.createAtlasMaterial([])).toThrow(GuiError);
  const gui = new Gui();
  gui.create('rect', { x: 0, y: 0, width: 4, height: 4, color: 0xffffffff, material: 99 });
  await expect(renderPixels(device, renderer, [gui], W, H)).rejects.toThrow(/material 99/);
  renderer.destroy();
});

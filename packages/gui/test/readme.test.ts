// The README's examples, run as written (the device, pass and input come from the test).
import { readFileSync } from 'node:fs';
import { gpuTest, readBuffer } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { distanceFieldFontFromTtf, Gui, GuiFont, GuiRenderer, SOLID_MATERIAL, Ui, type GuiEmitter } from '../src/index.ts';
import { dejaVuSans } from './font-files.ts';

gpuTest('README example', async ({ device }) => {
  dejaVuSans(); // fails naming fonts-dejavu-core when the font is missing
  const target = device.createTexture({ size: [256, 64], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), clearValue: [0, 0, 0, 1], loadOp: 'clear', storeOp: 'store' }] });

  const { font: fnt, pages } = distanceFieldFontFromTtf(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'), { size: 32 });
  const font = new GuiFont(fnt);
  const renderer = new GuiRenderer(device, 'rgba8unorm');
  const text = renderer.createTextMaterial(font, pages, { outline: { width: 1, color: 0x000000ff } });

  const hud = new Gui(); // retained: create once, update when something changes
  const score = hud.create('text', { x: 16, y: 16, text: 'Score 0', font, material: text, size: 24 });
  hud.update(score, { x: 16, y: 16, text: 'Score 10', font, material: text, size: 24 });
  expect(renderer.draw(pass, hud, 256, 64)).toBe(1); // every frame, in a render pass: one draw per (layer, material)

  pass.end();
  const pixels = device.createBuffer({ size: 256 * 64 * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  encoder.copyTextureToBuffer({ texture: target }, { buffer: pixels, bytesPerRow: 256 * 4 }, [256, 64]);
  device.queue.submit([encoder.finish()]);
  const rgba = new Uint8Array(await readBuffer(device, pixels));
  let lit = 0;
  for (let i = 0; i < 256 * 64; i++) if (rgba[i * 4]! > 200) lit++;
  expect(lit).toBeGreaterThan(200); // "Score 10" in white
  expect(hud.placementOf(score).count).toBe(7); // S c o r e 1 0: the space has no quad

  // The widgets snippet.
  const settings = { vsync: false, volume: 50 };
  let resets = 0;
  const reset = (): void => { resets++; };
  for (const [pointerX, pointerY, pointerDown, wheelY, keys] of [[20, 50, true, 0, []], [20, 50, false, 0, []]] as const) {
    const ui = uiOnce ??= new Ui(new Gui({ mode: 'immediate' }), { font, textMaterial: text });
    ui.beginFrame({ pointerX, pointerY, pointerDown, wheelY, keys });
    ui.beginPanel('Debug', 10, 10, 240, 300); // clips and scrolls its contents
    if (ui.button('Reset')) reset();
    settings.vsync = ui.checkbox('V-sync', settings.vsync);
    settings.volume = ui.slider('Volume', settings.volume, 0, 100, 1);
    ui.endPanel();
    ui.endFrame();
  }
  expect(resets).toBe(1);

  // The user kind snippet.
  hud.registerKind('healthBar', (p: { x: number; y: number; health: number }, out: GuiEmitter) => {
    out.key(0, SOLID_MATERIAL);
    out.rect(p.x, p.y, p.x + 100, p.y + 8, 0, 0, 1, 1, 0x202020ff);
    out.rect(p.x, p.y, p.x + p.health, p.y + 8, 0, 0, 1, 1, 0x40c040ff);
  });
  const bar = hud.create('healthBar', { x: 16, y: 48, health: 70 });
  expect(hud.placementOf(bar)).toMatchObject({ layer: 0, material: SOLID_MATERIAL, count: 2 });
  expect(hud.drawCalls).toBe(2);
  renderer.destroy();
});

let uiOnce: Ui | undefined;

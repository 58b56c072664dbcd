// Rendering GUIs offscreen for the GPU tests, reading the pixels back, and comparing them with
// the reference pictures in test/fixtures/reference-*.png.
//
// Regenerate the pictures (after a deliberate change, on lavapipe) with
//   CUTTLE_UPDATE_REFERENCES=1 pnpm --filter @cuttle/gui test
// and look at them before committing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBuffer } from '@cuttle/test-utils';
import { decodePng, encodePng, type Gui, type GuiRenderer } from '../src/index.ts';

/** Renders `guis` in order over a clear colour; width * 4 must be a multiple of 256. */
export async function renderPixels(device: GPUDevice, renderer: GuiRenderer, guis: readonly Gui[], width: number, height: number): Promise<{ pixels: Uint8Array; drawCalls: number }> {
  const target = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), clearValue: { r: 0.1, g: 0.12, b: 0.16, a: 1 }, loadOp: 'clear', storeOp: 'store' }] });
  let drawCalls = 0;
  for (const gui of guis) drawCalls += renderer.draw(pass, gui, width, height);
  pass.end();
  const buffer = device.createBuffer({ size: width * height * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  encoder.copyTextureToBuffer({ texture: target }, { buffer, bytesPerRow: width * 4 }, [width, height]);
  device.queue.submit([encoder.finish()]);
  return { pixels: new Uint8Array(await readBuffer(device, buffer)), drawCalls };
}

const fixtures = join(import.meta.dirname, 'fixtures');

/**
 * Compares with test/fixtures/<name>.png: at most `tolerance` per channel, except in up to
 * 0.5% of pixels (rasterisers may differ on a few edge pixels). Writes the actual picture next
 * to a failure's message, and the reference itself with CUTTLE_UPDATE_REFERENCES=1.
 */
export async function compareWithReference(name: string, pixels: Uint8Array, width: number, height: number, tolerance = 24): Promise<{ ok: boolean; message: string }> {
  const path = join(fixtures, `${name}.png`);
  const actual = await encodePng({ width, height, channels: 4, data: pixels });
  if (process.env.CUTTLE_UPDATE_REFERENCES === '1' || !existsSync(path)) {
    if (process.env.CI === 'true' && !existsSync(path)) return { ok: false, message: `${path} is missing: run CUTTLE_UPDATE_REFERENCES=1 pnpm --filter @cuttle/gui test and commit it.` };
    writeFileSync(path, actual);
    return { ok: true, message: `wrote ${path}` };
  }
  const reference = await decodePng(new Uint8Array(readFileSync(path)));
  if (reference.width !== width || reference.height !== height) return { ok: false, message: `${name}: reference is ${reference.width}x${reference.height}, rendered ${width}x${height}.` };
  let bad = 0;
  let worst = 0;
  for (let i = 0; i < width * height; i++) {
    let diff = 0;
    for (let c = 0; c < 4; c++) diff = Math.max(diff, Math.abs(pixels[i * 4 + c]! - reference.data[i * 4 + c]!));
    worst = Math.max(worst, diff);
    if (diff > tolerance) bad++;
  }
  const ok = bad <= width * height * 0.005;
  let message = `${name}: ${bad} pixel(s) differ by more than ${tolerance} (worst ${worst})`;
  if (!ok) {
    const out = join(import.meta.dirname, '..', '.test-output');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `${name}.actual.png`), actual);
    message += `; the rendered picture is in .test-output/${name}.actual.png`;
  }
  return { ok, message };
}

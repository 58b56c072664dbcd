// Browser checks of the skinning scene, run by smoke.ts once the scene is open: the motion-vector
// view shows motion on the walkers and none on the still background, and glTF files dropped on
// the page replace the character (or are refused with a message while the crowd walks on).
import type { Page } from 'playwright-core';
import { buildSkinnedColumnGlb, buildSkinnedColumnGltf } from '@cuttle/test-utils/skinned-glb';
import type { PixelSample } from '../src/frame-probe.ts';

export type Check = (name: string, ok: boolean, detail: string) => void;

// Above the status line the GUI draws along the bottom of the canvas.
const GRID = Array.from({ length: 48 * 28 }, (_, i) => [0.01 + (i % 48) * 0.0208, 0.02 + Math.floor(i / 48) * 0.03] as [number, number]);

interface MotionCensus {
  walkers: number;
  moving: number;
  ground: number;
  sky: number;
  stillBackground: number;
  /** A few background pixels that moved, for the failure message. */
  movingBackground: PixelSample[];
}

/** Decodes the motion view (frame.wgsl): blue marks walkers (1) and ground (0.25), red/green the motion (0.5 = none). */
function census(pixels: readonly PixelSample[]): MotionCensus {
  const result: MotionCensus = { walkers: 0, moving: 0, ground: 0, sky: 0, stillBackground: 0, movingBackground: [] };
  for (const pixel of pixels) {
    const [r, g, b] = pixel.rgba;
    const motion = Math.max(Math.abs(r - 128), Math.abs(g - 128));
    if (b >= 200) {
      result.walkers++;
      if (motion >= 3) result.moving++;
      continue;
    }
    if (b >= 40 && b <= 90) result.ground++;
    else if (b <= 10) result.sky++;
    else continue;
    if (motion <= 1) result.stillBackground++;
    else if (result.movingBackground.length < 4) result.movingBackground.push(pixel);
  }
  return result;
}

async function framesLater(page: Page, frames: number): Promise<void> {
  const start = await page.evaluate(() => window.__cuttle!.framesDrawn);
  await page.waitForFunction(([from, n]) => window.__cuttle!.framesDrawn >= from + n, [start, frames] as const, { timeout: 60_000 });
}

async function motionCensus(page: Page): Promise<MotionCensus> {
  return census(await page.evaluate((points) => window.__cuttle!.sample(points), GRID));
}

/** Drops `bytes` as a file named `name` on the canvas, the way a file manager's drag does. */
async function dropFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ([fileName, data]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], fileName));
      const canvas = document.querySelector('#view')!;
      for (const type of ['dragenter', 'dragover', 'drop']) canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [name, Array.from(bytes)] as const,
  );
}

/** Waits for the panel's message to leave "Reading…" and returns it with its role. */
async function pickerMessage(page: Page): Promise<{ text: string; role: string }> {
  await page.waitForFunction(() => !(document.querySelector('#panel .scene-message')?.textContent ?? 'Reading').startsWith('Reading'), undefined, { timeout: 30_000 }).catch(() => undefined);
  return page.evaluate(() => {
    const line = document.querySelector('#panel .scene-message');
    return { text: line?.textContent ?? '', role: line?.getAttribute('role') ?? '' };
  });
}

async function statusAfter(page: Page, fragment: string): Promise<string> {
  await page.waitForFunction((text) => document.querySelector('#status')?.textContent.includes(text) === true, fragment, { timeout: 30_000 }).catch(() => undefined);
  return (await page.textContent('#status')) ?? '';
}

const probeError = (page: Page): Promise<string | null> => page.evaluate(() => window.__cuttle!.error ?? null);

export async function checkSkinningScene(page: Page, check: Check): Promise<void> {
  // Every walker skinned every frame and a still camera: walkers move, the ground does not.
  await page.setChecked('#panel input[name="lod"]', false);
  await page.setChecked('#panel input[name="orbit"]', false);
  await page.selectOption('#panel select[name="view"]', 'motion vectors');
  await framesLater(page, 4);
  const crowd = await motionCensus(page);
  check('gpu-skinning motion vectors: walkers carry motion', crowd.walkers >= 20 && crowd.moving >= 0.9 * crowd.walkers, JSON.stringify({ walkers: crowd.walkers, moving: crowd.moving, of: GRID.length }));
  const background = crowd.ground + crowd.sky;
  check('gpu-skinning motion vectors: still background carries none', crowd.ground >= 50 && background >= 100 && crowd.stillBackground === background, JSON.stringify({ ground: crowd.ground, sky: crowd.sky, still: crowd.stillBackground, movingBackground: crowd.movingBackground }));

  await dropFile(page, 'skinned-column.glb', await buildSkinnedColumnGlb());
  const loaded = await pickerMessage(page);
  const status = await statusAfter(page, 'model: skinned-column.glb');
  await framesLater(page, 3);
  const columns = await motionCensus(page);
  check(
    'gpu-skinning: a dropped GLB replaces the walker',
    loaded.role === 'status' && loaded.text.startsWith('Loaded skinned-column.glb: 3 joints, 24 vertices, clip "walk"') && status.includes('model: skinned-column.glb (3 joints, 24 vertices)') && columns.walkers >= 10 && columns.moving >= 0.9 * columns.walkers && (await probeError(page)) === null,
    JSON.stringify({ message: loaded.text, walkers: columns.walkers, moving: columns.moving, status }),
  );

  await dropFile(page, 'skinned-column.gltf', await buildSkinnedColumnGltf());
  const fromJson = await pickerMessage(page);
  check('gpu-skinning: a dropped .gltf with embedded data loads', fromJson.text.startsWith('Loaded skinned-column.gltf: 3 joints, 24 vertices'), fromJson.text);

  const framesBefore = await page.evaluate(() => window.__cuttle!.framesDrawn);
  await dropFile(page, 'broken.glb', new TextEncoder().encode('this is not a model'));
  const refused = await pickerMessage(page);
  await dropFile(page, 'still.glb', await buildSkinnedColumnGlb({ animation: false }));
  const still = await pickerMessage(page);
  await framesLater(page, 3);
  const after = await motionCensus(page);
  const afterStatus = (await page.textContent('#status')) ?? '';
  check(
    'gpu-skinning: bad files are refused in the page, the crowd walks on',
    refused.role === 'alert' && refused.text.includes('broken.glb is neither binary glTF nor glTF JSON') &&
      still.role === 'alert' && still.text.includes('still.glb has no animation') &&
      afterStatus.includes('model: skinned-column.gltf (3 joints') && after.walkers >= 10 && after.moving >= 0.9 * after.walkers && (await probeError(page)) === null,
    JSON.stringify({ refused: refused.text, still: still.text, walkers: after.walkers, moving: after.moving, framesBefore, status: afterStatus }),
  );

  await page.click('#panel button[name="procedural"]');
  const back = await statusAfter(page, 'model: procedural');
  check('gpu-skinning: the procedural walker comes back', back.includes('model: procedural (12 joints'), back);
}

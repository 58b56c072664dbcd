// Records a real frame-time trace from the demo: serves the built demo, opens a scene in
// headless Chromium with WebGPU (SwiftShader), and writes the requestAnimationFrame deltas of
// 600 frames to @cuttle/timestep's test fixtures.
//
//   pnpm --filter @cuttle/demo build && npx tsx e2e/record-frame-trace.ts [scene] [frames]
import { writeFileSync } from 'node:fs';
import { preview } from 'vite';
import { launchWebGpuChromium } from './browser.ts';

const scene = process.argv[2] ?? 'ecs';
const frames = Number(process.argv[3] ?? 600);
const out = new URL('../../../packages/timestep/test/fixtures/demo-raf-trace.json', import.meta.url);

const server = await preview({ root: new URL('..', import.meta.url).pathname, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
const address = server.httpServer.address();
const port = typeof address === 'object' && address ? address.port : 4173;
const browser = await launchWebGpuChromium();
try {
  const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
  await page.goto(`http://127.0.0.1:${port}/#${scene}`);
  await page.waitForFunction((id) => window.__cuttle?.scene === id, scene, { timeout: 60_000 });
  const start = await page.evaluate(() => window.__cuttle!.frameStamps.length);
  await page.waitForFunction((n) => window.__cuttle!.frameStamps.length >= n, start + frames + 1, { timeout: 120_000, polling: 250 });
  const stamps = await page.evaluate(([from, n]) => window.__cuttle!.frameStamps.slice(from, from + n), [start, frames + 1] as const);
  const deltasMs = stamps.slice(1).map((stamp, i) => Math.round((stamp - stamps[i]!) * 1000) / 1000);
  const fixture = {
    note:
      `requestAnimationFrame timestamp deltas (ms) of the Cuttle demo's "${scene}" scene, WebGPU on SwiftShader in headless ` +
      'Chromium, recorded by apps/demo/e2e/record-frame-trace.ts (served by vite preview on 127.0.0.1).',
    browser: browser.version(),
    scene,
    recorded: new Date().toISOString(),
    deltasMs,
  };
  writeFileSync(out, `${JSON.stringify(fixture, null, 0).replace(/,"/g, ',\n"')}\n`);
  console.log(`wrote ${deltasMs.length} deltas to ${out.pathname}`);
} finally {
  await browser.close();
  server.httpServer.close();
}

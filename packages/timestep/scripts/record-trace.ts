// Re-records test/fixtures/chromium-raf-trace.json: requestAnimationFrame deltas from headless
// Chromium drawing a small canvas animation served from localhost.
//
//   npx tsx scripts/record-trace.ts [frames]
//
// Uses the system Chromium (/usr/bin/chromium) through playwright-core with a fresh profile;
// nothing is downloaded. The page draws a few hundred moving squares per frame with a little
// uneven CPU work, so the trace shows what a real page's frame times look like.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const FRAMES = Number(process.argv[2] ?? 600);
const OUT = new URL('../test/fixtures/chromium-raf-trace.json', import.meta.url);

const PAGE = `<!doctype html><meta charset="utf-8"><title>rAF trace</title>
<canvas id="c" width="640" height="360"></canvas>
<script>
const ctx = document.getElementById('c').getContext('2d');
const stamps = [];
let seed = 7;
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647; }
function frame(t) {
  stamps.push(t);
  ctx.fillStyle = '#102030';
  ctx.fillRect(0, 0, 640, 360);
  for (let i = 0; i < 400; i++) {
    ctx.fillStyle = 'hsl(' + (i * 7) % 360 + ',70%,60%)';
    ctx.fillRect((i * 37 + t * 0.1) % 640, (i * 53 + t * 0.05) % 360, 8, 8);
  }
  // Uneven work, like a game whose frames are not all alike.
  const busyUntil = performance.now() + rnd() * 4;
  while (performance.now() < busyUntil) {}
  if (stamps.length <= ${FRAMES}) requestAnimationFrame(frame);
  else window.done = stamps;
}
requestAnimationFrame(frame);
</script>`;

async function main(): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const profile = mkdtempSync(join(tmpdir(), 'timestep-trace-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => 'done' in window, undefined, { timeout: 120_000, polling: 250 });
    const stamps = await page.evaluate(() => (window as unknown as { done: number[] }).done);
    const browser = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    const deltasMs: number[] = [];
    for (let i = 1; i < stamps.length; i++) deltasMs.push(Math.round((stamps[i]! - stamps[i - 1]!) * 1000) / 1000);
    const fixture = {
      note:
        'requestAnimationFrame timestamp deltas (ms) from headless Chromium drawing 400 canvas squares ' +
        'plus 0-4 ms of random busy work per frame; served from 127.0.0.1 by scripts/record-trace.ts ' +
        '(flags --headless --no-sandbox --disable-gpu --disable-background-networking ' +
        '--disable-component-update --disable-sync --no-first-run, fresh profile).',
      browser,
      recorded: new Date().toISOString(),
      deltasMs,
    };
    writeFileSync(OUT, `${JSON.stringify(fixture, null, 0).replace(/,"/g, ',\n"')}\n`);
    console.log(`wrote ${deltasMs.length} deltas to ${OUT.pathname}`);
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();

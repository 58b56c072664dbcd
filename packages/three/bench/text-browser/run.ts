// 10,000 labels of DejaVu Sans: @cuttle/three's TextLabels (WebGPURenderer) against
// troika-three-text (WebGLRenderer; one Text per label, and its BatchedText), in Debian's
// headless Chromium (troika needs a DOM: it draws its fields into a canvas and typesets in
// Workers). Same strings for both, fresh strings each timed round, per-label glyph counts
// checked equal before anything is timed, ours and troika alternated in one page.
//   pnpm exec tsx --conditions=@cuttle/source packages/three/bench/text-browser/run.ts [rounds]
// Prints one table; writes /tmp/text-side-by-side.png (ours left, troika right).
import { createServer } from 'node:http';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const TTF = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', new URL('../../../../apps/engine/sample/fonts/DejaVuSans.ttf', import.meta.url).pathname].find((p) => existsSync(p));
if (!TTF) throw new Error('DejaVu Sans is missing: install fonts-dejavu-core.');
const ttf = readFileSync(TTF);
const ROUNDS = Number(process.argv[2] ?? 3);
const here = new URL('.', import.meta.url).pathname;

const bundle = await build({
  entryPoints: [`${here}page.ts`], bundle: true, format: 'iife', write: false, platform: 'browser', conditions: ['@cuttle/source'], logLevel: 'warning', loader: { '.wgsl': 'text' },
  plugins: [{ name: 'raw', setup(b) { b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: new URL(a.path.slice(0, -4), `file://${a.resolveDir}/`).pathname, namespace: 'raw' })); b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({ contents: readFileSync(a.path, 'utf8'), loader: 'text' })); } }],
});
const script = bundle.outputFiles[0]!.text;
const html = `<!doctype html><html><body style="margin:0;background:#222;font:14px sans-serif;color:#ddd">
<div id="pair" style="display:flex;gap:8px;padding:8px;width:max-content"><div><div>ours: @cuttle/three TextLabels (WebGPURenderer, 1 draw)</div><canvas id="ours" width="640" height="360"></canvas></div>
<div><div>troika-three-text Text (WebGLRenderer, 1 draw per label)</div><canvas id="troika" width="640" height="360"></canvas></div></div>
<script src="/page.js"></script></body></html>`;
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  else if (path === '/DejaVuSans.ttf') res.writeHead(200, { 'content-type': 'font/ttf' }).end(ttf);
  else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

const browser = await chromium.launch({
  executablePath: process.env.CUTTLE_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1320, height: 420 } });
  const logs: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') logs.push(m.text()); });
  page.on('pageerror', (e) => { logs.push(`pageerror: ${e.message}`); });
  await page.goto(`http://127.0.0.1:${port}/`);
  const cdp = await page.context().newCDPSession(page);
  const heap = async (): Promise<number> => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    // The V8 heap plus ArrayBuffer backing stores (typed arrays live outside the V8 heap).
    const usage = await cdp.send('Runtime.getHeapUsage') as { usedSize: number; backingStorageSize?: number };
    return usage.usedSize + (usage.backingStorageSize ?? Number.NaN);
  };
  const backends = await page.evaluate(async (bytes) => window.textBench.init(bytes, `${location.origin}/DejaVuSans.ttf`), Array.from(ttf));
  const version = browser.version();

  type Kind = 'ours' | 'troika' | 'batched';
  const buildOnce = (kind: Kind, seed: number, cold: boolean): Promise<{ ms: number; glyphs: number; perLabel: number[] }> =>
    kind === 'ours' ? page.evaluate(([s, c]) => window.textBench.ours(s, c), [seed, cold] as const) : page.evaluate(([s, c, b]) => window.textBench.troika(s, c, b), [seed, cold, kind === 'batched'] as const);

  // Check: same strings give the same glyphs per label (troika skips spaces as we do).
  const check = await Promise.all([buildOnce('ours', 1, false)]).then(async ([o]) => [o, await buildOnce('troika', 1, false), await buildOnce('batched', 1, false)] as const);
  for (const other of [check[1], check[2]]) {
    const bad = check[0].perLabel.findIndex((n, i) => n !== other.perLabel[i]);
    if (bad >= 0) throw new Error(`label ${bad}: ours has ${check[0].perLabel[bad]} glyphs, troika ${other.perLabel[bad]}`);
  }
  console.error(`checked: ${check[0].glyphs} glyphs in 10,000 labels, the same per label both ways`);

  // Draw calls and memory first, while troika's atlas holds one font (cold rounds add fonts),
  // each after a fresh warm build kept alive.
  const memory: Record<Kind, { drawCalls: number; gpuBytes: number; heap: number }> = {} as never;
  for (const kind of ['ours', 'troika', 'batched'] as const) {
    await page.evaluate(() => { window.textBench.release(); });
    const before = await heap();
    await buildOnce(kind, 900, false);
    const after = await heap();
    const drawn = await page.evaluate((k) => (k === 'ours' ? window.textBench.drawOurs() : window.textBench.drawTroika(k === 'batched')), kind);
    memory[kind] = { drawCalls: drawn.drawCalls, gpuBytes: drawn.gpuBytes, heap: after - before };
  }
  const times: Record<string, number[]> = {};
  const push = (key: string, ms: number): void => { (times[key] ??= []).push(ms); };
  let seed = 100;
  for (let round = 0; round < ROUNDS; round++) {
    for (const cold of [false, true]) {
      // The same fresh strings for each contender in this round.
      seed++;
      for (const kind of ['ours', 'troika', 'batched'] as const) {
        const r = await buildOnce(kind, seed, cold);
        push(`${kind}-${cold ? 'cold' : 'warm'}`, r.ms);
        console.error(`round ${round} ${kind} ${cold ? 'cold' : 'warm'}: ${r.ms.toFixed(0)} ms`);
      }
    }
  }
  await page.evaluate(() => { window.textBench.release(); });
  await page.evaluate(() => window.textBench.sideBySide());
  writeFileSync('/tmp/text-side-by-side.png', await page.locator('#pair').screenshot());
  const onWebGpu = await page.evaluate(() => window.textBench.troikaOnWebGpu());

  const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const ms = (k: string): string => `${median(times[k]!).toFixed(0)} ms`;
  const ratio = (ours: number, peer: number): string => `${(peer / ours).toFixed(1)}x`;
  const mb = (b: number): string => `${(b / 2 ** 20).toFixed(2)} MiB`;
  const rows: string[][] = [
    ['build 10,000 labels, font ready (strings to drawable)', ms('ours-warm'), `Text: ${ms('troika-warm')}; BatchedText: ${ms('batched-warm')}`, `${ratio(median(times['ours-warm']!), median(times['troika-warm']!))} / ${ratio(median(times['ours-warm']!), median(times['batched-warm']!))}`],
    ['build 10,000 labels, from the TTF (font + fields + labels)', ms('ours-cold'), `Text: ${ms('troika-cold')}; BatchedText: ${ms('batched-cold')}`, `${ratio(median(times['ours-cold']!), median(times['troika-cold']!))} / ${ratio(median(times['ours-cold']!), median(times['batched-cold']!))}`],
    ['draw calls', String(memory.ours.drawCalls), `Text: ${memory.troika.drawCalls}; BatchedText: ${memory.batched.drawCalls}`, `${ratio(memory.ours.drawCalls, memory.troika.drawCalls)} / ${ratio(memory.ours.drawCalls, memory.batched.drawCalls)}`],
    ['GPU memory (buffers + atlas)', mb(memory.ours.gpuBytes), `Text: ${mb(memory.troika.gpuBytes)}; BatchedText: ${mb(memory.batched.gpuBytes)}`, `${ratio(memory.ours.gpuBytes, memory.troika.gpuBytes)} / ${ratio(memory.ours.gpuBytes, memory.batched.gpuBytes)}`],
    ['JS heap held, with typed-array stores (main thread)', mb(memory.ours.heap), `Text: ${mb(memory.troika.heap)}; BatchedText: ${mb(memory.batched.heap)}`, `${ratio(memory.ours.heap, memory.troika.heap)} / ${ratio(memory.ours.heap, memory.batched.heap)}`],
  ];
  console.log('| case | ours | troika-three-text 0.53.0 | ratio (peer / ours, >1 is better) |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`\nmachine: ${cpus()[0]?.model.trim() ?? 'CPU'} x ${cpus().length} cores, Chromium ${version} headless, SwiftShader (${backends}); ${ROUNDS} rounds, medians; ${check[0].glyphs} glyphs`);
  console.log(`troika Text in WebGPURenderer: ${onWebGpu}`);
  if (logs.length) console.log(`page messages (${logs.length}): ${logs.slice(0, 5).join(' | ').slice(0, 800)}`);
  writeFileSync('/tmp/text-bench.json', JSON.stringify({ times, memory, backends, version, onWebGpu }, null, 2));
} finally {
  await browser.close();
  server.close();
}

// The drawing-layer comparison: the same 1,000-node FlowDocument drawn by the package's own view
// (with and without culling) and by @comfyorg/litegraph, in Debian's headless Chromium, while a
// scripted camera pans and zooms; frame times from requestAnimationFrame, bundle sizes from
// esbuild (minified, gzipped). Layers alternate, twice, because the machine is shared.
// Run: pnpm --filter @cuttle/flow-editor bench:drawing   (writes bench/drawing/RESULTS.md)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle, checkBuiltDependencies, launchChromium, PACKAGE_ROOT, serve, writePage } from '../../e2e/harness.ts';
import type { FrameStats, Scenario } from './frame-driver.ts';

checkBuiltDependencies();
const here = import.meta.dirname;
const out = mkdtempSync(join(tmpdir(), 'cuttle-flow-drawing-'));
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const DURATION = Number(process.env.DURATION_MS ?? 4000);

// Sizes: each whole page (model + drawing layer + the graph generator), and each drawing layer
// alone (the model's own packages left out).
const pages = {
  own: await bundle(join(here, 'page-own.ts'), out, 'own'),
  litegraph: await bundle(join(here, 'page-litegraph.ts'), out, 'litegraph'),
};
writeFileSync(join(out, 'own-view-only.ts'), `export * from ${JSON.stringify(join(PACKAGE_ROOT, 'src/view/index.ts'))};\n`);
writeFileSync(join(out, 'litegraph-only.ts'), `export { LGraph, LGraphCanvas, LGraphNode, LiteGraph } from ${JSON.stringify(join(PACKAGE_ROOT, 'node_modules/@comfyorg/litegraph/dist/litegraph.es.js'))};\n`);
writeFileSync(join(out, 'model-only.ts'), `export * from ${JSON.stringify(join(PACKAGE_ROOT, 'src/index.ts'))};\n`);
const alone = {
  own: await bundle(join(out, 'own-view-only.ts'), out, 'own-view-only', ['@cuttle/flow', '@cuttle/tools-merge']),
  litegraph: await bundle(join(out, 'litegraph-only.ts'), out, 'litegraph-only'),
  model: await bundle(join(out, 'model-only.ts'), out, 'model-only'),
};
const litegraphCss = readFileSync(join(PACKAGE_ROOT, 'node_modules/@comfyorg/litegraph/dist/css/litegraph.css')).length;
writePage(out, 'own', 'own view');
writePage(out, 'litegraph', 'litegraph');

const { url, server } = await serve(out);
const browser = await launchChromium();
const version = browser.version();
const layers = [
  { key: 'own (culled)', page: 'own.html' },
  { key: 'own, DOM not culled', page: 'own.html?cull=0' },
  { key: 'litegraph', page: 'litegraph.html' },
] as const;
const scenarios: Scenario[] = ['working', 'overview'];
const results = new Map<string, FrameStats[]>();
const opens = new Map<string, number[]>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? layers : [...layers].reverse();
    for (const layer of order) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${url}/${layer.page}`);
      await page.waitForFunction(() => 'bench' in window, undefined, { timeout: 60_000 });
      if (errors.length > 0) throw new Error(`${layer.key}: ${errors.join('; ')}`);
      opens.set(layer.key, [...(opens.get(layer.key) ?? []), await page.evaluate(() => (window as unknown as { bench: { openMs: number } }).bench.openMs)]);
      for (const scenario of scenarios) {
        const stats = await page.evaluate(([s, d]) => (window as unknown as { bench: { run: (s: string, d: number) => Promise<FrameStats> } }).bench.run(s, d), [scenario, DURATION] as const);
        const key = `${layer.key}|${scenario}`;
        results.set(key, [...(results.get(key) ?? []), stats]);
        console.log(`round ${round + 1} ${layer.key.padEnd(19)} ${scenario.padEnd(8)} mean ${stats.meanMs.toFixed(1)} ms  p95 ${stats.p95Ms.toFixed(1)} ms  ${stats.fps.toFixed(1)} fps  (${stats.frames} frames, ${stats.slow} over 33 ms${stats.onScreen === undefined ? '' : `, ${stats.onScreen.toFixed(0)} nodes on screen`})`);
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}

const onScreen = (scenario: Scenario): string => (results.get(`own (culled)|${scenario}`) ?? []).map((s) => (s.onScreen ?? 0).toFixed(0)).join(' / ');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const cell = (runs: FrameStats[] | undefined, pick: (s: FrameStats) => number, digits = 1): string => (runs ?? []).map((s) => pick(s).toFixed(digits)).join(' / ');
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), shared; Chromium ${version} headless, 1280x800; ${new Date().toISOString().slice(0, 10)}`;
const lines = [
  '# Drawing layers on the 1,000-node graph',
  '',
  `Machine: ${machine}. Each cell: round 1 / round 2 (layers alternate). ${DURATION / 1000} s of scripted pan and zoom per scenario after 0.8 s of warm-up; times between requestAnimationFrame callbacks.`,
  `"working": the camera pans over the full part of the graph at zoom 0.5-1.0 (mean nodes on screen: ${onScreen('working')}); "overview": all 1,000 nodes and 1,080 links on screen, zooming 0.8-1.2x around the fit (zoom about 0.05).`,
  '',
  '| layer | scenario | mean ms/frame | p95 ms/frame | fps | frames over 33 ms |',
  '| --- | --- | --- | --- | --- | --- |',
];
for (const layer of layers) for (const scenario of scenarios) {
  const runs = results.get(`${layer.key}|${scenario}`);
  lines.push(`| ${layer.key} | ${scenario} | ${cell(runs, (s) => s.meanMs)} | ${cell(runs, (s) => s.p95Ms)} | ${cell(runs, (s) => s.fps)} | ${cell(runs, (s) => s.slow, 0)} |`);
}
lines.push(
  '',
  '| bundle (esbuild, minified) | bytes | gzip |',
  '| --- | --- | --- |',
  `| own view alone (src/view + palette, errors, colours; model packages external) | ${kb(alone.own.bytes)} | ${kb(alone.own.gzipBytes)} |`,
  `| @comfyorg/litegraph alone (LGraph, LGraphCanvas, LGraphNode, LiteGraph; + ${kb(litegraphCss)} CSS) | ${kb(alone.litegraph.bytes)} | ${kb(alone.litegraph.gzipBytes)} |`,
  `| the model alone (@cuttle/flow-editor with @cuttle/flow, tools-merge) | ${kb(alone.model.bytes)} | ${kb(alone.model.gzipBytes)} |`,
  `| benchmark page, own view | ${kb(pages.own.bytes)} | ${kb(pages.own.gzipBytes)} |`,
  `| benchmark page, litegraph | ${kb(pages.litegraph.bytes)} | ${kb(pages.litegraph.gzipBytes)} |`,
  '',
  `Opening (parse, lay out, first draw) in the page: own ${(opens.get('own (culled)') ?? []).map((x) => x.toFixed(0)).join(' / ')} ms, litegraph ${(opens.get('litegraph') ?? []).map((x) => x.toFixed(0)).join(' / ')} ms.`,
  '',
);
writeFileSync(join(here, 'RESULTS.md'), lines.join('\n'));
console.log(`\n${lines.join('\n')}`);

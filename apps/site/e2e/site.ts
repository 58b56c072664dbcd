// The static site's browser test: serve apps/site/dist with a plain node:http server (no
// special headers), fetch every page and internal link, check the landing page, then open the
// demo in headless Chromium with WebGPU: every scene draws, the jobs scene is cross-origin
// isolated through the service worker, and a browser without WebGPU gets the message.
// Prints "N passed, N failed"; writes .test-results/site.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumPath, launchWebGpuChromium } from '../../demo/e2e/browser.ts';
import { Checks } from './checks.ts';
import { crawlSite } from './crawl.ts';
import { checkDemo, checkNoWebGpu } from './demo-checks.ts';
import { serveStatic } from './static-server.ts';

const siteDir = fileURLToPath(new URL('../dist/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
if (!existsSync(join(siteDir, 'index.html'))) {
  console.error(`site test: ${siteDir}index.html is missing: run \`pnpm site\` first (or \`pnpm test:site\`).`);
  process.exit(1);
}
const started = performance.now();
const checks = new Checks();
const manifest = JSON.parse(readFileSync(join(siteDir, 'site.json'), 'utf8')) as { scenes: { id: string; package: string }[] };
const sceneIds = manifest.scenes.map((scene) => scene.id);

/** Publishable packages, read here independently of the build: packages/* without "private". */
const publishable = readdirSync(join(repoRoot, 'packages'))
  .filter((slug) => existsSync(join(repoRoot, 'packages', slug, 'package.json')))
  .map((slug) => ({ slug, ...(JSON.parse(readFileSync(join(repoRoot, 'packages', slug, 'package.json'), 'utf8')) as { name: string; private?: boolean }) }))
  .filter((pkg) => pkg.private !== true);

const server = await serveStatic(siteDir, Number(process.env.CUTTLE_SITE_PORT ?? 5193));
try {
  const crawl = await crawlSite(siteDir, server.url, sceneIds);
  checks.check('every HTML page loads with status 200', crawl.badPages.length === 0 && crawl.pages > 0, crawl.badPages.slice(0, 10).join(', ') || `${crawl.pages} pages`);
  checks.check('every internal link resolves', crawl.brokenLinks.length === 0, crawl.brokenLinks.length ? `${crawl.brokenLinks.length} broken: ${crawl.brokenLinks.slice(0, 10).join(' | ')}` : `${crawl.links} links`);

  const browser = await launchWebGpuChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`); });
    page.on('response', (response) => { if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`); });
    await page.goto(server.url);
    const listed = await page.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('table.packages a')].map((a) => ({ text: a.textContent, href: a.getAttribute('href') ?? '' })));
    const missing = publishable.filter((pkg) => !listed.some((link) => link.text === pkg.name && link.href === `packages/${pkg.slug}/index.html`));
    checks.check('landing page lists every publishable package', missing.length === 0, missing.length ? `missing: ${missing.map((pkg) => pkg.name).join(', ')}` : `${publishable.length} packages`);
    for (const pkg of publishable) {
      const response = await page.goto(`${server.url}packages/${pkg.slug}/index.html`);
      const title = await page.locator('article.readme h1').first().textContent().catch(() => null);
      checks.check(`${pkg.name} page shows its README`, response?.status() === 200 && title === pkg.name, `status ${response?.status()}, h1 ${title}`);
      if (existsSync(join(repoRoot, 'packages', pkg.slug, 'BENCHMARKS.md'))) {
        const bench = await page.goto(`${server.url}packages/${pkg.slug}/benchmarks.html`);
        const drawn = await page.evaluate(() => ({ tables: document.querySelectorAll('article table').length, charts: document.querySelectorAll('svg.chart').length, bars: document.querySelectorAll('svg.chart rect').length }));
        checks.check(`${pkg.name} benchmarks: tables and charts`, bench?.status() === 200 && (drawn.tables === 0 || (drawn.charts > 0 && drawn.bars > 0)), JSON.stringify(drawn));
      }
    }
    checks.check('site pages raise no console errors', errors.length === 0, errors.slice(0, 5).join(' | ') || 'none');
    await checkDemo(page, `${server.url}demo/index.html`, sceneIds, checks);
  } finally {
    await browser.close();
  }

  // Chromium without WebGPU: no flags enabling it, and Blink's WebGPU feature switched off.
  const plain = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-blink-features=WebGPU', '--disable-features=WebGPU'] });
  try {
    await checkNoWebGpu(await plain.newPage(), `${server.url}demo/index.html`, 'Chromium without WebGPU flags', 'WebGPU', checks);
    // navigator.gpu itself missing (older browsers): removed before any page script runs.
    const context = await plain.newContext();
    await context.addInitScript(() => { Reflect.deleteProperty(Navigator.prototype, 'gpu'); });
    await checkNoWebGpu(await context.newPage(), `${server.url}demo/index.html`, 'navigator.gpu undefined', 'navigator.gpu does not exist', checks);
  } finally {
    await plain.close();
  }
} finally {
  server.close();
}
console.log(`site test took ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(checks.report('site', 'site.json'));

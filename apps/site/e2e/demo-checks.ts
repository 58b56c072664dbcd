// The site's demo in headless Chromium with WebGPU (the demo smoke test's launcher and frame
// probe): cross-origin isolation from the service worker, every scene drawing, each scene's
// links to its package page, and the jobs scene on worker threads.
import type { Page } from 'playwright-core';
import type { FrameProbe } from '../../demo/src/frame-probe.ts';
import type { Checks } from './checks.ts';

declare global {
  interface Window {
    __cuttle?: FrameProbe;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const near = (a: readonly number[], b: readonly number[], tolerance: number): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

/** Polls `probe` in the page until it is true, across the service worker's reload. */
async function pollAcrossReloads(page: Page, probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await page.evaluate(probe).catch(() => false);
    if (ok) return true;
    await sleep(250);
  }
  return false;
}

/** Each scene-link href on the page answers 200 (fetched by node: the links are made at run time). */
async function sceneLinksResolve(page: Page): Promise<{ ok: boolean; detail: string }> {
  const hrefs = await page.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('#scene-links a')].map((a) => a.href));
  const results = await Promise.all(hrefs.map(async (href) => {
    const response = await fetch(href);
    const html = await response.text();
    const fragment = new URL(href).hash.slice(1);
    return { href, ok: response.status === 200 && (!fragment || html.includes(`id="${fragment}"`)) };
  }));
  return { ok: hrefs.length >= 2 && results.every((result) => result.ok), detail: results.map((r) => `${r.ok ? '' : 'BROKEN '}${new URL(r.href).pathname}${new URL(r.href).hash}`).join(', ') || 'no links' };
}

export async function checkDemo(page: Page, demoUrl: string, sceneIds: readonly string[], checks: Checks): Promise<void> {
  const response = await page.goto(`${demoUrl}#hello`);
  const headers = response?.headers() ?? {};
  checks.check('demo served without COOP/COEP headers', response?.status() === 200 && !headers['cross-origin-opener-policy'] && !headers['cross-origin-embedder-policy'], JSON.stringify({ status: response?.status(), coop: headers['cross-origin-opener-policy'] ?? null, coep: headers['cross-origin-embedder-policy'] ?? null }));
  const isolated = await pollAcrossReloads(page, () => crossOriginIsolated && typeof SharedArrayBuffer === 'function', 30_000);
  checks.check('demo cross-origin isolated after the service worker reload', isolated, `crossOriginIsolated: ${isolated}`);
  const started = await pollAcrossReloads(page, () => (window.__cuttle?.framesDrawn ?? 0) >= 3 || document.querySelector('.no-webgpu') !== null, 60_000);
  const missing = await page.evaluate(() => document.querySelector('.no-webgpu')?.textContent ?? null);
  checks.check('demo: WebGPU started', started && missing === null, missing ?? `started: ${started}`);
  if (!started || missing !== null) return;

  const registered = await page.evaluate(() => [...window.__cuttle!.scenes]);
  checks.check('demo registers every scene the site lists', registered.length === sceneIds.length && sceneIds.every((id) => registered.includes(id)), `registry: ${registered.join(', ')}`);
  const [center] = await page.evaluate(() => window.__cuttle!.sample([[0.5, 0.5]]));
  checks.check('demo: hello triangle drawn at the centre', !!center && near(center.rgba, [255, 128, 0, 255], 3), JSON.stringify(center));

  for (const id of registered) {
    if (id !== 'hello') {
      await page.evaluate((sceneId) => { location.hash = sceneId; }, id);
      await page.waitForFunction((sceneId) => window.__cuttle!.scene === sceneId, id, { timeout: 30_000 }).catch(() => undefined);
    }
    const before = await page.evaluate(() => window.__cuttle!.framesDrawn);
    // SwiftShader on a busy 2-core machine can take seconds a frame in the heavy scenes.
    await page.waitForFunction((start) => window.__cuttle!.framesDrawn >= start + 2, before, { timeout: 60_000 }).catch(() => undefined);
    const state = await page.evaluate(() => ({ scene: window.__cuttle!.scene, frames: window.__cuttle!.framesDrawn, error: window.__cuttle!.error ?? null }));
    checks.check(`demo scene "${id}" opens and draws`, state.scene === id && state.frames >= before + 2 && state.error === null, JSON.stringify({ ...state, framesBefore: before }));
    const links = await sceneLinksResolve(page);
    checks.check(`demo scene "${id}" links to its package page and source`, links.ok, links.detail);
    if (id === 'jobs') {
      const jobs = await page.evaluate(() => ({ isolated: crossOriginIsolated, sab: typeof SharedArrayBuffer === 'function', panel: document.querySelector('#panel')?.textContent ?? '' }));
      checks.check('jobs scene: cross-origin isolated, Dispatch on worker threads', jobs.isolated && jobs.sab && jobs.panel.includes('workers + the main thread'), JSON.stringify({ ...jobs, panel: jobs.panel.slice(0, 160) }));
    }
  }
}

/**
 * A browser without WebGPU: the demo says what is missing instead of a blank canvas. `case`
 * names the browser; `expect` is a phrase of the reason the page must give.
 */
export async function checkNoWebGpu(page: Page, demoUrl: string, label: string, expect: string, checks: Checks): Promise<void> {
  await page.goto(`${demoUrl}#hello`);
  const shown = await page.locator('.no-webgpu').waitFor({ timeout: 30_000 }).then(() => true, () => false);
  const hasGpu = await page.evaluate(() => 'gpu' in navigator).catch(() => null);
  const text = shown ? ((await page.locator('.no-webgpu').textContent()) ?? '') : '';
  const home = shown ? await page.locator('.no-webgpu a').getAttribute('href') : null;
  checks.check(`no WebGPU (${label}): the demo says what is missing`, shown && text.includes('This demo needs WebGPU') && text.includes(expect) && home !== null, JSON.stringify({ navigatorGpu: hasGpu, text: text.slice(0, 140), backLink: home }));
}

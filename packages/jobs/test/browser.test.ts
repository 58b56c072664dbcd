// The browser path: Web Workers from createWorker, on a page served with COOP/COEP.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';

let server: Server;
let origin: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-jobs-browser-'));
  await build({
    entryPoints: {
      'browser-main': join(import.meta.dirname, 'fixtures/browser-main.ts'),
      'browser-worker': join(import.meta.dirname, 'fixtures/browser-worker.ts'),
    },
    outdir: dir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    conditions: ['@cuttle/source'],
    logLevel: 'error',
  });
  const page = '<!doctype html><script type="module" src="./browser-main.js"></script>';
  server = createServer((request, response) => {
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    const name = (request.url ?? '/').split('?')[0]!.slice(1);
    if (name === '' || name === 'index.html') {
      response.writeHead(200, { ...headers, 'Content-Type': 'text/html' });
      response.end(page);
      return;
    }
    try {
      const body = readFileSync(join(dir, name.replace(/[^\w.-]/g, '')));
      response.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
      response.end(body);
    } catch {
      response.writeHead(404, headers);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no server address');
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test('Web Workers: dispatch, waitAsync, failures; wait() refuses to block the main thread', async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'result' in window);
    const result = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
    expect(result).toEqual({ isolated: true, last: 9999 * 9999, blockingWait: 'JobsError', failure: 'failAt@42:TypeError' });
  } finally {
    await browser.close();
  }
});

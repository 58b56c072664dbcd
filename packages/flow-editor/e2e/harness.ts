// What the browser test and the drawing benchmark share: bundle a page with esbuild (workspace
// packages from their built dist, as users get them), serve a folder on a free local port, and
// launch Debian's headless Chromium (never a downloaded browser: /usr/bin/chromium or CUTTLE_CHROMIUM).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';

export const PACKAGE_ROOT = join(import.meta.dirname, '..');

export interface Bundle {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Bundles `entry` for the browser, minified, into `outdir/name.js`; returns its size and gzipped size. */
export async function bundle(entry: string, outdir: string, name: string, external: string[] = []): Promise<Bundle> {
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, `${name}.js`);
  await build({ entryPoints: [entry], outfile: file, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', external, logLevel: 'error', legalComments: 'none' });
  const code = readFileSync(file);
  return { file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** Writes `outdir/name.html`: a full-window #app element and the page's script. */
export function writePage(outdir: string, name: string, title: string): void {
  writeFileSync(join(outdir, `${name}.html`), `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>html,body{margin:0;height:100%;background:#111}#app{position:absolute;inset:0}</style></head><body><div id="app"></div><script type="module" src="./${name}.js"></script></body></html>`);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** A static server for `dir` on 127.0.0.1 and a free port. */
export async function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}

export function chromiumPath(): string {
  const path = process.env.CUTTLE_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`No Chromium at ${path}: apt-get install chromium (bash tooling/scripts/setup.sh does), or set CUTTLE_CHROMIUM.`);
  return path;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
  });
}

/** The workspace packages the pages import must be built (their dist is what gets bundled). */
export function checkBuiltDependencies(): void {
  for (const name of ['flow', 'tools-merge']) {
    if (!existsSync(join(PACKAGE_ROOT, '..', name, 'dist', 'index.js'))) throw new Error(`packages/${name}/dist is missing: run pnpm --filter @cuttle/${name} build first.`);
  }
}

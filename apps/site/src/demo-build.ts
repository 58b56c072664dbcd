// Builds apps/demo into the site's demo/ with a relative base (the site works from any
// sub-path), the scene links pointing at the package pages, and coi-serviceworker loaded first:
// static hosts send no COOP/COEP headers, so a service worker adds them and reloads once, which
// makes the page cross-origin isolated (SharedArrayBuffer for the jobs scene). `pnpm dev` of
// the demo is untouched: its Vite server sends the headers itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'vite';
import { demoRoot, siteDir } from './paths.ts';

export const COI_SCRIPT = 'coi-serviceworker.min.js';

function isolationPlugin(): Plugin {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve(`coi-serviceworker/${COI_SCRIPT}`), 'utf8');
  return {
    name: 'cuttle-site-isolation',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: COI_SCRIPT, source });
    },
    transformIndexHtml: {
      order: 'post',
      // A classic script, first in <head>: it must run before the module scripts it may reload.
      handler: () => [{ tag: 'script', attrs: { src: `./${COI_SCRIPT}` }, injectTo: 'head-prepend' }],
    },
  };
}

/** Builds the demo into `${siteDir}demo`; `packagesBase` is the package pages' folder seen from it. */
export async function buildDemo(packagesBase: string): Promise<void> {
  await build({
    root: demoRoot,
    configFile: join(demoRoot, 'vite.config.ts'),
    base: './',
    logLevel: 'warn',
    define: { 'import.meta.env.VITE_CUTTLE_SITE_PACKAGES': JSON.stringify(packagesBase) },
    plugins: [isolationPlugin()],
    build: { outDir: join(siteDir, 'demo'), emptyOutDir: true },
  });
}

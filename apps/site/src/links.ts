// Where a repository path lives on the site: READMEs' relative links point into the repo
// (../flow, ./BENCHMARKS.md#x, ./docs/api/index.md, ../../apps/engine/BENCHMARKS.md); each is
// rewritten to the site page or copied asset that stands for it, or dropped to plain text.
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { relativeUrl } from './html.ts';
import { repoRoot } from './paths.ts';
import type { SitePackage } from './packages.ts';

const ASSET = /\.(png|svg|jpe?g|gif|webp)$/i;

export function packagePage(slug: string): string {
  return `packages/${slug}/index.html`;
}
export function benchmarksPage(slug: string): string {
  return `packages/${slug}/benchmarks.html`;
}
export function apiPage(slug: string, markdownFile: string): string {
  return `packages/${slug}/api/${markdownFile.replace(/\.md$/, '.html')}`;
}
export const demoPage = 'demo/index.html';

export class SiteLinks {
  readonly #pages = new Map<string, string>();
  /** Repository path → site path of every asset a page links to: build copies these. */
  readonly assets = new Map<string, string>();

  constructor(packages: readonly SitePackage[]) {
    this.#pages.set('README.md', 'index.html');
    this.#pages.set('apps/demo', demoPage);
    for (const { slug, benchmarks, apiPages } of packages) {
      this.#pages.set(`packages/${slug}`, packagePage(slug));
      this.#pages.set(`packages/${slug}/README.md`, packagePage(slug));
      if (benchmarks) this.#pages.set(`packages/${slug}/BENCHMARKS.md`, benchmarksPage(slug));
      if (apiPages.includes('index.md')) this.#pages.set(`packages/${slug}/docs/api`, apiPage(slug, 'index.md'));
      for (const file of apiPages) this.#pages.set(`packages/${slug}/docs/api/${file}`, apiPage(slug, file));
    }
  }

  /**
   * The href for `href` written in repository file `fromRepoFile` (posix, from the repo root)
   * and shown on site page `fromSitePage`; undefined when the site has nothing for it.
   * Absolute URLs and in-page anchors pass through.
   */
  resolve(fromRepoFile: string, fromSitePage: string, href: string): string | undefined {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
    if (href.startsWith('/')) return undefined;
    const hashAt = href.indexOf('#');
    const path = hashAt === -1 ? href : href.slice(0, hashAt);
    const hash = hashAt === -1 ? '' : href.slice(hashAt);
    const target = posix.normalize(posix.join(posix.dirname(fromRepoFile), decodeURIComponent(path))).replace(/\/$/, '');
    if (target.startsWith('..')) return undefined;
    const page = this.#pages.get(target);
    if (page) return relativeUrl(fromSitePage, page) + hash;
    if (ASSET.test(target) && /^packages\/[^/]+\//.test(target) && existsSync(join(repoRoot, target))) {
      this.assets.set(target, target);
      return relativeUrl(fromSitePage, target);
    }
    return undefined;
  }
}

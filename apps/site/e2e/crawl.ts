// Fetches every HTML page of the built site and every internal href/src on it: each must
// answer 200, and a #fragment on a site page must name an element id there (on the demo page,
// a scene id).
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface CrawlResult {
  pages: number;
  links: number;
  badPages: string[];
  brokenLinks: string[];
}

function htmlFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(root, path);
    return entry.name.endsWith('.html') ? [relative(root, path)] : [];
  });
}

const unescape = (text: string): string => text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

export async function crawlSite(root: string, base: string, demoSceneIds: readonly string[]): Promise<CrawlResult> {
  const pages = htmlFiles(root);
  const badPages: string[] = [];
  const ids = new Map<string, Set<string>>();
  const references: { from: string; url: URL }[] = [];
  await inBatches(pages, 32, async (page) => {
    const url = new URL(page, base);
    const response = await fetch(url);
    if (response.status !== 200) {
      badPages.push(`${page}: ${response.status}`);
      return;
    }
    const html = await response.text();
    ids.set(url.pathname, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => unescape(match[1]!))));
    for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const target = new URL(unescape(match[1]!), url);
      if (target.origin === url.origin) references.push({ from: page, url: target });
    }
  });
  ids.set(new URL('demo/index.html', base).pathname, new Set(demoSceneIds));
  const status = new Map<string, number>();
  const unique = [...new Set(references.map(({ url }) => url.pathname))].filter((path) => !ids.has(path));
  await inBatches(unique, 32, async (path) => {
    const response = await fetch(new URL(path, base));
    await response.arrayBuffer();
    status.set(path, response.status);
  });
  const brokenLinks: string[] = [];
  for (const { from, url } of references) {
    const code = ids.has(url.pathname) ? 200 : status.get(url.pathname);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (code !== 200) brokenLinks.push(`${from} → ${url.pathname} (${code ?? 'not fetched'})`);
    else if (fragment && ids.has(url.pathname) && !ids.get(url.pathname)!.has(fragment)) brokenLinks.push(`${from} → ${url.pathname}#${fragment} (no such id)`);
  }
  return { pages: pages.length, links: references.length, badPages, brokenLinks: [...new Set(brokenLinks)] };
}

// packages/<slug>/index.html: what it is, where its API, benchmarks, demo scenes, seed posts
// and source are, then its README.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { escapeHtml, relativeUrl } from '../html.ts';
import { renderPage } from '../layout.ts';
import { apiPage, benchmarksPage, demoPage, packagePage, type SiteLinks } from '../links.ts';
import { renderMarkdown } from '../markdown.ts';
import type { SitePackage } from '../packages.ts';
import { repoRoot } from '../paths.ts';
import type { SiteScene } from '../scenes.ts';
import type { SeedPost } from '../seed-posts.ts';

/** The id of the package page's source section: the demo's "source" links land there. */
export const SOURCE_ANCHOR = 'source-files';

function seedList(posts: readonly SeedPost[]): string {
  if (posts.length === 0) return '<p>No seed post: this package is Cuttle’s own (it composes or serves the others).</p>';
  const items = posts.map((post) => {
    const title = post.url ? `<a href="${escapeHtml(post.url)}">“${escapeHtml(post.title)}”</a>` : `“${escapeHtml(post.title)}”`;
    return `<li>${title}, ${escapeHtml(post.blog)}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function sourceSection(pkg: SitePackage, scenes: readonly SiteScene[]): string {
  const paths = [`packages/${pkg.slug}/src/`, ...scenes.flatMap((scene) => scene.files)];
  const repo = pkg.repository ? `<p>Repository (from package.json): <a href="${escapeHtml(pkg.repository)}">${escapeHtml(pkg.repository)}</a>; the paths below are from its root.</p>` : '';
  return `<section id="${SOURCE_ANCHOR}"><h2>Source</h2>${repo}<ul class="paths">${paths.map((path) => `<li><code>${escapeHtml(path)}</code></li>`).join('')}</ul></section>`;
}

export function packagePageHtml(pkg: SitePackage, scenes: readonly SiteScene[], seeds: readonly SeedPost[], links: SiteLinks): string {
  const path = packagePage(pkg.slug);
  const to = (target: string): string => escapeHtml(relativeUrl(path, target));
  const own = scenes.filter((scene) => scene.package === pkg.name);
  const facts = [
    pkg.apiPages.includes('index.md') ? `<li><a href="${to(apiPage(pkg.slug, 'index.md'))}">API reference</a></li>` : '',
    pkg.benchmarks ? `<li><a href="${to(benchmarksPage(pkg.slug))}">Benchmarks</a> (tables and charts)</li>` : '',
    ...own.map((scene) => `<li>Demo: <a href="${to(demoPage)}#${escapeHtml(scene.id)}">${escapeHtml(scene.title)}</a></li>`),
    `<li><a href="#${SOURCE_ANCHOR}">Source</a></li>`,
  ].filter(Boolean);
  const readme = renderMarkdown(links, { repoFile: relative(repoRoot, pkg.readme), sitePage: path, text: readFileSync(pkg.readme, 'utf8') });
  const body = `<aside class="facts">
<p class="description">${escapeHtml(pkg.description)}</p>
<pre><code>npm install ${escapeHtml(pkg.name)}</code></pre>
<ul>${facts.join('')}</ul>
<h2 id="seed-post">Seed post</h2>
${seedList(seeds)}
</aside>
<article class="readme">
${readme}
</article>
${sourceSection(pkg, own)}`;
  return renderPage({ path, title: `${pkg.name}: Cuttle`, body });
}

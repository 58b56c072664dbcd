// packages/<slug>/benchmarks.html (tables and their charts) and packages/<slug>/api/*.html.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { escapeHtml, relativeUrl } from '../html.ts';
import { renderPage } from '../layout.ts';
import { apiPage, benchmarksPage, packagePage, type SiteLinks } from '../links.ts';
import { renderMarkdown } from '../markdown.ts';
import type { SitePackage } from '../packages.ts';
import { repoRoot } from '../paths.ts';
import { chartsBlock } from '../table-charts.ts';

function backLink(path: string, pkg: SitePackage): string {
  return `<p class="crumbs"><a href="${escapeHtml(relativeUrl(path, packagePage(pkg.slug)))}">${escapeHtml(pkg.name)}</a></p>`;
}

export function benchmarksPageHtml(pkg: SitePackage, benchmarks: string, links: SiteLinks): string {
  const path = benchmarksPage(pkg.slug);
  const html = renderMarkdown(links, { repoFile: relative(repoRoot, benchmarks), sitePage: path, text: readFileSync(benchmarks, 'utf8'), afterTable: chartsBlock });
  const note = '<p class="note">Each chart draws one column of the table above it, bars from zero, rows of one unit per chart; arrows in units say which way is better (↓ lower, ↑ higher); ratio charts mark 1x.</p>';
  return renderPage({ path, title: `${pkg.name} benchmarks: Cuttle`, body: `${backLink(path, pkg)}${note}<article>${html}</article>` });
}

/** Every API page of the package as [site path, html]. */
export function apiPagesHtml(pkg: SitePackage, links: SiteLinks): [string, string][] {
  return pkg.apiPages.map((file) => {
    const path = apiPage(pkg.slug, file);
    const source = join(repoRoot, 'packages', pkg.slug, 'docs', 'api', file);
    const text = readFileSync(source, 'utf8');
    const title = /^## (.+)$/m.exec(text)?.[1] ?? file.replace(/\.md$/, '');
    const html = renderMarkdown(links, { repoFile: relative(repoRoot, source), sitePage: path, text });
    return [path, renderPage({ path, title: `${title}: ${pkg.name} API`, body: `${backLink(path, pkg)}<article class="api">${html}</article>` })];
  });
}

// `pnpm site`: builds the whole static site into apps/site/dist. Serve that folder with any
// static file server (no special headers needed).
import { copyFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemo } from './demo-build.ts';
import { SiteLinks, packagePage } from './links.ts';
import { readPackages } from './packages.ts';
import { apiPagesHtml, benchmarksPageHtml } from './pages/docs-pages.ts';
import { landingPage } from './pages/landing.ts';
import { packagePageHtml } from './pages/package-page.ts';
import { repoRoot, siteDir } from './paths.ts';
import { readScenes } from './scenes.ts';
import { readSeedPosts } from './seed-posts.ts';
import { copySiteFile, writeSiteFile, written } from './write.ts';

const started = performance.now();
const packages = readPackages();
const scenes = readScenes();
const seeds = readSeedPosts();
const names = new Set(packages.map((pkg) => pkg.name));
for (const scene of scenes) {
  if (!names.has(scene.package)) throw new Error(`site: demo scene "${scene.id}" shows ${scene.package}, which is not a publishable package under packages/.`);
}

rmSync(siteDir, { recursive: true, force: true });
mkdirSync(siteDir, { recursive: true });
const links = new SiteLinks(packages);
writeSiteFile('index.html', landingPage(packages, scenes));
for (const pkg of packages) {
  writeSiteFile(packagePage(pkg.slug), packagePageHtml(pkg, scenes, seeds.get(pkg.slug) ?? [], links));
  if (pkg.benchmarks) writeSiteFile(`packages/${pkg.slug}/benchmarks.html`, benchmarksPageHtml(pkg, pkg.benchmarks, links));
  for (const [path, html] of apiPagesHtml(pkg, links)) writeSiteFile(path, html);
}
for (const [from, to] of links.assets) copySiteFile(join(repoRoot, from), to);
copyFileSync(new URL('../static/style.css', import.meta.url), join(siteDir, 'style.css'));
// What the site holds, for its browser test.
writeSiteFile('site.json', JSON.stringify({ packages: packages.map(({ name, slug }) => ({ name, slug })), scenes: scenes.map(({ id, package: name }) => ({ id, package: name })) }, null, 2));

await buildDemo('../packages/');
console.log(`site: ${written.pages} pages for ${packages.length} packages, ${written.files} other files, and the demo (${scenes.length} scenes) in ${siteDir} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

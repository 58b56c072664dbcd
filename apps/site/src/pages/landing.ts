// index.html: "which package do I need?", one line per package, and the demo.
import { escapeHtml } from '../html.ts';
import { renderPage } from '../layout.ts';
import { demoPage, packagePage } from '../links.ts';
import type { SitePackage } from '../packages.ts';
import type { SiteScene } from '../scenes.ts';

export function landingPage(packages: readonly SitePackage[], scenes: readonly SiteScene[]): string {
  const rows = packages.map((pkg) => {
    const demos = scenes
      .filter((scene) => scene.package === pkg.name)
      .map((scene) => `<a href="${escapeHtml(`${demoPage}#${scene.id}`)}">${escapeHtml(scene.title)}</a>`);
    return `<tr><th scope="row"><a href="${escapeHtml(packagePage(pkg.slug))}">${escapeHtml(pkg.name)}</a></th><td>${escapeHtml(pkg.description)}</td><td>${demos.join('<br>') || '–'}</td></tr>`;
  });
  const body = `<h1>Cuttle</h1>
<p class="lede">Small, sharp game-engine packages for TypeScript, each usable alone. Most come from a public blog post about a real engine (Wicked Engine, Bitsquid); each page says which.</p>
<p><a class="button" href="${demoPage}">Open the demo</a> every package's scene in one WebGPU page (needs a browser with WebGPU; the page says so if yours has none).</p>
<h2 id="which-package">Which package do I need?</h2>
<table class="packages">
<thead><tr><th>package</th><th>what it is for</th><th>demo scene</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<p>Install any one of them alone: <code>npm install @cuttle/&lt;name&gt;</code>.</p>`;
  return renderPage({ path: 'index.html', title: 'Cuttle: which package do I need?', body });
}

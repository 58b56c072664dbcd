// On the static site (apps/site), each scene links to its package page and its source. The
// site build defines VITE_CUTTLE_SITE_PACKAGES (the package pages' folder, e.g. '../packages/');
// `pnpm dev` and the plain build leave it unset and show no links.
import type { SceneDefinition } from './scene-api.ts';

declare global {
  interface ImportMetaEnv {
    readonly VITE_CUTTLE_SITE_PACKAGES?: string;
  }
}

export function renderSiteLinks(scene: SceneDefinition): void {
  const base = import.meta.env.VITE_CUTTLE_SITE_PACKAGES;
  if (!base) return;
  let slot = document.querySelector<HTMLElement>('#scene-links');
  if (!slot) {
    slot = document.createElement('p');
    slot.id = 'scene-links';
    slot.style.margin = '0';
    document.querySelector('header')?.append(slot);
  }
  const page = `${base}${scene.package.replace(/^@cuttle\//, '')}/index.html`;
  const link = (href: string, text: string): HTMLAnchorElement => Object.assign(document.createElement('a'), { href, textContent: text });
  slot.replaceChildren(link(page, scene.package), ' · ', link(`${page}#source-files`, 'source'), ' · ', link(`${base}../index.html`, 'all packages'));
}

/** On the site, the no-WebGPU message also links back to the package pages (they need no GPU). */
export function renderSiteHomeLink(): void {
  const base = import.meta.env.VITE_CUTTLE_SITE_PACKAGES;
  const box = document.querySelector('.no-webgpu');
  if (!base || !box) return;
  const line = document.createElement('p');
  line.append('The package pages, API reference and benchmarks need no WebGPU: ', Object.assign(document.createElement('a'), { href: `${base}../index.html`, textContent: 'back to the packages' }), '.');
  box.append(line);
}

// Where things are: the repository the site is built from and the folder it is built into.
import { fileURLToPath } from 'node:url';

/** The monorepo root (apps/site/src/../../..). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The built site: serve this folder with any static file server. */
export const siteDir = fileURLToPath(new URL('../dist/', import.meta.url));
/** apps/demo, built into `${siteDir}demo/`. */
export const demoRoot = fileURLToPath(new URL('../../demo/', import.meta.url));
/** The public blog posts the packages come from, beside the repository (shared/reference). */
export const referenceIndex = fileURLToPath(new URL('../../../../shared/reference/INDEX.md', import.meta.url));

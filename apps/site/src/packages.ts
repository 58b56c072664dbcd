// The publishable packages: what the site has a page for.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.ts';

export interface SitePackage {
  /** '@cuttle/ecs' */
  name: string;
  /** 'ecs': the folder under packages/ and under the site's packages/. */
  slug: string;
  description: string;
  /** The repository URL from package.json (without git+ and .git), if it has one. */
  repository?: string;
  /** Absolute paths of its markdown sources; absent when the package has none. */
  readme: string;
  benchmarks?: string;
  /** docs/api/*.md file names (index.md among them). */
  apiPages: string[];
}

interface PackageJson {
  name?: string;
  private?: boolean;
  description?: string;
  repository?: string | { url?: string };
}

function repositoryUrl(field: PackageJson['repository']): string | undefined {
  const url = typeof field === 'string' ? field : field?.url;
  return url?.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Every non-private package under packages/, sorted by name. */
export function readPackages(): SitePackage[] {
  const root = join(repoRoot, 'packages');
  const found: SitePackage[] = [];
  for (const slug of readdirSync(root).sort()) {
    const manifestPath = join(root, slug, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJson;
    if (manifest.private === true || !manifest.name) continue;
    const readme = join(root, slug, 'README.md');
    if (!existsSync(readme)) throw new Error(`${manifest.name} has no README.md: the site's package page is its README.`);
    const benchmarks = join(root, slug, 'BENCHMARKS.md');
    const apiDir = join(root, slug, 'docs', 'api');
    const apiPages = existsSync(apiDir) ? readdirSync(apiDir).filter((file) => file.endsWith('.md')).sort() : [];
    const repository = repositoryUrl(manifest.repository);
    found.push({
      name: manifest.name,
      slug,
      description: manifest.description ?? '',
      readme,
      apiPages,
      ...(existsSync(benchmarks) ? { benchmarks } : {}),
      ...(repository ? { repository } : {}),
    });
  }
  return found;
}

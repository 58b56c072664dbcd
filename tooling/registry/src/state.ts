// What the registry holds: per package, its versions (with their tarballs' integrity) and its
// dist-tags, read from the packument; and `npm view` of one version, as a user would ask.
import { runCommand } from './command.ts';

export interface PackageState {
  versions: Record<string, string>;
  distTags: Record<string, string>;
}

interface Packument {
  'versions'?: Record<string, { dist?: { integrity?: string; shasum?: string } }>;
  'dist-tags'?: Record<string, string>;
}

/** The registry's state of each of `names` (a package it does not have is absent). */
export async function registryState(registry: string, names: string[]): Promise<Map<string, PackageState>> {
  const out = new Map<string, PackageState>();
  for (const name of names) {
    const response = await fetch(new URL(name.replace('/', '%2f'), registry), { headers: { accept: 'application/json' } });
    if (response.status === 404) continue;
    if (!response.ok) throw new Error(`GET ${name} from ${registry}: HTTP ${response.status}`);
    const packument = (await response.json()) as Packument;
    const versions: Record<string, string> = {};
    for (const [version, meta] of Object.entries(packument.versions ?? {})) versions[version] = meta.dist?.integrity ?? meta.dist?.shasum ?? '';
    out.set(name, { versions, distTags: packument['dist-tags'] ?? {} });
  }
  return out;
}

/** How `after` differs from `before` (empty when it does not). */
export function stateDifferences(before: Map<string, PackageState>, after: Map<string, PackageState>): string[] {
  const out: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = JSON.stringify(before.get(name) ?? null);
    const b = JSON.stringify(after.get(name) ?? null);
    if (a !== b) out.push(`${name}: ${a} → ${b}`);
  }
  return out;
}

/** `npm view name@version version` against the registry: the version it reports, or the error. */
export async function npmView(registry: string, name: string, version: string, cwd: string): Promise<{ version?: string; error?: string }> {
  const result = await runCommand('npm', ['view', `${name}@${version}`, 'version', '--json', `--registry=${registry}`, '--prefer-online'], { cwd, timeoutMs: 60_000 });
  if (result.code !== 0) return { error: `${result.stderr}${result.stdout}`.trim() };
  const text = result.stdout.trim();
  if (text === '') return { error: 'npm view printed nothing: no such version' };
  const parsed = JSON.parse(text) as unknown;
  return typeof parsed === 'string' ? { version: parsed } : { error: `npm view printed ${text}` };
}

// The user's side: an empty project outside the workspace that installs the Cuttle packages by
// name with plain npm, @cuttle/* from the local registry (a scoped registry in its .npmrc, as a
// user of a private registry would configure it) and everything else (three, Dawn, types) from
// npm's default registry; then the packed test's checks of what was installed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkInstalled, exampleToolDependencies, writeGpuModule, type Report } from '../../scripts/src/packed/installed-checks.ts';
import type { PackageManifest } from '../../scripts/src/publishable.ts';
import { runOk, type CommandResult } from './command.ts';
import type { Lockfile } from './lockfile.ts';

/** npm install's flags: quiet, and the lockfile records where each package came from (whatever the machine's npmrc says). */
const installFlags = ['--no-audit', '--no-fund', '--loglevel=error', '--omit-lockfile-registry-resolved=false'];

/** Creates `app` and installs `names` (bare names: the `latest` dist-tag) and the examples' tools. */
export function installByName(app: string, registry: string, names: string[]): Promise<CommandResult> {
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cuttle-registry-consumer', private: true, type: 'module' }, null, 2));
  writeFileSync(join(app, '.npmrc'), `@cuttle:registry=${registry}\n`);
  const tools = Object.entries(exampleToolDependencies()).map(([name, version]) => `${name}@${version}`);
  return runOk('npm', ['install', '--prefer-offline', ...installFlags, ...names, ...tools], { cwd: app, timeoutMs: 300_000 });
}

/** Creates `app` and installs `spec` from `registry` alone (npm's --registry; --prefer-online so no cached metadata answers). */
export function installFromRegistryOnly(app: string, registry: string, spec: string): Promise<CommandResult> {
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cuttle-registry-patch', private: true, type: 'module' }, null, 2));
  return runOk('npm', ['install', '--prefer-online', ...installFlags, `--registry=${registry}`, spec], { cwd: app, timeoutMs: 120_000 });
}

export function readLock(app: string): Lockfile {
  return JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as Lockfile;
}

export function installedManifest(app: string, name: string): PackageManifest & { peerDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as PackageManifest;
}

/** Imports, bins and README examples of the installed packages (tooling/scripts/src/packed/installed-checks.ts). */
export async function checkExamples(app: string, names: string[], options: { skipGpu: boolean; report: Report }): Promise<void> {
  writeGpuModule(app);
  const packages = names.map((name) => {
    const short = name.slice(name.lastIndexOf('/') + 1);
    mkdirSync(join(app, short), { recursive: true });
    return { short, manifest: installedManifest(app, name), readme: join(app, 'node_modules', name, 'README.md'), binDir: join(app, 'node_modules/.bin') };
  });
  await checkInstalled(app, packages, options);
}

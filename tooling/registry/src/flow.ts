// The registry test's steps, in order, each recording its checks in the report. A step that
// throws is recorded as failed; the steps after it that need what it made are skipped.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { exportsProbe } from '../../scripts/src/packed/installed-checks.ts';
import { runCommand, tail } from './command.ts';
import { checkExamples, installByName, installedManifest, installFromRegistryOnly, readLock } from './consumer.ts';
import { lockProblems, unpublishableRanges } from './lockfile.ts';
import { forgetRegistry } from './npm-cache.ts';
import { duplicateRefusal } from './refusal.ts';
import { startRegistry, type LocalRegistry } from './registry.ts';
import { forcePublish, pendingChangesets, publishedList, release, versionPackages, writeAuth, writePatchChangeset } from './release.ts';
import type { Report } from './report.ts';
import { createScratchRepo } from './scratch.ts';
import { npmView, registryState, stateDifferences } from './state.ts';
import { bumped, patchReleaseProblems, readVersions, type Versions } from './versions.ts';

export interface Context {
  root: string;
  tmp: string;
  report: Report;
  skipGpu: boolean;
  /** The package the patch changeset is for. */
  patchPackage: string;
  registry?: LocalRegistry;
}

const verdaccioVersion = (): string => (createRequire(import.meta.url)('verdaccio/package.json') as { version: string }).version;

/** Runs `task` at most `limit` at a time over `items`. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

/** Runs one step: its time goes into the report, an exception becomes a failed check. */
async function step(ctx: Context, name: string, task: () => Promise<boolean>): Promise<boolean> {
  const t0 = performance.now();
  try {
    return await task();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const first = message.split('\n')[0]!;
    ctx.report.add(name, `failed: ${first.length > 120 ? `${first.slice(0, 119)}…` : first}`, false, message);
    return false;
  } finally {
    ctx.report.time(name, (performance.now() - t0) / 1000);
  }
}

function releaseOutput(result: { stdout: string; stderr: string }): string {
  return `${result.stdout}\n${result.stderr}`;
}

export async function runFlow(ctx: Context): Promise<void> {
  const { report } = ctx;
  const repo = join(ctx.tmp, 'repo');
  const app = join(ctx.tmp, 'app');
  let released: Versions = new Map();
  const names = (): string[] => [...released.keys()];

  const started = await step(ctx, 'registry', async () => {
    ctx.registry = await startRegistry(join(ctx.tmp, 'verdaccio'));
    report.add('registry', `Verdaccio ${verdaccioVersion()} answers at ${ctx.registry.url}, no uplinks, publisher created`, true);
    const stale = await forgetRegistry(ctx.registry.url, ctx.tmp);
    report.add('registry', `npm's cache holds nothing from ${ctx.registry.url}${stale > 0 ? ` (forgot ${stale} entries of an earlier run on this port)` : ''}`, true);
    const proxied = await fetch(new URL('three', ctx.registry.url));
    report.add('registry', 'nothing is proxied to npmjs: GET /three is a 404', proxied.status === 404, `HTTP ${proxied.status}`);
    return true;
  });
  const registry = ctx.registry;
  if (!started || registry === undefined) return;
  const url = registry.url;

  const ready = await step(ctx, 'scratch', async () => {
    await createScratchRepo(ctx.root, repo);
    writeAuth(repo, url, registry.token);
    report.add('scratch', `clone of HEAD with the working tree's release inputs, installed, dist/ copied (${repo})`, true);
    return true;
  });
  if (!ready) return;

  const versioned = await step(ctx, 'version', async () => {
    const before = readVersions(join(repo, 'packages'));
    const pending = pendingChangesets(repo);
    await versionPackages(repo);
    released = readVersions(join(repo, 'packages'));
    const changed = bumped(before, released);
    report.expectNone('version', `changeset version consumed ${pending} changeset(s), bumped ${changed.length} package(s)`, [
      ...(pendingChangesets(repo) === 0 ? [] : [`${pendingChangesets(repo)} changeset(s) left behind`]),
      ...(pending > 0 && changed.length === 0 ? ['changesets pending but nothing bumped'] : []),
    ]);
    return true;
  });
  if (!versioned) return;

  const publishedAll = await step(ctx, 'release', async () => {
    const result = await release(repo, url);
    const output = releaseOutput(result);
    const expected = names().map((n) => `${n}@${released.get(n)}`).sort();
    const listed = publishedList(output).sort();
    report.add('release', `pnpm release --registry ${url} --no-build exits 0`, result.code === 0, tail(output, 40));
    report.expectNone('release', `changeset publish published all ${expected.length} packages`, expected.filter((e) => !listed.includes(e)).map((e) => `${e} not published`));
    const views: string[] = [];
    await pool(names(), 4, async (name) => {
      const view = await npmView(url, name, released.get(name)!, ctx.tmp);
      if (view.version !== released.get(name)) views.push(`${name}@${released.get(name)}: ${view.error ?? `npm view says ${view.version}`}`);
    });
    report.expectNone('release', `npm view finds every package at the version changesets gave it`, views);
    const state = await registryState(url, names());
    report.expectNone('release', 'dist-tag latest is the released version', names().filter((n) => state.get(n)?.distTags.latest !== released.get(n)).map((n) => `${n}: latest is ${state.get(n)?.distTags.latest ?? 'missing'}`));
    return result.code === 0;
  });
  if (!publishedAll) return;

  const installed = await step(ctx, 'install', async () => {
    await installByName(app, url, names());
    report.add('install', `npm install ${names().length} packages by name into an empty project (@cuttle:registry=${url})`, true);
    report.expectNone('install', 'package-lock: every @cuttle/* at the published version, resolved from the local registry', lockProblems(readLock(app), released, url));
    report.expectNone('install', 'installed manifests: published versions, no workspace: ranges', names().flatMap((n) => {
      const m = installedManifest(app, n);
      return [...(m.version === released.get(n) ? [] : [`${n}: installed ${m.version}`]), ...unpublishableRanges(m)];
    }));
    return true;
  });
  if (installed) {
    await step(ctx, 'examples', async () => {
      await checkExamples(app, names(), { skipGpu: ctx.skipGpu, report: (pkg, what, ok, detail) => {
        report.add('examples', `${pkg}: ${what}`, ok, detail);
      } });
      return true;
    });
  }

  await step(ctx, 'republish', async () => {
    const before = await registryState(url, names());
    const again = await release(repo, url);
    const output = releaseOutput(again);
    report.add('republish', 'pnpm release again exits 0 and publishes nothing', again.code === 0 && publishedList(output).length === 0 && output.includes('No unpublished projects to publish'), tail(output, 30));
    const accepted: string[] = [];
    await pool(names(), 2, async (name) => {
      const result = await forcePublish(join(repo, 'packages', name.slice(name.indexOf('/') + 1)), url);
      if (duplicateRefusal(result) === undefined) accepted.push(`${name}@${released.get(name)}: ${result.code === 0 ? 'ACCEPTED' : `failed otherwise:\n${tail(releaseOutput(result), 8)}`}`);
    });
    report.expectNone('republish', `the registry refuses pnpm publish --force of all ${names().length} published versions (E409)`, accepted);
    report.expectNone('republish', 'the registry is unchanged (versions, tarball integrity, dist-tags)', stateDifferences(before, await registryState(url, names())));
    return true;
  });

  await step(ctx, 'patch', async () => {
    const target = ctx.patchPackage;
    const before = await registryState(url, names());
    writePatchChangeset(repo, target);
    await versionPackages(repo);
    const after = readVersions(join(repo, 'packages'));
    const version = after.get(target) ?? '';
    report.expectNone('patch', `a patch changeset for ${target}: ${released.get(target)} → ${version}, nothing else bumped`, patchReleaseProblems(released, after, target));
    const result = await release(repo, url);
    const output = releaseOutput(result);
    const listed = publishedList(output);
    report.add('patch', `pnpm release publishes only ${target}@${version}`, result.code === 0 && listed.length === 1 && listed[0] === `${target}@${version}`, `published: ${listed.join(', ') || 'nothing'}\n${tail(output, 20)}`);
    const state = await registryState(url, names());
    const expected = new Map(before);
    const old = before.get(target);
    if (old !== undefined) expected.set(target, { versions: { ...old.versions, [version]: state.get(target)?.versions[version] ?? 'missing' }, distTags: { ...old.distTags, latest: version } });
    report.expectNone('patch', `the registry gained ${target}@${version} (latest), nothing else changed`, stateDifferences(expected, state));
    const patchApp = join(ctx.tmp, 'patch-app');
    await installFromRegistryOnly(patchApp, url, target);
    const got = installedManifest(patchApp, target).version;
    const probe = await runCommand(process.execPath, ['--input-type=module', '-e', exportsProbe(installedManifest(patchApp, target))], { cwd: patchApp, timeoutMs: 60_000 });
    report.add('patch', `npm install ${target} --registry ${url} gets ${version} and imports`, got === version && probe.code === 0, `installed ${got}\n${tail(releaseOutput(probe), 10)}`);
    report.expectNone('patch', `package-lock: ${target}@${version} resolved from the local registry`, lockProblems(readLock(patchApp), new Map([[target, version]]), url));
    return true;
  });
}

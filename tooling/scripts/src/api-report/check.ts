// Compares each entry's fresh API report with the one committed beside its package
// (packages/<name>/api/<entry>.api.md), or with `update` writes it there. Reports that no
// entry point makes any more count as out of date too, so a removed subpath leaves no stale file.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { publishedEntries, type ApiEntry } from './entries.ts';
import { makeReports } from './extract.ts';

export const UPDATE_HINT = 'run pnpm api:update and commit the report';

export interface ApiReportOptions {
  /** The folder holding one folder per package (the workspace's packages/). */
  packagesDir: string;
  /** Write the reports instead of comparing them. */
  update: boolean;
}

export interface ApiReportResult {
  /** Every entry that has a report, as `@cuttle/jobs/worker`-style names. */
  checked: string[];
  /** One line per report that is missing, differs or is stale (none after an update), and per api-extractor error. */
  failures: string[];
  /** `wrote <path>` / `removed <path>` per report file changed (update only), paths relative to the packages folder's parent. */
  changed: string[];
}

export function reportPath(entry: ApiEntry): string {
  return join(entry.packageDir, 'api', `${entry.entry}.api.md`);
}

function readReport(path: string): string | undefined {
  // CRLF checkouts (git autocrlf on Windows) hold the same report.
  return existsSync(path) ? readFileSync(path, 'utf8').replaceAll('\r\n', '\n') : undefined;
}

/** The first line where two reports differ, to show in CI what changed without a diff tool. */
function firstDifference(committed: string, made: string): string {
  const a = committed.split('\n');
  const b = made.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  return `first difference at line ${line + 1}: committed ${JSON.stringify(a[line] ?? '(end)')}, now ${JSON.stringify(b[line] ?? '(end)')}`;
}

function staleReports(packageDirs: ReadonlySet<string>, expected: ReadonlySet<string>): string[] {
  const stale: string[] = [];
  for (const packageDir of packageDirs) {
    const apiDir = join(packageDir, 'api');
    if (!existsSync(apiDir)) continue;
    for (const name of readdirSync(apiDir)) {
      const path = join(apiDir, name);
      if (name.endsWith('.api.md') && !expected.has(path)) stale.push(path);
    }
  }
  return stale;
}

/** Checks (or with `update` rewrites) the API report of every published package's entry points. */
export function checkApiReports({ packagesDir, update }: ApiReportOptions): ApiReportResult {
  const root = dirname(packagesDir);
  const shown = (path: string): string => relative(root, path);
  const entries = publishedEntries(packagesDir);
  const failures: string[] = [];
  const changed: string[] = [];

  const built = entries.filter((entry) => existsSync(entry.dtsPath));
  for (const entry of entries) {
    if (!built.includes(entry)) failures.push(`${entry.packageName}: ${shown(entry.dtsPath)} is missing; run pnpm build first`);
  }

  const errors = new Set<string>();
  for (const { entry, text, problems } of makeReports(built)) {
    for (const problem of problems) errors.add(`${entry.packageName} (${entry.entry}): ${problem}`);
    const path = reportPath(entry);
    const committed = readReport(path);
    if (committed === text) continue;
    if (update) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      changed.push(`wrote ${shown(path)}`);
    } else if (committed === undefined) {
      failures.push(`${entry.packageName}: ${shown(path)} is missing; ${UPDATE_HINT}`);
    } else {
      failures.push(`${entry.packageName}: ${shown(path)} is out of date (${firstDifference(committed, text)}); ${UPDATE_HINT}`);
    }
  }
  failures.push(...errors);

  const packageDirs = new Set(entries.map((entry) => entry.packageDir));
  for (const path of staleReports(packageDirs, new Set(entries.map(reportPath)))) {
    if (update) {
      rmSync(path);
      changed.push(`removed ${shown(path)}`);
    } else {
      failures.push(`${shown(path)} belongs to no entry point of the package's exports; ${UPDATE_HINT} (removal)`);
    }
  }

  return { checked: entries.map((entry) => (entry.entry === 'index' ? entry.packageName : `${entry.packageName}/${entry.entry}`)), failures, changed };
}

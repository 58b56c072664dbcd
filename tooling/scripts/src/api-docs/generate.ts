// Makes the API reference of each published package (packages/<name>/docs/api/*.md) from
// api-extractor's doc model (.api.json) with api-documenter's markdown generator, and finds
// what keeps it from being complete: an export or member without a doc comment
// (ae-undocumented), a {@link} that resolves to nothing (ae-unresolved-link, or for a link to
// another package the model of every package), and doc comments that are not valid TSDoc.
//
// The doc models are made by the same api-extractor run as the API reports (extract.ts), from
// the built dist/*.d.ts. Every package's model is loaded, so a signature or a {@link} naming
// another @cuttle package's symbol links to that package's reference. api-documenter writes
// one flat folder for all packages; it is split here into one folder per package, its package
// page as index.md, and links to another package's page rewritten to that package's folder.
// An entry point other than "." (`@cuttle/jobs/worker`) becomes a package of its own in the
// model (`@cuttle/jobs_worker`, shown as `@cuttle/jobs/worker`), since api-documenter shows
// only a package's first entry point; its pages sit in the main package's folder.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { MarkdownDocumenter, type IMarkdownDocumenterOptions } from '@microsoft/api-documenter/lib/documenters/MarkdownDocumenter';
import { publishedEntries, type ApiEntry } from '../api-report/entries.ts';
import { makeReports } from '../api-report/extract.ts';
import { publishablePackages } from '../publishable.ts';
import { locate, locateInSrc } from './locate.ts';

/**
 * Published packages (folder names) whose doc comments are not yet complete: `pnpm docs:api`
 * (and its `--check` in `npm test`) neither writes nor checks their reference until they are
 * taken off this list, which should end up empty. `pnpm docs:api --only <name>` still makes
 * and checks one of them on demand, listing what is left to document.
 */
export const NOT_YET_ENFORCED: readonly string[] = [];

export const DOCS_HINT = 'run pnpm docs:api and commit packages/<name>/docs/api';

type ApiModel = IMarkdownDocumenterOptions['apiModel'];
type ApiItem = ApiModel['members'][number];
type DeclarationReference = Parameters<ApiModel['resolveDeclarationReference']>[0];

/** The parts of a TSDoc node this file reads (DocNode, with DocLinkTag's destination). */
interface DocNodeLike {
  kind: string;
  getChildNodes(): readonly DocNodeLike[];
  codeDestination?: (DeclarationReference & { packageName?: string; emitAsTsdoc(): string }) | undefined;
  summarySection?: DocNodeLike;
}

// api-documenter's own copy of the model classes: the ApiModel it renders must be one of theirs.
const requireFromDocumenter = createRequire(createRequire(import.meta.url).resolve('@microsoft/api-documenter'));
const { ApiModel: ApiModelClass } = requireFromDocumenter('@microsoft/api-extractor-model') as { ApiModel: new () => ApiModel };

export interface ApiDocsOptions {
  /** The folder holding one folder per package (the workspace's packages/). */
  packagesDir: string;
  /** Package folder names to make and check; default every published one not in NOT_YET_ENFORCED. */
  only?: readonly string[];
  /** Compare with the committed docs instead of writing them. */
  check: boolean;
}

export interface ApiDocsResult {
  /** The package folder names made (and written or checked). */
  packages: string[];
  /** One line per doc comment problem (file:line symbol: message) and, with `check`, per out-of-date folder. */
  failures: string[];
  /**
   * `wrote <path>` / `removed <path>` per file changed (write mode only), relative to the
   * workspace; `skipped <folder>` for a package whose doc comments have problems (its reference
   * is not written until they are fixed).
   */
  changed: string[];
  /** Per package folder: doc comments found on its API items (exports and their members). */
  documented: Record<string, { documented: number; items: number }>;
}

/** One package in the model: a package's main entry, or another entry point as a package of its own. */
interface ModelPackage {
  entry: ApiEntry;
  /** The package folder name (packages/<short>). */
  short: string;
  /** The name in the model: the package's, or `<package>_<entry>` for another entry point. */
  modelName: string;
  /** The name as the reference shows it: `@cuttle/jobs` or `@cuttle/jobs/worker`. */
  shownName: string;
}

const unscoped = (name: string): string => name.replace(/^@[^/]+\//, '');

function modelPackages(entries: readonly ApiEntry[], shortOf: ReadonlyMap<string, string>): ModelPackage[] {
  return entries.map((entry) => {
    const main = entry.entry === 'index';
    return {
      entry,
      short: shortOf.get(entry.packageDir)!,
      modelName: main ? entry.packageName : `${entry.packageName}_${entry.entry}`,
      shownName: main ? entry.packageName : `${entry.packageName}/${entry.entry}`,
    };
  });
}

/**
 * Renames an entry point's doc model to its own package: the package's name, and each
 * canonical reference to a symbol this entry exports (a reference to a symbol only the main
 * entry exports, from a chunk both share, stays pointing at the main entry).
 */
function renameModel(json: Record<string, unknown>, from: string, to: string): void {
  const entryPoint = (json.members as { members?: { name?: string }[] }[] | undefined)?.[0];
  const exported = new Set((entryPoint?.members ?? []).map((member) => member.name));
  const rename = (reference: string): string => {
    if (reference === `${from}!`) return `${to}!`;
    if (!reference.startsWith(`${from}!`)) return reference;
    const symbol = /^[^.:#~]+/.exec(reference.slice(from.length + 1))?.[0];
    return symbol !== undefined && exported.has(symbol) ? `${to}!${reference.slice(from.length + 1)}` : reference;
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (typeof record.canonicalReference === 'string') record.canonicalReference = rename(record.canonicalReference);
      for (const child of Object.values(record)) walk(child);
    }
  };
  json.name = to;
  walk(json.members);
}

function* walkItems(item: ApiItem): Generator<ApiItem> {
  yield item;
  for (const member of item.members) yield* walkItems(member);
}

function docCommentOf(item: ApiItem): DocNodeLike | undefined {
  return (item as { tsdocComment?: DocNodeLike }).tsdocComment;
}

function* linkTags(node: DocNodeLike): Generator<DocNodeLike> {
  if (node.kind === 'LinkTag') yield node;
  for (const child of node.getChildNodes()) yield* linkTags(child);
}

function hasSummary(comment: DocNodeLike | undefined): boolean {
  const text = (node: DocNodeLike): boolean => node.kind === 'PlainText' || node.kind === 'CodeSpan' || node.kind === 'LinkTag' || node.getChildNodes().some(text);
  return comment?.summarySection !== undefined && text(comment.summarySection);
}

const DOCUMENTED_KINDS = new Set(['Class', 'Interface', 'Function', 'Variable', 'TypeAlias', 'Enum', 'EnumMember', 'Namespace', 'Property', 'PropertySignature', 'Method', 'MethodSignature', 'Constructor', 'ConstructSignature', 'CallSignature', 'IndexSignature']);

/**
 * Runs api-documenter over the model into `folder`, quietly: it logs every page it writes, and
 * what it warns about (an unresolved link, an unknown tag) is reported above with its place.
 */
function renderMarkdown(apiModel: ApiModel, folder: string): void {
  const { log, warn } = console;
  console.log = () => undefined;
  console.warn = () => undefined;
  try {
    new MarkdownDocumenter({ apiModel, documenterConfig: undefined, outputFolder: folder }).generateFiles();
  } finally {
    console.log = log;
    console.warn = warn;
  }
}

/**
 * Splits api-documenter's flat folder into the pages of each package folder in `wanted`
 * (file name to text): the package page becomes index.md, the "Home" crumb (the page of every
 * package) goes, and links to another package's page point into that package's docs/api/, or
 * become plain text when that package has no reference.
 */
function splitPages(flat: string, packages: readonly ModelPackage[], wanted: ReadonlySet<string>, linkable: ReadonlySet<string>): Map<string, Map<string, string>> {
  const byPrefix = new Map(packages.map((p) => [unscoped(p.modelName), p]));
  const ownerOf = (file: string): ModelPackage | undefined => byPrefix.get(file.replace(/\.md$/, '').split('.')[0]!);
  const pageName = (file: string, owner: ModelPackage): string => (owner.entry.entry === 'index' && file === `${unscoped(owner.modelName)}.md` ? 'index.md' : file);

  const out = new Map<string, Map<string, string>>();
  for (const file of readdirSync(flat).sort()) {
    const owner = ownerOf(file);
    if (owner === undefined || !wanted.has(owner.short)) continue;
    let text = readFileSync(join(flat, file), 'utf8').replaceAll('\r\n', '\n');
    text = text.replace('[Home](./index.md) &gt; ', '');
    text = text.replace(/\[((?:\\.|[^\]\\])*)\]\(\.\/([^)#]+\.md)(#[^)]*)?\)/g, (whole, label: string, target: string, hash: string | undefined) => {
      const targetOwner = ownerOf(target);
      if (targetOwner === undefined) return whole;
      const name = pageName(target, targetOwner) + (hash ?? '');
      if (targetOwner.short === owner.short) return `[${label}](./${name})`;
      if (!linkable.has(targetOwner.short)) return label;
      return `[${label}](../../../${targetOwner.short}/docs/api/${name})`;
    });
    if (owner.entry.entry !== 'index') {
      text = text.replaceAll(owner.modelName, owner.shownName);
      text = text.replace(`## ${unscoped(owner.modelName)} package`, `## ${owner.shownName} entry point`);
    }
    let pages = out.get(owner.short);
    if (pages === undefined) out.set(owner.short, (pages = new Map<string, string>()));
    pages.set(pageName(file, owner), text);
  }
  // A package with other entry points lists them at the end of its page.
  for (const p of packages) {
    const pages = out.get(p.short);
    const index = pages?.get('index.md');
    if (p.entry.entry === 'index' || pages === undefined || index === undefined) continue;
    const list = index.includes('\n## Entry points\n') ? index : `${index.trimEnd()}\n\n## Entry points\n\n`;
    pages.set('index.md', `${list.trimEnd()}\n\n[${p.shownName}](./${unscoped(p.modelName)}.md)\n`);
  }
  return out;
}

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).sort()) files.set(name, readFileSync(join(dir, name), 'utf8').replaceAll('\r\n', '\n'));
  return files;
}

/** Makes (and writes, or with `check` compares) the API reference of the selected packages. */
export function apiDocs({ packagesDir, only, check }: ApiDocsOptions): ApiDocsResult {
  const root = dirname(packagesDir);
  const shown = (path: string): string => relative(root, path);
  const all = publishablePackages(packagesDir);
  const shortOf = new Map(all.map((p) => [p.dir, p.short]));
  const unknown = (only ?? []).filter((name) => !all.some((p) => p.short === name));
  if (unknown.length > 0) throw new Error(`docs:api: no published package ${unknown.join(', ')} under ${shown(packagesDir)}`);
  const selected = new Set(only ?? all.map((p) => p.short).filter((short) => !NOT_YET_ENFORCED.includes(short)));
  // A link to another package's page stays a link when that package has a reference.
  const linkable = new Set([...selected, ...all.map((p) => p.short).filter((short) => !NOT_YET_ENFORCED.includes(short))]);

  const failures: string[] = [];
  const changed: string[] = [];
  const entries = publishedEntries(packagesDir);
  const built = entries.filter((entry) => existsSync(entry.dtsPath));
  for (const entry of entries) {
    if (!built.includes(entry) && selected.has(shortOf.get(entry.packageDir)!)) failures.push(`${entry.packageName}: ${shown(entry.dtsPath)} is missing; run pnpm build first`);
  }

  const scratch = mkdtempSync(join(tmpdir(), 'cuttle-api-docs-'));
  try {
    const made = makeReports(built, { modelFolder: join(scratch, 'model') });
    const packages = modelPackages(built, shortOf);
    const problems: string[] = [];
    // Packages with a doc problem: their reference is not written (it would be incomplete).
    const incomplete = new Set<string>();
    const apiModel = new ApiModelClass();
    for (const [i, { entry, docMessages, docModelPath, problems: extractorProblems }] of made.entries()) {
      const p = packages[i]!;
      if (selected.has(p.short)) {
        if (extractorProblems.length > 0 || docMessages.length > 0) incomplete.add(p.short);
        for (const problem of extractorProblems) problems.push(`${entry.packageName} (${entry.entry}): ${problem}`);
        for (const message of docMessages) {
          const dts = message.sourceFilePath ?? entry.dtsPath;
          const line = message.sourceFileLine ?? 1;
          const where = locate(entry.packageDir, dts, line);
          const place = where.srcFile === undefined ? `${shown(dts)}:${line}` : `${shown(where.srcFile)}:${where.srcLine} (${shown(dts)}:${line})`;
          problems.push(`${place} ${where.symbol ?? '(no symbol)'}: (${message.messageId}) ${message.text}`);
        }
      }
      const json = JSON.parse(readFileSync(docModelPath!, 'utf8')) as Record<string, unknown>;
      if (p.modelName !== entry.packageName) renameModel(json, entry.packageName, p.modelName);
      const path = join(scratch, 'model', `${unscoped(p.modelName)}.renamed.api.json`);
      writeFileSync(path, JSON.stringify(json));
      apiModel.loadPackage(path);
    }

    // Links to another package: api-extractor checks only links within the package it reads.
    const documented: ApiDocsResult['documented'] = {};
    for (const p of packages) {
      if (!selected.has(p.short)) continue;
      const counts = (documented[p.short] ??= { documented: 0, items: 0 });
      const apiPackage = apiModel.tryGetPackageByName(p.modelName);
      if (apiPackage === undefined) continue;
      for (const item of apiPackage.members.flatMap((entryPoint) => [...walkItems(entryPoint)])) {
        const comment = docCommentOf(item);
        if (DOCUMENTED_KINDS.has(item.kind)) {
          counts.items++;
          if (hasSummary(comment)) counts.documented++;
        }
        if (comment === undefined) continue;
        for (const link of linkTags(comment)) {
          const destination = link.codeDestination;
          const target = destination?.packageName;
          if (destination === undefined || target === undefined || target === p.entry.packageName) continue;
          // The link names its package, so it resolves without the item as context.
          const result = apiModel.resolveDeclarationReference(destination, undefined);
          if (result.resolvedApiItem !== undefined) continue;
          const symbol = item.getScopedNameWithinPackage();
          const found = locateInSrc(p.entry.packageDir, symbol);
          const place = found === undefined ? p.shownName : `${shown(found.srcFile)}:${found.srcLine}`;
          incomplete.add(p.short);
          problems.push(`${place} ${symbol}: (unresolved-link) {@link ${destination.emitAsTsdoc()}} resolves to nothing in the @cuttle packages: ${result.errorMessage ?? 'not found'}`);
        }
      }
    }
    failures.push(...[...new Set(problems)].sort());

    const flat = join(scratch, 'markdown');
    renderMarkdown(apiModel, flat);
    const pages = splitPages(flat, packages, selected, linkable);
    for (const short of [...selected].sort()) {
      const dir = join(packagesDir, short, 'docs', 'api');
      const made = pages.get(short) ?? new Map<string, string>();
      const committed = readTree(dir);
      if (check) {
        const differ = [...made].filter(([name, text]) => committed.get(name) !== text).map(([name]) => name);
        const stale = [...committed.keys()].filter((name) => !made.has(name));
        if (differ.length > 0 || stale.length > 0) {
          const list = [...differ.map((name) => `${committed.has(name) ? 'differs' : 'missing'}: ${name}`), ...stale.map((name) => `stale: ${name}`)];
          failures.push(`${shown(dir)} is out of date (${list.slice(0, 5).join(', ')}${list.length > 5 ? `, ${list.length - 5} more` : ''}); ${DOCS_HINT.replace('<name>', short)}`);
        }
        continue;
      }
      if (incomplete.has(short)) {
        changed.push(`skipped ${shown(dir)}: its doc comments have problems (listed below)`);
        continue;
      }
      for (const [name, text] of made) {
        if (committed.get(name) === text) continue;
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, name), text);
        changed.push(`wrote ${shown(join(dir, name))}`);
      }
      for (const name of committed.keys()) {
        if (made.has(name)) continue;
        rmSync(join(dir, name));
        changed.push(`removed ${shown(join(dir, name))}`);
      }
    }
    return { packages: [...selected].sort(), failures, changed, documented };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

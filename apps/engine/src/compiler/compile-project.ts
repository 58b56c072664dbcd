// The data compiler: source folder in, runtime data out, incrementally. A resource is rebuilt
// when it is new, its source changed, a resource it embeds changed (found through the
// dependency checker of @cuttle/tools-merge), a file it read changed, its output is gone, its
// last compile failed, or the compiler version changed (then everything is). Each output is
// written atomically; a failed resource keeps its previous output and the error is reported.
// Nothing read back is trusted: the previous manifest is checked before an output it names is
// deleted, and files besides the sources are read only through InputFiles.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { DependencyGraph, resourceOf, resourcePath, type DependencyOptions, type JsonValue, type ResourceId } from '@cuttle/tools-merge';
import { readDependencyOptions } from '@cuttle/tools-merge/node';
import { CompileError, EngineError } from '../errors.ts';
import { DATA_FORMAT_VERSION } from '../runtime/formats.ts';
import { removeStaleTemporaries, writeFileAtomic } from './atomic-write.ts';
import { emptySource, failAt, parseDocument, type CompileContext, type PathKey } from './context.ts';
import { contentHash } from './hash.ts';
import { InputFiles } from './input-files.ts';
import { MANIFEST_FILE, readManifest, type Manifest, type ManifestEntry } from './manifest.ts';
import { outputFileOf } from './manifest-check.ts';
import { compileFlow } from './resources/flow.ts';
import { compileFont } from './resources/font.ts';
import { compileLevel } from './resources/level.ts';
import { compileMaterial } from './resources/material.ts';
import { compileMesh } from './resources/mesh.ts';
import { compilePackage } from './resources/package.ts';
import { compileTexture } from './resources/texture.ts';
import { compileUnit } from './resources/unit.ts';

/** Changes whenever the compiler or a runtime format changes: a new version rebuilds everything. */
export const COMPILER_VERSION = `cuttle-engine/${DATA_FORMAT_VERSION}`;

interface ResourceCompiler {
  compile(ctx: CompileContext): Uint8Array | Promise<Uint8Array>;
  /** Types whose content this type bakes into its output: a change to one rebuilds the referrer. */
  embeds: readonly string[];
  text: boolean;
}

export const RESOURCE_COMPILERS: Record<string, ResourceCompiler> = {
  level: { compile: compileLevel, embeds: ['unit'], text: true },
  unit: { compile: compileUnit, embeds: [], text: true },
  flow: { compile: compileFlow, embeds: [], text: true },
  material: { compile: compileMaterial, embeds: [], text: true },
  font: { compile: compileFont, embeds: [], text: true },
  package: { compile: compilePackage, embeds: [], text: true },
  glb: { compile: compileMesh, embeds: [], text: false },
  png: { compile: compileTexture, embeds: [], text: false },
};

/** How references are written when the project has no .cuttle-deps.sjson. */
export const DEFAULT_DEPENDENCY_OPTIONS: DependencyOptions = {
  keyTypes: { unit: 'unit', material: 'material', flow: 'flow', font: 'font', mesh: 'glb', base_color_texture: 'png', normal_texture: 'png', level: 'level', glb: 'glb', png: 'png', package: 'package' },
  rootTypes: ['package', 'level'],
};

export type RebuildReason = 'new' | 'changed' | 'dependency' | 'input' | 'version' | 'output-missing' | 'retry' | 'forced';

export interface ProgressEvent {
  index: number;
  total: number;
  path: string;
  reason: RebuildReason;
  ms: number;
  ok: boolean;
}

export interface CompileOptions {
  /** Compiler version recorded in the outputs (default COMPILER_VERSION); tests change it. */
  version?: string;
  /** Rebuild everything. */
  force?: boolean;
  /**
   * Folders whose fonts a font source may name by absolute path (`--font-dir`, e.g.
   * /usr/share/fonts); without them, sources read only files of the project.
   */
  fontDirs?: readonly string[];
  onProgress?: (event: ProgressEvent) => void;
}

export interface CompileReport {
  /** Resources compiled this time, with why. */
  compiled: { path: string; reason: RebuildReason }[];
  upToDate: number;
  failed: { path: string; error: CompileError }[];
  removed: string[];
  /** Files in the project the compiler does not compile (inputs of others, or unknown). */
  ignored: string[];
  ms: number;
}

function scan(root: string): Map<string, Uint8Array> {
  if (!existsSync(root)) throw new EngineError(`source folder ${root} does not exist.`);
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.set(relative(root, full).split(sep).join('/'), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

function typeOf(path: string): string | undefined {
  try {
    return resourceOf(path).type;
  } catch {
    return undefined;
  }
}

export async function compileProject(source: string, out: string, options: CompileOptions = {}): Promise<CompileReport> {
  const started = performance.now();
  const version = options.version ?? COMPILER_VERSION;
  // First, so a refused manifest leaves the output folder exactly as it was.
  const previous = readManifest(out);
  const files = scan(source);
  const inputFiles = new InputFiles(files, options.fontDirs ?? []);
  removeStaleTemporaries(out);
  const decoder = new TextDecoder();
  const texts = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const [path, bytes] of files) {
    hashes.set(path, contentHash(bytes));
    const type = typeOf(path);
    texts.set(path, type !== undefined && RESOURCE_COMPILERS[type]?.text ? decoder.decode(bytes) : '');
  }
  const dependencyOptions = existsSync(join(source, '.cuttle-deps.sjson')) ? readDependencyOptions(source) : DEFAULT_DEPENDENCY_OPTIONS;
  const graph = DependencyGraph.build(texts, dependencyOptions);

  const versionChanged = previous !== undefined && previous.compiler !== version;
  const fresh = previous === undefined || versionChanged || options.force === true;
  const changed = new Set<string>();
  for (const [path, hash] of hashes) if (previous?.sources[path] !== hash) changed.add(path);
  for (const path of Object.keys(previous?.sources ?? {})) if (!hashes.has(path)) changed.add(path);

  // Which resources to build, and why.
  const reasons = new Map<string, RebuildReason>();
  const ignored: string[] = [];
  for (const path of files.keys()) {
    const type = typeOf(path);
    if (type === undefined || !RESOURCE_COMPILERS[type]) ignored.push(path);
  }
  const compilable = [...files.keys()].filter((path) => !ignored.includes(path));
  for (const path of compilable) {
    const entry = previous?.resources[path];
    if (fresh) reasons.set(path, options.force ? 'forced' : versionChanged ? 'version' : 'new');
    else if (!entry) reasons.set(path, previous.failed.includes(path) ? 'retry' : 'new');
    else if (changed.has(path)) reasons.set(path, 'changed');
    else if (previous.failed.includes(path)) reasons.set(path, 'retry');
    else if (!existsSync(join(out, entry.file))) reasons.set(path, 'output-missing');
  }
  if (!fresh) {
    // Dependents, through the dependency checker: referrers that embed a changed resource.
    for (const path of changed) {
      const type = typeOf(path);
      if (type === undefined) continue;
      const id: ResourceId = resourceOf(path);
      for (const referrer of graph.referrers(id)) {
        const referrerPath = resourcePath(referrer);
        if (!files.has(referrerPath) || reasons.has(referrerPath)) continue;
        if (RESOURCE_COMPILERS[referrer.type]?.embeds.includes(type)) reasons.set(referrerPath, 'dependency');
      }
    }
    // Files read that the graph does not know (a font's TTF, a .fnt's pages). One refused now (a
    // --font-dir no longer given) counts as changed: the rebuild then says why it fails.
    for (const path of compilable) {
      if (reasons.has(path)) continue;
      const entry = previous.resources[path];
      for (const [input, hash] of Object.entries(entry?.inputs ?? {})) {
        if (input === path) continue;
        const now = inputFiles.read(input);
        if (typeof now === 'string' || contentHash(now) !== hash) {
          reasons.set(path, 'input');
          break;
        }
      }
    }
  }

  const manifest: Manifest = { compiler: version, sources: Object.fromEntries(hashes), resources: {}, failed: [] };
  if (!fresh || versionChanged || options.force) {
    // Keep entries of resources that still exist (rebuilt ones are overwritten below).
    for (const [path, entry] of Object.entries(previous?.resources ?? {})) if (files.has(path)) manifest.resources[path] = entry;
  }
  const report: CompileReport = { compiled: [], upToDate: 0, failed: [], removed: [], ignored, ms: 0 };
  const todo = compilable.filter((path) => reasons.has(path));
  report.upToDate = compilable.length - todo.length;
  let index = 0;
  for (const path of todo) {
    const t0 = performance.now();
    const reason = reasons.get(path)!;
    const id = resourceOf(path);
    const inputs: Record<string, string> = { [path]: hashes.get(path)! };
    const bytes = files.get(path)!;
    let doc: JsonValue | undefined;
    const text = (): string => texts.get(path) ?? decoder.decode(bytes);
    const ctx: CompileContext = {
      path,
      type: id.type,
      name: id.name,
      bytes,
      graph,
      text,
      document: () => (doc ??= parseDocument(path, text())),
      readInput: (input: string, at: readonly PathKey[]) => {
        const data = inputFiles.read(input);
        const absolute = isAbsolute(input);
        if (data === 'refused') return failAt(path, text(), at, `reads ${input}, which is outside the project${absolute ? ' and every --font-dir' : ''}`, absolute ? 'Copy the file into the project and name it by its project path, or compile with --font-dir <its folder> (fonts only)' : 'Name a file inside the project');
        if (data === 'missing') return failAt(path, text(), at, `reads ${input}, which does not exist`, absolute ? 'Install the font or name another one' : 'Add the file to the project or fix the path');
        inputs[input] = contentHash(data);
        return data;
      },
      requireResource: (type: string, name: string, at: readonly PathKey[]) => {
        if (graph.exists({ type, name })) return;
        const similar = graph.resources().filter((r) => r.type === type).map((r) => r.name);
        const hint = similar.length > 0 ? `Create ${name}.${type}, or use one of: ${similar.slice(0, 5).join(', ')}${similar.length > 5 ? ', ...' : ''}` : `Create ${name}.${type}`;
        failAt(path, text(), at, `refers to ${name}.${type}, which does not exist`, hint);
      },
      fail: (at, problem, fix) => failAt(path, text(), at, problem, fix),
    };
    let ok = true;
    try {
      if (bytes.length === 0) throw emptySource(path);
      const output = await RESOURCE_COMPILERS[id.type]!.compile(ctx);
      const file = outputFileOf(path);
      writeFileAtomic(out, file, output);
      const entry: ManifestEntry = { type: id.type, name: id.name, file, hash: contentHash(output), size: output.length, inputs };
      manifest.resources[path] = entry;
      report.compiled.push({ path, reason });
    } catch (error) {
      ok = false;
      const compileError = error instanceof CompileError ? error : new CompileError(path, 1, 1, `the compiler failed: ${error instanceof Error ? error.message : String(error)}`, 'Report this with the file');
      report.failed.push({ path, error: compileError });
      manifest.failed.push(path);
    }
    options.onProgress?.({ index: ++index, total: todo.length, path, reason, ms: performance.now() - t0, ok });
  }
  // Outputs of sources that are gone.
  for (const [path, entry] of Object.entries(previous?.resources ?? {})) {
    if (files.has(path)) continue;
    rmSync(join(out, entry.file), { force: true });
    report.removed.push(path);
  }
  writeFileAtomic(out, MANIFEST_FILE, JSON.stringify(manifest, null, 1));
  report.ms = performance.now() - started;
  return report;
}

// The data compiler: source folder in, runtime data out, incrementally. A resource is rebuilt
// when it is new, its source changed, a resource it embeds changed (found through the
// dependency checker of @cuttle/tools-merge), a file it read changed, its output is gone, its
// last compile failed, or the compiler version changed (then everything is). Each output is
// written atomically; a failed resource keeps its previous output and the error is reported.
// Nothing read back is trusted: the previous manifest is checked before an output it names is
// deleted, and files besides the sources are read only through InputFiles. Many resources are
// compiled in parallel on @cuttle/jobs workers (parallel/), with the same outputs byte for byte.
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JobSystem } from '@cuttle/jobs';
import { DependencyGraph, resourceOf, resourcePath, type DependencyOptions, type ResourceId } from '@cuttle/tools-merge';
import { readDependencyOptions } from '@cuttle/tools-merge/node';
import { CompileError, EngineError } from '../errors.ts';
import { DATA_FORMAT_VERSION } from '../runtime/formats.ts';
import { removeStaleTemporaries, writeFileAtomic } from './atomic-write.ts';
import { compileResource, settingsOf, settingsStale, type CompileEnvironment, type ResourceOutcome } from './compile-resource.ts';
import { contentHash } from './hash.ts';
import { InputFiles } from './input-files.ts';
import { MANIFEST_FILE, readManifest, type Manifest } from './manifest.ts';
import { ManifestTextCache, manifestBytes } from './manifest-text.ts';
import { listOutputs, OutputListingCache } from './output-listing.ts';
import { scanProject, signatureOf, type ProjectCache } from './project-scan.ts';
import { COMPILE_CAPACITY, compileInParallel, startCompileWorkers } from './parallel/compile-in-parallel.ts';
import type { CompilePool } from './parallel/compile-pool.ts';
import { shareSources } from './parallel/shared-project.ts';
import type { KernelUrls } from '../workers/kernel-bundle.ts';
import { RESOURCE_COMPILERS } from './resource-compilers.ts';
import { textureUsages } from '../textures/texture-usage.ts';

export { RESOURCE_COMPILERS } from './resource-compilers.ts';
export { CompilePool } from './parallel/compile-pool.ts';

/** Changes whenever the compiler or a runtime format changes: a new version rebuilds everything. */
export const COMPILER_VERSION = `cuttle-engine/${DATA_FORMAT_VERSION}`;

/** How references are written when the project has no .cuttle-deps.sjson. */
export const DEFAULT_DEPENDENCY_OPTIONS: DependencyOptions = {
  keyTypes: { unit: 'unit', material: 'material', flow: 'flow', font: 'font', mesh: 'glb', base_color_texture: 'png', normal_texture: 'png', metallic_roughness_texture: 'png', emissive_texture: 'png', occlusion_texture: 'png', level: 'level', glb: 'glb', png: 'png', package: 'package' },
  rootTypes: ['package', 'level'],
};

export type RebuildReason = 'new' | 'changed' | 'dependency' | 'input' | 'version' | 'output-missing' | 'retry' | 'forced';

export interface ProgressEvent {
  index: number;
  total: number;
  path: string;
  reason: RebuildReason;
  /** The resource's compile, output written. */
  ms: number;
  /** Of `ms`, hashing and writing the output (0 when it failed). */
  writeMs: number;
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
  /**
   * Threads to compile on (default 1: this one). With more, a compile of at least
   * `parallelFrom` resources runs on that many @cuttle/jobs workers.
   */
  workers?: number;
  /** Fewest resources to rebuild for a compile to start workers (default 64). */
  parallelFrom?: number;
  /** Bundled compile kernels and worker entry (default: bundled from the engine's source on first use). */
  kernels?: KernelUrls;
  /**
   * Textures rebuilt by this compile are written as drafts: RGBA8, no Basis encoding (a 1,024 px
   * texture in tens of milliseconds instead of about a second), their mips made on the GPU at
   * load. The --watch loop sets it after its first compile; a compile without it rebuilds drafts.
   */
  textureDrafts?: boolean;
  /** Kept between compiles of one process (--watch): only changed files are read and parsed. */
  cache?: ProjectCache;
  /**
   * Workers kept between compiles: started by the first compile that uses them, their code stays
   * warm. Used instead of starting `workers` new ones; the caller shuts them down.
   */
  pool?: CompilePool;
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

function typeOf(path: string): string | undefined {
  try {
    return resourceOf(path).type;
  } catch {
    return undefined;
  }
}

export async function compileProject(source: string, out: string, options: CompileOptions = {}): Promise<CompileReport> {
  const version = options.version ?? COMPILER_VERSION;
  // First, so a refused manifest leaves the output folder exactly as it was.
  const previous = readPreviousManifest(out, options.cache);
  // A compile that rebuilds everything starts its workers now: they load the compiler while
  // this thread reads and hashes the project.
  const rebuildsAll = previous?.compiler !== version || options.force === true;
  const early = options.pool === undefined && rebuildsAll ? startWorkers(options) : undefined;
  try {
    return await compileWith(source, out, options, version, previous, early);
  } finally {
    // Not handed to the compile (it failed first, or compiled too little): stop them.
    if (early && !early.taken) await (await early.pool.catch(() => undefined))?.shutdown();
  }
}

interface EarlyWorkers {
  pool: Promise<JobSystem>;
  taken: boolean;
}

function startWorkers(options: CompileOptions): EarlyWorkers | undefined {
  const workers = checkWorkers(options.workers);
  if (workers === 1) return undefined;
  const pool = startCompileWorkers(workers, options.kernels);
  // Awaited later; a scan that throws first must not leave the rejection unhandled.
  pool.catch(() => undefined);
  return { pool, taken: false };
}

async function compileWith(source: string, out: string, options: CompileOptions, version: string, previous: Manifest | undefined, early: EarlyWorkers | undefined): Promise<CompileReport> {
  const started = performance.now();
  const scanned = scanProject(source, (path) => RESOURCE_COMPILERS[typeOf(path) ?? '']?.text === true, options.cache);
  const files = new Map<string, Uint8Array>();
  const texts = new Map<string, string>();
  const hashes = new Map<string, string>();
  // The next manifest's `sources`, built in the same pass; without a prototype, so that a project
  // file named __proto__ is a member like any other.
  const sources = Object.create(null) as Record<string, string>;
  for (const [path, file] of scanned) {
    files.set(path, file.bytes);
    texts.set(path, file.text);
    hashes.set(path, file.hash);
    sources[path] = file.hash;
  }
  const inputFiles = new InputFiles(files, options.fontDirs ?? []);
  removeStaleTemporaries(out);
  const decoder = new TextDecoder();
  const dependencyOptions = existsSync(join(source, '.cuttle-deps.sjson')) ? readDependencyOptions(source) : DEFAULT_DEPENDENCY_OPTIONS;
  // A watch loop's next compile parses only the sources that changed.
  const kept = options.cache?.kept.get(GRAPH_KEY) as { graph: DependencyGraph; options: string } | undefined;
  const graph = DependencyGraph.build(texts, dependencyOptions, kept?.options === JSON.stringify(dependencyOptions) ? kept.graph : undefined);
  options.cache?.kept.set(GRAPH_KEY, { graph, options: JSON.stringify(dependencyOptions) });

  const usages = textureUsages(graph);
  const drafts = options.textureDrafts === true;
  const versionChanged = previous !== undefined && previous.compiler !== version;
  const fresh = previous === undefined || versionChanged || options.force === true;
  const changed = new Set<string>();
  for (const [path, hash] of hashes) if (previous?.sources[path] !== hash) changed.add(path);
  for (const path in previous?.sources) if (!hashes.has(path)) changed.add(path);

  // Which resources to build, and why.
  const listingCache = options.cache?.kept.get(LISTING_KEY) as OutputListingCache | undefined;
  const listings = listingCache?.out === out ? listingCache : new OutputListingCache(out);
  options.cache?.kept.set(LISTING_KEY, listings);
  const outputs = previous ? listOutputs(out, listings) : new Set<string>();
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
    else if (!outputs.has(entry.file)) reasons.set(path, 'output-missing');
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
    // Settings the rest of the project decides (a texture that became a normal map or data), and
    // textures two materials now want in two linear usages: their compile says so.
    for (const path of compilable) {
      if (reasons.has(path)) continue;
      const entry = previous.resources[path];
      if (entry && (usages.conflicts.has(path) || settingsStale(entry.settings, settingsOf(path, entry.type, usages, drafts)))) reasons.set(path, 'input');
    }
    // Files read that the graph does not know (a font's TTF, a .fnt's pages). One refused now (a
    // --font-dir no longer given) counts as changed: the rebuild then says why it fails.
    for (const path of compilable) {
      if (reasons.has(path)) continue;
      const inputs = previous.resources[path]?.inputs;
      // for...in, not Object.entries: this runs for every resource of the project each compile.
      for (const input in inputs) {
        if (input === path) continue;
        const hash = inputs[input];
        // A project file's hash is known from the scan; only --font-dir files are read here.
        const known = hashes.get(input);
        if (known !== undefined) {
          if (known === hash) continue;
          reasons.set(path, 'input');
          break;
        }
        const now = inputFiles.read(input);
        if (typeof now === 'string' || contentHash(now) !== hash) {
          reasons.set(path, 'input');
          break;
        }
      }
    }
  }

  const manifest: Manifest = { compiler: version, sources, resources: {}, failed: [] };
  if (!fresh || versionChanged || options.force) {
    // Keep entries of resources that still exist (rebuilt ones are overwritten below).
    for (const path in previous?.resources) if (files.has(path)) manifest.resources[path] = previous.resources[path]!;
  }
  const report: CompileReport = { compiled: [], upToDate: 0, failed: [], removed: [], ignored, ms: 0 };
  const todo = compilable.filter((path) => reasons.has(path));
  report.upToDate = compilable.length - todo.length;
  // Outputs written on this thread are flushed to disk together, not one by one (a saved unit
  // rebuilds it and the levels that place it: four flushes waited for at once).
  const flushes = new Map<string, Promise<void>>();
  // At most FLUSHES_IN_FLIGHT at once: each holds a file open until it is flushed.
  const inFlight: Promise<unknown>[] = [];
  const flushLater = (path: string, done: Promise<void>): void => {
    inFlight.push(done.catch(() => undefined));
    flushes.set(path, done);
  };
  const env: CompileEnvironment = { out, inputFiles, resources: graph, text: (path) => textOf(path), hashOf: (path) => hashes.get(path), textureUsages: usages, textureDrafts: drafts, flushLater };
  // Binary files have no text ('') in `texts`; decode one when a compiler asks anyway.
  const textOf = (path: string): string => {
    const text = texts.get(path);
    return text === undefined || text === '' ? decoder.decode(files.get(path)) : text;
  };
  // The manifest and the report list outcomes in source order, whatever order the workers finish
  // in, so a parallel compile writes the same manifest as a serial one.
  const outcomes = new Map<string, ResourceOutcome>();
  const record = (path: string, outcome: ResourceOutcome, ms: number): void => {
    outcomes.set(path, outcome);
    options.onProgress?.({ index: outcomes.size, total: todo.length, path, reason: reasons.get(path)!, ms, writeMs: outcome.ok ? outcome.writeMs : 0, ok: outcome.ok });
  };
  try {
    const jobs = await workersFor(todo.length, options, early);
    if (jobs) {
      try {
        const order = orderForWorkers(todo, files);
        const embedded = new Set(Object.values(RESOURCE_COMPILERS).flatMap((c) => c.embeds));
        // In batches the pool's task table holds. Embedded types come first in `order`, so a
        // batch's embedders never wait on a resource of a later batch. The sources are shared once.
        const sources = shareSources(files, hashes, usages, drafts);
        for (let start = 0; start < order.length; start += COMPILE_BATCH) {
          const batch = order.slice(start, start + COMPILE_BATCH);
          const typeAt = (i: number): string => resourceOf(batch[i]!).type;
          await compileInParallel(jobs, sources, {
            todo: batch,
            embedded: (i) => embedded.has(typeAt(i)),
            embeds: (i) => RESOURCE_COMPILERS[typeAt(i)]!.embeds.length > 0,
          }, { out, fontDirs: options.fontDirs ?? [], onOutcome: (i, outcome, ms) => { record(batch[i]!, outcome, ms); }, compileHere: (path) => compileResource(path, env) });
        }
      } finally {
        if (!options.pool) await jobs.shutdown();
      }
    } else {
      for (const path of todo) {
        const started = performance.now();
        record(path, await compileResource(path, env), performance.now() - started);
        while (inFlight.length >= FLUSHES_IN_FLIGHT) await inFlight.shift();
      }
    }
  } finally {
    // Every output in place (or its failure known) before the manifest names it, even when the
    // compile stops early.
    for (const [path, done] of flushes) {
      try {
        await done;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcomes.set(path, { ok: false, error: new CompileError(path, 1, 1, `the compiler failed: ${message}`, 'Report this with the file') });
      }
    }
  }
  todo.forEach((path) => {
    const outcome = outcomes.get(path)!;
    if (outcome.ok) {
      manifest.resources[path] = outcome.entry;
      report.compiled.push({ path, reason: reasons.get(path)! });
    } else {
      report.failed.push({ path, error: outcome.error });
      manifest.failed.push(path);
    }
  });
  // Outputs of sources that are gone.
  for (const path in previous?.resources) {
    if (files.has(path)) continue;
    rmSync(join(out, previous.resources[path]!.file), { force: true });
    report.removed.push(path);
  }
  // Encoded from the runs unchanged since the last compile of this process; not written at all when
  // the bytes are those this process last wrote and the file is still that write.
  const textCache = (options.cache?.kept.get(MANIFEST_TEXT_KEY) as ManifestTextCache | undefined) ?? new ManifestTextCache();
  const bytes = manifestBytes(manifest, textCache);
  const written = options.cache?.kept.get(MANIFEST_KEY) as KeptManifest | undefined;
  const signature = textCache.unchanged && written?.signature !== undefined && written.signature === manifestSignature(out) ? written.signature : undefined;
  if (signature === undefined) writeFileAtomic(out, MANIFEST_FILE, bytes);
  options.cache?.kept.set(MANIFEST_TEXT_KEY, textCache);
  options.cache?.kept.set(MANIFEST_KEY, { manifest, signature: signature ?? manifestSignature(out) });
  report.ms = performance.now() - started;
  return report;
}

function checkWorkers(workers = 1): number {
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) throw new EngineError(`workers must be a whole number from 1 to 256, got ${workers}.`);
  return workers;
}

/** Workers for a compile of `count` resources (those started early, if any), or undefined to compile on this thread. */
async function workersFor(count: number, options: CompileOptions, early: EarlyWorkers | undefined): Promise<JobSystem | undefined> {
  const workers = checkWorkers(options.workers);
  if (count < (options.parallelFrom ?? 64)) return undefined;
  if (options.pool) return options.pool.get();
  if (workers === 1) return undefined;
  if (early) {
    early.taken = true;
    return early.pool;
  }
  return startCompileWorkers(workers, options.kernels);
}

/**
 * Task order for the workers: embedded types first (the barrier their embedders wait for), then
 * the rest by expected cost, fonts first (their distance fields cost the most per byte), then
 * the largest sources, so no long resource starts last.
 */
function orderForWorkers(paths: string[], files: ReadonlyMap<string, Uint8Array>): string[] {
  const embedded = new Set(Object.values(RESOURCE_COMPILERS).flatMap((c) => c.embeds));
  const rank = (path: string): number => {
    const type = resourceOf(path).type;
    return embedded.has(type) ? 0 : type === 'font' ? 1 : 2;
  };
  return paths
    .map((path, i) => ({ path, i, rank: rank(path), size: files.get(path)!.length }))
    .sort((a, b) => a.rank - b.rank || b.size - a.size || a.i - b.i)
    .map((entry) => entry.path);
}

/** Resources per parallel batch: below the compile pool's task table (COMPILE_CAPACITY) with room for the barrier. */
const COMPILE_BATCH = COMPILE_CAPACITY / 2;

/** Outputs of a compile on this thread whose flush to disk may be pending at once. */
const FLUSHES_IN_FLIGHT = 8;

const GRAPH_KEY = 'dependency-graph';
const MANIFEST_KEY = 'manifest';
const MANIFEST_TEXT_KEY = 'manifest-text';
const LISTING_KEY = 'output-listing';

interface KeptManifest {
  manifest: Manifest;
  /** The file's signature right after this process wrote it. */
  signature: string | undefined;
}

function manifestSignature(out: string): string | undefined {
  try {
    return signatureOf(statSync(join(out, MANIFEST_FILE), { bigint: true }));
  } catch {
    return undefined;
  }
}

/** The previous manifest: the one this process wrote last while the file is unchanged, else read and checked. */
function readPreviousManifest(out: string, cache: ProjectCache | undefined): Manifest | undefined {
  const kept = cache?.kept.get(MANIFEST_KEY) as KeptManifest | undefined;
  if (kept?.signature !== undefined && kept.signature === manifestSignature(out)) return kept.manifest;
  return readManifest(out);
}

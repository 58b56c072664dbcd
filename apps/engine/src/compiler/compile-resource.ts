// Compiles one resource: its source in, its output written (atomically) and its manifest entry
// out, or the CompileError that stops it. Nothing here depends on another resource's output,
// so the same function serves the one-thread compile and the @cuttle/jobs workers
// (parallel/compile-kernels.ts), and both write the same bytes.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { resourceOf, type JsonValue } from '@cuttle/tools-merge';
import { CompileError } from '../errors.ts';
import { writeFileAtomic, writeFileAtomicLater } from './atomic-write.ts';
import { emptySource, failAt, parseDocument, type CompileContext, type PathKey, type ProjectResources } from './context.ts';
import { contentHash } from './hash.ts';
import type { InputFiles } from './input-files.ts';
import type { ManifestEntry } from './manifest.ts';
import { usageOf, type TextureUsages } from '../textures/texture-usage.ts';
import { outputFileOf } from './manifest-check.ts';
import { RESOURCE_COMPILERS } from './resource-compilers.ts';

export interface CompileEnvironment {
  /** The output folder. */
  out: string;
  /** The project's files, and files in --font-dir folders. */
  inputFiles: InputFiles;
  resources: ProjectResources;
  /** The source text of a project file (UTF-8). */
  text(path: string): string;
  /** A project file's content hash, known from the scan (undefined for files outside the project). */
  hashOf(path: string): string | undefined;
  /** What the materials use each texture for (textures/texture-usage.ts). */
  textureUsages: TextureUsages;
  /** Textures rebuilt now are written as drafts (CompileOptions.textureDrafts). */
  textureDrafts: boolean;
  /**
   * Given, an output's flush to disk and rename are left to finish later (writeFileAtomicLater)
   * and handed here; the caller waits for them before it writes the manifest. Without it each
   * output is in place before compileResource returns.
   */
  flushLater?: (path: string, done: Promise<void>) => void;
}

/** What the rest of the project decides about how `path` compiles (recorded in its manifest entry). */
export function settingsOf(path: string, type: string, usages: TextureUsages, drafts: boolean): Record<string, string> | undefined {
  // A GLB built in the watch loop holds its embedded images as drafts too: recorded, so the next
  // compile without drafts rebuilds it and compresses them.
  if (type === 'glb') return drafts ? { quality: 'draft' } : undefined;
  if (type !== 'png') return undefined;
  const usage = usageOf(usages, path);
  return drafts ? { usage, quality: 'draft' } : { usage };
}

/**
 * Whether an output built with `recorded` settings must be rebuilt now: its usage changed, or it
 * is a draft and this compile writes final textures (a draft compile keeps final outputs).
 */
export function settingsStale(recorded: Record<string, string> | undefined, now: Record<string, string> | undefined): boolean {
  if (recorded?.usage !== now?.usage) return true;
  return recorded?.quality === 'draft' && now?.quality !== 'draft';
}

/** `writeMs`: of the compile, the time spent hashing and writing the output (the rest is the resource's compiler). */
export type ResourceOutcome = { ok: true; entry: ManifestEntry; writeMs: number } | { ok: false; error: CompileError };

export async function compileResource(path: string, env: CompileEnvironment): Promise<ResourceOutcome> {
  const id = resourceOf(path);
  const bytes = env.inputFiles.files.get(path)!;
  const inputs: Record<string, string> = { [path]: env.hashOf(path) ?? contentHash(bytes) };
  const settings = settingsOf(path, id.type, env.textureUsages, env.textureDrafts);
  let doc: JsonValue | undefined;
  const text = (): string => env.text(path);
  const ctx: CompileContext = {
    path,
    type: id.type,
    name: id.name,
    bytes,
    textureUsage: usageOf(env.textureUsages, path),
    textureConflict: env.textureUsages.conflicts.get(path),
    textureDraft: env.textureDrafts,
    resources: env.resources,
    previousOutput: () => {
      try {
        return new Uint8Array(readFileSync(join(env.out, outputFileOf(path))));
      } catch {
        return undefined;
      }
    },
    text,
    document: () => (doc ??= parseDocument(path, text())),
    readInput: (input: string, at: readonly PathKey[]) => {
      const data = env.inputFiles.read(input);
      const absolute = isAbsolute(input);
      if (data === 'refused') return failAt(path, text(), at, `reads ${input}, which is outside the project${absolute ? ' and every --font-dir' : ''}`, absolute ? 'Copy the file into the project and name it by its project path, or compile with --font-dir <its folder> (fonts only)' : 'Name a file inside the project');
      if (data === 'missing') return failAt(path, text(), at, `reads ${input}, which does not exist`, absolute ? 'Install the font or name another one' : 'Add the file to the project or fix the path');
      inputs[input] = env.hashOf(input) ?? contentHash(data);
      return data;
    },
    requireResource: (type: string, name: string, at: readonly PathKey[]) => {
      if (env.resources.exists({ type, name })) return;
      const similar = env.resources.resources().filter((r) => r.type === type).map((r) => r.name);
      const hint = similar.length > 0 ? `Create ${name}.${type}, or use one of: ${similar.slice(0, 5).join(', ')}${similar.length > 5 ? ', ...' : ''}` : `Create ${name}.${type}`;
      failAt(path, text(), at, `refers to ${name}.${type}, which does not exist`, hint);
    },
    fail: (at, problem, fix) => failAt(path, text(), at, problem, fix),
  };
  try {
    if (bytes.length === 0) throw emptySource(path);
    const output = await RESOURCE_COMPILERS[id.type]!.compile(ctx);
    const written = performance.now();
    const file = outputFileOf(path);
    if (env.flushLater) env.flushLater(path, writeFileAtomicLater(env.out, file, output));
    else writeFileAtomic(env.out, file, output);
    const entry: ManifestEntry = { type: id.type, name: id.name, file, hash: contentHash(output), size: output.length, inputs, ...(settings ? { settings } : {}) };
    return { ok: true, entry, writeMs: performance.now() - written };
  } catch (error) {
    return { ok: false, error: error instanceof CompileError ? error : new CompileError(path, 1, 1, `the compiler failed: ${error instanceof Error ? error.message : String(error)}`, 'Report this with the file') };
  }
}

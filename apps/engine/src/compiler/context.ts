// What a resource compiler gets: its source (text and parsed document), which resources the
// project has, and helpers that turn problems into CompileErrors with line and column.
// Every file it reads goes through `readInput`, so the build records it with its hash.
import type { JsonValue, ResourceId } from '@cuttle/tools-merge';
import { parseSjson, SjsonParseError } from '@cuttle/tools-merge';
import * as v from 'valibot';
import { CompileError } from '../errors.ts';
import type { TextureUsage } from '../textures/texture-usage.ts';
import { locate } from './locate.ts';

export type PathKey = string | number;

/** Which resources exist: the project's files (DependencyGraph answers it, and so does a list of paths). */
export interface ProjectResources {
  exists(id: ResourceId): boolean;
  /** Every resource, sorted by path. */
  resources(): ResourceId[];
}

export interface CompileContext {
  /** Project-relative path of the source, e.g. `levels/courtyard.level`. */
  readonly path: string;
  readonly type: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** For a texture: what the materials that name it use it for (colour, a normal map, or data). */
  readonly textureUsage: TextureUsage;
  /** For a texture: why no one usage serves the materials that name it (its compile fails with it). */
  readonly textureConflict: string | undefined;
  /** For a texture: write a draft (RGBA8, no compression; the watch loop's fast path). */
  readonly textureDraft: boolean;
  /** Which resources exist in the project. */
  readonly resources: ProjectResources;
  /**
   * The output this resource's last compile wrote, if there is one: a compiler may reuse parts
   * of it that it can prove unchanged (a GLB's encoded images). Not validated: parse it defensively.
   */
  previousOutput(): Uint8Array | undefined;
  /** Source text (UTF-8). */
  text(): string;
  /** The parsed SJSON/JSON document; parse errors become CompileErrors. */
  document(): JsonValue;
  /**
   * Reads another file and records it as an input: a project path, or an absolute path inside a
   * folder named with --font-dir; anything else fails without the file being opened.
   */
  readInput(path: string, at: readonly PathKey[]): Uint8Array;
  /** Checks that a referenced resource exists; a missing one fails at the reference. */
  requireResource(type: string, name: string, at: readonly PathKey[]): void;
  fail(at: readonly PathKey[], problem: string, fix: string): never;
}

/** Validates `doc` against a valibot schema; the first issue fails at its path. */
export function validate<S extends v.GenericSchema>(ctx: CompileContext, schema: S, doc: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, doc);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path: PathKey[] = (issue.path ?? []).map((item) => item.key as PathKey);
  const where = path.length === 0 ? 'the file' : path.join('.');
  // A required key that is not there (a truncated save, say) is pointed at where the text starts.
  if (issue.kind === 'schema' && issue.input === undefined && path.length > 0) return ctx.fail(path.slice(0, -1), `${where} is required but missing`, `Add ${String(path[path.length - 1])} there (see the resource format in apps/engine/README.md)`);
  return ctx.fail(path, `${where}: ${issue.message}`, 'Fix the value (see the resource format in apps/engine/README.md)');
}

export function parseDocument(path: string, text: string): JsonValue {
  // Would parse as an empty object and compile with defaults over the good output.
  if (text.trim() === '') throw emptySource(path);
  try {
    return parseSjson(text, { source: path });
  } catch (error) {
    if (error instanceof SjsonParseError) throw new CompileError(path, error.line, error.column, `does not parse: ${error.message.replace(/^.*?:\d+:\d+: /, '')}`, 'Fix the SJSON syntax there');
    throw error;
  }
}

/** What an empty source (an interrupted save leaves one) fails with. */
export function emptySource(path: string): CompileError {
  return new CompileError(path, 1, 1, 'is empty (an interrupted save leaves this)', 'Restore its contents; the previous output is kept until it compiles');
}

export function failAt(path: string, text: string, at: readonly PathKey[], problem: string, fix: string): never {
  const { line, column } = locate(text, at);
  throw new CompileError(path, line, column, problem, fix);
}

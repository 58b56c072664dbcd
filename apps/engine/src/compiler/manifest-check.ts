// The manifest is read back by the next compile, which deletes the outputs it names, and by the
// engine, which opens them: neither trusts it. Every entry must be what this compiler writes: a
// source path as the project scan gives it (relative, `/`-separated, no part empty or starting
// with a dot), the type and name of that path, and the output `<path>.cr` inside the output
// folder. One bad entry refuses the whole manifest, before any file is touched.
import { isAbsolute, resolve } from 'node:path';
import { resourceOf } from '@cuttle/tools-merge';
import * as v from 'valibot';
import { ManifestError } from '../errors.ts';
import { isInsideFolder } from './inside-folder.ts';
import type { Manifest, ManifestEntry } from './manifest-types.ts';

const HASH = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/, 'a SHA-1 content hash (40 hex digits)'));
const ENTRY = v.object({
  type: v.string(),
  name: v.string(),
  file: v.string(),
  hash: HASH,
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  inputs: v.record(v.string(), HASH),
  settings: v.optional(v.record(v.string(), v.string())),
});
const MANIFEST = v.object({
  compiler: v.string(),
  sources: v.record(v.string(), HASH),
  resources: v.record(v.string(), ENTRY),
  failed: v.array(v.string()),
});

/** The output file of a source, relative to the output folder. */
export function outputFileOf(sourcePath: string): string {
  return `${sourcePath}.cr`;
}

/** Whether `path` is a source path the project scan can produce. */
export function isSourcePath(path: string): boolean {
  return !isAbsolute(path) && path.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.includes('\0'));
}

function entryProblem(path: string, entry: ManifestEntry, out: string): string | undefined {
  if (!isSourcePath(path)) return 'is not a source path of a project';
  let id;
  try {
    id = resourceOf(path);
  } catch {
    return 'is not a resource path (name.type)';
  }
  if (entry.type !== id.type || entry.name !== id.name) return `type ${JSON.stringify(entry.type)} and name ${JSON.stringify(entry.name)} are not those of the path`;
  const expected = outputFileOf(path);
  if (entry.file !== expected) return `file ${JSON.stringify(entry.file)} is not ${JSON.stringify(expected)}, the name this compiler gives the output`;
  if (!isInsideFolder(resolve(out), resolve(out, entry.file))) return `file ${JSON.stringify(entry.file)} is outside the output folder`;
  return undefined;
}

/** `data` (a parsed manifest.json of the output folder `out`) as a Manifest; throws ManifestError. */
export function checkManifest(data: unknown, where: string, out: string): Manifest {
  const result = v.safeParse(MANIFEST, data);
  if (!result.success) {
    const issue = result.issues[0];
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
    throw new ManifestError(where, path === '' ? 'the file' : path, issue.message);
  }
  for (const [path, entry] of Object.entries(result.output.resources)) {
    const problem = entryProblem(path, entry, out);
    if (problem !== undefined) throw new ManifestError(where, `resources[${JSON.stringify(path)}]`, problem);
  }
  return result.output;
}

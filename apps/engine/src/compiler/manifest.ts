// The manifest: what the compiler produced and from what. The runtime finds resources through
// it (type, name → file and content hash); the next compile reads it as its build state. Both
// read it through `readManifest`, which refuses entries this compiler would not have written.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManifestError } from '../errors.ts';
import { checkManifest } from './manifest-check.ts';
import type { Manifest } from './manifest-types.ts';

export type { Manifest, ManifestEntry } from './manifest-types.ts';

export const MANIFEST_FILE = 'manifest.json';

/** The manifest of the output folder `out`; undefined when there is none; ManifestError when it is not one this compiler wrote. */
export function readManifest(out: string): Manifest | undefined {
  const path = join(out, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ManifestError(path, 'the file', `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the file.
    throw new ManifestError(path, 'the file', 'is not JSON');
  }
  return checkManifest(data, path, out);
}

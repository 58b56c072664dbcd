// The manifest: what the compiler produced and from what. The runtime finds resources through
// it (type, name → file and content hash); the next compile reads it as its build state.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';

export interface ManifestEntry {
  type: string;
  name: string;
  /** Output file, relative to the output folder. */
  file: string;
  /** Content hash of the output. */
  hash: string;
  size: number;
  /** Every file the compile read (project-relative or absolute) with its content hash. */
  inputs: Record<string, string>;
}

export interface Manifest {
  /** The compiler (and runtime format) version that wrote this data. */
  compiler: string;
  /** Hash of every source file at the last compile. */
  sources: Record<string, string>;
  /** Compiled resources by source path. */
  resources: Record<string, ManifestEntry>;
  /** Sources whose last compile failed (retried next time; their previous output is kept). */
  failed: string[];
}

export function readManifest(out: string): Manifest | undefined {
  const path = join(out, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    if (typeof manifest.compiler !== 'string' || typeof manifest.resources !== 'object') return undefined;
    return manifest;
  } catch {
    return undefined;
  }
}

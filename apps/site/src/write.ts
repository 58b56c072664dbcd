// Writes site files, creating folders as needed, and counts what was written.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { siteDir } from './paths.ts';

export const written = { pages: 0, files: 0 };

/** Writes `content` to `path` (relative to the site root). */
export function writeSiteFile(path: string, content: string): void {
  const target = join(siteDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  if (path.endsWith('.html')) written.pages++;
  else written.files++;
}

export function copySiteFile(from: string, path: string): void {
  const target = join(siteDir, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(from, target);
  written.files++;
}

import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` lies strictly inside `folder` (both absolute, or both relative to one place). */
export function isInsideFolder(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

// Escaping and relative paths between site pages.
import { posix } from 'node:path';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/** The link from site page `from` to site path `to` (both relative to the site root, e.g. 'packages/ecs/index.html'). */
export function relativeUrl(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to);
  return relative === '' ? './' : relative;
}

/** GitHub-style heading ids: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

// Markdown to HTML with marked: links rewritten for the site (see links.ts), headings given
// GitHub-style ids so "#section" links keep working, and an optional block after each table.
import { Marked, type Token, type Tokens } from 'marked';
import { escapeHtml, slugify } from './html.ts';
import type { SiteLinks } from './links.ts';

export interface MarkdownSource {
  /** The markdown file's path from the repository root, for resolving its relative links. */
  repoFile: string;
  /** The site page it becomes, e.g. 'packages/ecs/index.html'. */
  sitePage: string;
  text: string;
  /** HTML to place after each top-level table (benchmark charts). */
  afterTable?: (table: Tokens.Table) => string;
}

export function renderMarkdown(links: SiteLinks, { repoFile, sitePage, text, afterTable }: MarkdownSource): string {
  const usedIds = new Map<string, number>();
  const resolve = (href: string): string | undefined => links.resolve(repoFile, sitePage, href);
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text: raw }) {
        const base = slugify(raw.replace(/`/g, '')) || 'section';
        const seen = usedIds.get(base) ?? 0;
        usedIds.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen}`;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const target = resolve(href);
        if (target === undefined) return `<span class="dropped-link" title="${escapeHtml(`in the repository: ${href}`)}">${inner}</span>`;
        return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
      },
      image({ href, title, text: alt }) {
        const target = resolve(href);
        if (target === undefined) return escapeHtml(alt);
        return `<img src="${escapeHtml(target)}" alt="${escapeHtml(alt)}"${title ? ` title="${escapeHtml(title)}"` : ''}>`;
      },
    },
  });
  const tokens = marked.lexer(text);
  if (afterTable) {
    const withExtras: Token[] = [];
    for (const token of tokens) {
      withExtras.push(token);
      if (token.type === 'table') {
        const extra = afterTable(token as Tokens.Table);
        if (extra) withExtras.push({ type: 'html', raw: extra, text: extra, block: true, pre: false });
      }
    }
    return marked.parser(Object.assign(withExtras, { links: tokens.links }));
  }
  return marked.parser(tokens);
}

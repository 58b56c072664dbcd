// The page shell every site page shares: one stylesheet, a top bar, the content.
import { escapeHtml, relativeUrl } from './html.ts';

export interface PageShell {
  /** The page's path from the site root, e.g. 'packages/ecs/index.html'. */
  path: string;
  title: string;
  /** HTML of the page body. */
  body: string;
}

export function renderPage({ path, title, body }: PageShell): string {
  const to = (target: string): string => escapeHtml(relativeUrl(path, target));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="${to('demo/favicon.svg')}">
<link rel="stylesheet" href="${to('style.css')}">
</head>
<body>
<header class="top"><a class="brand" href="${to('index.html')}">Cuttle</a><nav><a href="${to('index.html')}">Packages</a><a href="${to('demo/index.html')}">Demo</a></nav></header>
<main>
${body}
</main>
</body>
</html>
`;
}

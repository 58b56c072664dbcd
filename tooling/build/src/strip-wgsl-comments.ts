// WGSL without its comments, for what we publish: the shaders keep their comments in the
// repository (they are documentation), but a user's bundle need not carry them (about a quarter
// of the GPU packages' WGSL). WGSL has no string literals, so every `//` and `/*` starts a
// comment; block comments nest, as the WGSL spec says. Line breaks are kept, so errors reported
// against a published shader still point at the right line.
export function stripWgslComments(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (source[i] === '/' && source[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (source[i] === '*' && source[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          if (source[i] === '\n') out += '\n';
          i++;
        }
      }
      continue;
    }
    out += c;
    i++;
  }
  // Trailing blanks left where comments were.
  return out.replace(/[ \t]+$/gm, '');
}

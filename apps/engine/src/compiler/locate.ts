// Where a value sits in an SJSON/JSON text: the parsers give values without positions, so
// validation problems (reported by path) are mapped back to a line and column by walking the
// text's structure again. Only used on the error path.

export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

type PathKey = string | number;

export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1, offset };
}

class Walker {
  i = 0;
  constructor(readonly s: string) {}

  skip(): void {
    const s = this.s;
    for (;;) {
      const c = s[this.i];
      if (c === undefined) return;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',') this.i++;
      else if (c === '/' && s[this.i + 1] === '/') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else if (c === '/' && s[this.i + 1] === '*') {
        const end = s.indexOf('*/', this.i + 2);
        this.i = end < 0 ? s.length : end + 2;
      } else return;
    }
  }

  /** A quoted or bare key, or a scalar; returns its text (unquoted). */
  word(stops: string): string {
    const s = this.s;
    if (s.startsWith('"""', this.i)) {
      const end = s.indexOf('"""', this.i + 3);
      const out = s.slice(this.i + 3, end < 0 ? s.length : end);
      this.i = end < 0 ? s.length : end + 3;
      return out;
    }
    if (s[this.i] === '"') {
      let j = this.i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      const raw = s.slice(this.i, j + 1);
      this.i = j + 1;
      try {
        return JSON.parse(raw) as string;
      } catch {
        return raw.slice(1, -1);
      }
    }
    const start = this.i;
    while (this.i < s.length && !stops.includes(s[this.i]!)) this.i++;
    return s.slice(start, this.i);
  }

  /** Skips one value; returns the offset of `path`'s value inside it, or -1. */
  value(path: readonly PathKey[], depth: number): number {
    this.skip();
    const here = this.i;
    if (depth === path.length) return here;
    const c = this.s[this.i];
    if (c === '{') {
      this.i++;
      return this.members('}', path, depth, here);
    }
    if (c === '[') {
      this.i++;
      let index = 0;
      for (;;) {
        this.skip();
        if (this.i >= this.s.length) return here;
        if (this.s[this.i] === ']') {
          this.i++;
          return -1;
        }
        const found = this.value(path, index === path[depth] ? depth + 1 : path.length + 1);
        if (index === path[depth]) return found;
        index++;
      }
    }
    this.word(' \t\r\n,}]');
    return -1;
  }

  members(close: string, path: readonly PathKey[], depth: number, fallback: number): number {
    for (;;) {
      this.skip();
      if (this.i >= this.s.length) return fallback;
      if (this.s[this.i] === close) {
        this.i++;
        return -1;
      }
      const keyAt = this.i;
      const key = this.word(' \t\r\n=:');
      this.skip();
      if (this.s[this.i] === '=' || this.s[this.i] === ':') this.i++;
      if (key === path[depth]) {
        const found = this.value(path, depth + 1);
        return found < 0 ? keyAt : found;
      }
      this.value(path, path.length + 1);
    }
  }
}

/**
 * Line and column of the value at `path` (object keys and array indices) in an SJSON or JSON
 * text; the nearest enclosing value found when the path does not exist in the text.
 */
export function locate(text: string, path: readonly PathKey[]): TextPosition {
  const walker = new Walker(text);
  walker.skip();
  let offset: number;
  if (text[walker.i] === '{') {
    walker.i++;
    offset = walker.members('}', path, 0, walker.i - 1);
  } else {
    offset = path.length === 0 ? walker.i : walker.members('\u0000', path, 0, walker.i);
  }
  return positionAt(text, offset < 0 ? 0 : offset);
}

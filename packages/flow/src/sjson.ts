// A small SJSON reader (the post's "slightly simplified JSON"): the root object may omit its
// braces, keys may be bare identifiers, `=` may stand for `:`, commas are optional and `//`
// and `/* */` comments are allowed. Plain JSON is a subset, so one reader serves both.
import { FlowGraphError } from './errors.ts';

/** A value of a parsed JSON or SJSON document. */
export type SjsonValue = null | boolean | number | string | SjsonValue[] | { [key: string]: SjsonValue };

/** Parses JSON or SJSON text; throws FlowGraphError (code 'parse') with the line and column. */
export function parseSjson(text: string): SjsonValue {
  return new SjsonReader(text).document();
}

class SjsonReader {
  #text: string;
  #pos = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): SjsonValue {
    this.#skip();
    let value: SjsonValue;
    if (this.#peek() === '{' || this.#peek() === '[') value = this.#value();
    else {
      // A lone scalar is a JSON document; anything else is an SJSON root object without braces.
      const start = this.#pos;
      const scalar = this.#tryScalarDocument();
      if (scalar.ok) return scalar.value;
      this.#pos = start;
      value = this.#members(undefined);
    }
    this.#skip();
    if (this.#pos < this.#text.length) this.#fail(`unexpected "${this.#peek()}" after the document`);
    return value;
  }

  #tryScalarDocument(): { ok: true; value: SjsonValue } | { ok: false } {
    try {
      const value = this.#value();
      this.#skip();
      return this.#pos >= this.#text.length ? { ok: true, value } : { ok: false };
    } catch {
      return { ok: false };
    }
  }

  #value(): SjsonValue {
    this.#skip();
    const c = this.#peek();
    if (c === '{') {
      this.#pos++;
      return this.#members('}');
    }
    if (c === '[') {
      this.#pos++;
      const items: SjsonValue[] = [];
      for (;;) {
        this.#skipSeparators();
        if (this.#peek() === ']') {
          this.#pos++;
          return items;
        }
        if (this.#pos >= this.#text.length) this.#fail('unterminated array: add "]"');
        items.push(this.#value());
      }
    }
    if (c === '"') return this.#string();
    const word = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.#text.slice(this.#pos, this.#pos + 64));
    if (!word) this.#fail(c === '' ? 'unexpected end of text: a value is missing' : `unexpected "${c}": expected a value`);
    this.#pos += word[0].length;
    if (word[0] === 'true') return true;
    if (word[0] === 'false') return false;
    if (word[0] === 'null') return null;
    return Number(word[0]);
  }

  #members(close: '}' | undefined): Record<string, SjsonValue> {
    const object: Record<string, SjsonValue> = {};
    for (;;) {
      this.#skipSeparators();
      if (close !== undefined && this.#peek() === close) {
        this.#pos++;
        return object;
      }
      if (this.#pos >= this.#text.length) {
        if (close === undefined) return object;
        this.#fail('unterminated object: add "}"');
      }
      const key = this.#peek() === '"' ? this.#string() : this.#identifier();
      this.#skip();
      const sep = this.#peek();
      if (sep !== ':' && sep !== '=') this.#fail(`expected ":" or "=" after key "${key}"`);
      this.#pos++;
      if (Object.hasOwn(object, key)) this.#fail(`duplicate key "${key}"`);
      // defineProperty, not assignment: a "__proto__" key is data, never the prototype.
      Object.defineProperty(object, key, { value: this.#value(), enumerable: true, writable: true, configurable: true });
    }
  }

  #identifier(): string {
    const match = /^[A-Za-z_$][\w$]*/.exec(this.#text.slice(this.#pos, this.#pos + 256));
    if (!match) this.#fail(`unexpected "${this.#peek()}": expected a key`);
    this.#pos += match[0].length;
    return match[0];
  }

  #string(): string {
    // JSON string syntax (escapes included) is what JSON.parse reads; find the closing quote.
    const start = this.#pos;
    let i = start + 1;
    while (i < this.#text.length && this.#text[i] !== '"') i += this.#text[i] === '\\' ? 2 : 1;
    if (i >= this.#text.length) this.#fail('unterminated string: add the closing quote');
    this.#pos = i + 1;
    try {
      return JSON.parse(this.#text.slice(start, i + 1)) as string;
    } catch {
      this.#pos = start;
      return this.#fail('bad escape in string');
    }
  }

  #skipSeparators(): void {
    this.#skip();
    while (this.#peek() === ',') {
      this.#pos++;
      this.#skip();
    }
  }

  #skip(): void {
    const t = this.#text;
    for (;;) {
      const c = t.charCodeAt(this.#pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.#pos++;
      else if (c === 47 && t[this.#pos + 1] === '/') {
        const end = t.indexOf('\n', this.#pos);
        this.#pos = end < 0 ? t.length : end + 1;
      } else if (c === 47 && t[this.#pos + 1] === '*') {
        const end = t.indexOf('*/', this.#pos + 2);
        if (end < 0) this.#fail('unterminated comment: add "*/"');
        this.#pos = end + 2;
      } else return;
    }
  }

  #peek(): string {
    return this.#text[this.#pos] ?? '';
  }

  #fail(what: string): never {
    const before = this.#text.slice(0, this.#pos);
    const line = before.split('\n').length;
    const column = this.#pos - before.lastIndexOf('\n');
    throw new FlowGraphError([{ code: 'parse', node: '', socket: '', message: `Flow source ${line}:${column}: ${what}.` }]);
  }
}

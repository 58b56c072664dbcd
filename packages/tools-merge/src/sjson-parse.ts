// A hand-written recursive-descent parser for SJSON (Stingray's simplified JSON) that also reads
// plain JSON: an implicit root object, `=` or `:` between key and value, bare keys, optional
// commas, `//` and `/* */` comments, and `"""` raw multi-line strings. Bare keys follow the
// engines' rule (a key runs to whitespace, `=` or `:`), so the GUID-keyed maps BitSquid's
// descendants write (`#43d2ce7f-7d87-46b7-9539-9fc5c0a080cd = { ... }`) and keys with `-`, `.`
// or `$` read as they are. It walks char codes of one string with a single cursor and slices
// strings without escapes straight out of the source, so tens of megabytes parse at
// JSON.parse-like speeds. Errors carry line and column. `parseSjsonDocument` also keeps the
// comments, anchored to the member or element they belong to (see comments.ts).
import type { JsonObject, JsonValue } from './api.ts';
import { anchorComments, type RawComment, type SjsonDocument } from './comments.ts';
import { SjsonParseError } from './errors.ts';
import { ownSet } from './own.ts';

/** Nesting beyond this is refused with a parse error rather than a stack overflow. */
export const MAX_DEPTH = 2000;

const TAB = 9, LF = 10, CR = 13, SPACE = 32, QUOTE = 34, PLUS = 43, COMMA = 44, MINUS = 45, DOT = 46;
const SLASH = 47, ZERO = 48, NINE = 57, COLON = 58, EQUALS = 61, BACKSLASH = 92;
const OPEN_BRACKET = 91, CLOSE_BRACKET = 93, OPEN_BRACE = 123, CLOSE_BRACE = 125, STAR = 42;

// Word characters: letters, digits, `_ - . $ / @`; a number or literal running into one is an error.
const BARE = new Uint8Array(128);
// Bare-key characters, as the engines read keys: anything up to whitespace, `=` or `:`, less the
// characters that would make the text ambiguous (quotes, brackets, braces, commas). Non-ASCII
// characters are key characters too (see isKeyChar).
const KEY = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  BARE[c] = /[A-Za-z0-9_\-.$/@]/.test(ch) ? 1 : 0;
  KEY[c] = c > 32 && c < 127 && !'=:"{}[],'.includes(ch) ? 1 : 0;
}

function isKeyChar(c: number): boolean {
  return c < 128 ? KEY[c] === 1 : c === c && c !== 0xfeff && c !== 0xa0 && c !== 0x2028 && c !== 0x2029;
}

/** Options of `parseSjson` and `parseSjsonDocument`. */
export interface ParseOptions {
  /** Named in error messages (a file path). */
  source?: string;
  /** Id keys used to anchor comments inside id arrays (`parseSjsonDocument` only; see `MergeOptions.idKeys`). */
  idKeys?: readonly string[];
}

/**
 * Parses SJSON or JSON text. An empty document is an empty object. Throws `SjsonParseError`
 * with the line and column of the first bad character.
 */
export function parseSjson(text: string, options: ParseOptions = {}): JsonValue {
  if (typeof text !== 'string') {
    throw new SjsonParseError(`expected the document as a string, got ${typeof text}`, 1, 1, 0, options.source);
  }
  const native = parseStrictJson(text);
  if (native !== undefined) return native;
  const parser = new Parser(text, options.source, false);
  return parser.document();
}

/**
 * Parses SJSON or JSON text and keeps its comments: each one anchored above the member or array
 * element it precedes, after the member it follows on the same line, or at the end of its object
 * or array. `writeSjson(doc.value, { comments: doc.comments })` writes them back.
 */
export function parseSjsonDocument(text: string, options: ParseOptions = {}): SjsonDocument {
  if (typeof text !== 'string') {
    throw new SjsonParseError(`expected the document as a string, got ${typeof text}`, 1, 1, 0, options.source);
  }
  const parser = new Parser(text, options.source, true);
  const value = parser.document();
  return { value, comments: anchorComments(value, parser.comments, options.idKeys) };
}

/**
 * Plain JSON goes through the engine's JSON.parse (several times faster; it too makes
 * `__proto__` an own key), then one iterative walk checks what JSON.parse allows and we do not:
 * nesting past MAX_DEPTH and numbers that overflow to Infinity. Anything else, comments and SJSON
 * included, falls to the hand-written parser, which also reports the line and column.
 */
function parseStrictJson(text: string): JsonValue | undefined {
  let p = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let c = text.charCodeAt(p);
  while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++p);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(p === 0 ? text : text.slice(p)) as JsonValue;
  } catch {
    return undefined;
  }
  // The text opened with { or [, so the value is a container.
  const nodes: (JsonValue[] | JsonObject | number)[] = [value as JsonValue[] | JsonObject];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return undefined;
      continue;
    }
    if (depth >= MAX_DEPTH) return undefined;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as JsonValue; // (`!` would also strip null)
      if (typeof child === 'number' || (child !== null && typeof child === 'object')) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return value;
}

/** A comment seen by `skip` and not yet anchored. */
interface PendingComment {
  text: string;
  /** Nothing but whitespace before it on its line. */
  ownLine: boolean;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly text: string;
  private readonly length: number;
  private readonly source: string | undefined;
  private readonly keepComments: boolean;
  private readonly pending: PendingComment[] = [];
  /** Comments anchored to (container, key or index); paths are worked out after the parse. */
  readonly comments: RawComment[] = [];

  constructor(text: string, source: string | undefined, keepComments: boolean) {
    this.text = text;
    this.length = text.length;
    this.source = source;
    this.keepComments = keepComments;
    // A byte-order mark is not content.
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  document(): JsonValue {
    this.skip();
    if (this.pos >= this.length) {
      const empty = {};
      this.anchorPending(empty, null, 'end');
      return empty;
    }
    const c = this.text.charCodeAt(this.pos);
    let value: JsonValue;
    if (c === OPEN_BRACE || c === OPEN_BRACKET || !this.startsImplicitRoot()) {
      // Comments above an explicit root `{` or `[` belong at the top of the document.
      const above = this.pending.splice(0);
      const at = this.comments.length;
      value = this.value();
      if (above.length > 0 && value !== null && typeof value === 'object') {
        this.comments.splice(at, 0, { container: value, key: null, place: 'before', text: above.map((p) => p.text) });
      }
    } else {
      value = this.members(-1);
    }
    this.skip();
    if (this.pos < this.length) this.fail('expected the end of the document; remove the extra text');
    if (value !== null && typeof value === 'object') this.anchorPending(value, null, 'end');
    return value;
  }

  /**
   * Anchors the pending comments: the ones on the line of the previous member (`previous`) follow
   * it; the rest go above `key` of `container`, or to its end when key is null.
   */
  private anchorPending(container: JsonObject | JsonValue[], key: string | number | null, place: 'before' | 'end', previous?: string | number): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    let i = 0;
    if (previous !== undefined) {
      while (i < pending.length && !pending[i]!.ownLine) i++;
      if (i > 0) this.comments.push({ container, key: previous, place: 'after', text: pending.slice(0, i).map((p) => p.text) });
    }
    if (i < pending.length) this.comments.push({ container, key, place, text: pending.slice(i).map((p) => p.text) });
    pending.length = 0;
  }

  /** True when the document opens with `key =` or `key :`, i.e. has an implicit root object. */
  private startsImplicitRoot(): boolean {
    const save = this.pos;
    let result = false;
    const c = this.text.charCodeAt(this.pos);
    if (c === QUOTE) {
      if (!this.text.startsWith('"""', this.pos)) {
        this.quotedString();
        this.skip();
        const d = this.text.charCodeAt(this.pos);
        result = d === EQUALS || d === COLON;
      }
    } else if (isKeyChar(c)) {
      const word = this.bareKey();
      this.skip();
      const d = this.text.charCodeAt(this.pos);
      result = word.length > 0 && (d === EQUALS || d === COLON);
    }
    this.pos = save;
    return result;
  }

  private value(): JsonValue {
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    if (c === OPEN_BRACE) {
      this.pos++;
      if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels; flatten the data`);
      const object = this.members(CLOSE_BRACE);
      this.depth--;
      return object;
    }
    if (c === OPEN_BRACKET) {
      this.pos++;
      if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels; flatten the data`);
      const array = this.elements();
      this.depth--;
      return array;
    }
    if (c === QUOTE) {
      if (text.charCodeAt(this.pos + 1) === QUOTE && text.charCodeAt(this.pos + 2) === QUOTE) return this.rawString();
      return this.quotedString();
    }
    if (c === MINUS || c === PLUS || (c >= ZERO && c <= NINE) || c === DOT) return this.number();
    if (text.startsWith('true', this.pos)) return this.literal(4, true);
    if (text.startsWith('false', this.pos)) return this.literal(5, false);
    if (text.startsWith('null', this.pos)) return this.literal(4, null);
    if (this.pos >= this.length) this.fail('unexpected end of the document; a value is missing');
    return this.fail(`unexpected character ${JSON.stringify(text[this.pos])}; expected a value`);
  }

  private literal(length: number, value: JsonValue): JsonValue {
    const next = this.text.charCodeAt(this.pos + length);
    if (next < 128 && BARE[next] === 1) this.fail('unknown word; quote strings (values are never bare words)');
    this.pos += length;
    return value;
  }

  /** Object members up to `close` (a char code), or to the end of the text when close is -1. */
  private members(close: number): JsonObject {
    const object: JsonObject = {};
    const text = this.text;
    const keep = this.keepComments;
    let previous: string | undefined;
    for (;;) {
      this.skip();
      if (this.pos >= this.length) {
        if (close === -1) {
          if (keep) this.anchorPending(object, null, 'end', previous);
          return object;
        }
        this.fail('unexpected end of the document; an object is missing its "}"');
      }
      let c = text.charCodeAt(this.pos);
      if (c === close) {
        if (keep) this.anchorPending(object, null, 'end', previous);
        this.pos++;
        return object;
      }
      let key: string;
      if (c === QUOTE) {
        key = this.quotedString();
      } else if (isKeyChar(c)) {
        key = this.bareKey();
      } else {
        return this.fail(`unexpected character ${JSON.stringify(text[this.pos])}; expected a key`);
      }
      if (keep) this.anchorPending(object, key, 'before', previous);
      previous = key;
      this.skip();
      c = text.charCodeAt(this.pos);
      if (c !== EQUALS && c !== COLON) this.fail(`expected "=" or ":" after the key ${JSON.stringify(key)}`);
      this.pos++;
      this.skip();
      ownSet(object, key, this.value());
      this.skip();
      if (text.charCodeAt(this.pos) === COMMA) this.pos++;
    }
  }

  private elements(): JsonValue[] {
    const array: JsonValue[] = [];
    const text = this.text;
    const keep = this.keepComments;
    for (;;) {
      this.skip();
      if (this.pos >= this.length) this.fail('unexpected end of the document; an array is missing its "]"');
      if (text.charCodeAt(this.pos) === CLOSE_BRACKET) {
        if (keep) this.anchorPending(array, null, 'end', array.length > 0 ? array.length - 1 : undefined);
        this.pos++;
        return array;
      }
      if (keep) this.anchorPending(array, array.length, 'before', array.length > 0 ? array.length - 1 : undefined);
      array.push(this.value());
      this.skip();
      if (text.charCodeAt(this.pos) === COMMA) this.pos++;
    }
  }

  private bareKey(): string {
    const start = this.pos;
    const text = this.text;
    let p = this.pos;
    for (;;) {
      const c = text.charCodeAt(p);
      if (p < this.length && isKeyChar(c)) p++;
      else break;
    }
    this.pos = p;
    return text.slice(start, p);
  }

  private quotedString(): string {
    const text = this.text;
    const start = ++this.pos;
    let p = start;
    // Fast path: no escapes, slice straight from the source.
    for (;;) {
      if (p >= this.length) {
        this.pos = start - 1;
        this.fail('unterminated string; add the closing quote');
      }
      const c = text.charCodeAt(p);
      if (c === QUOTE) {
        this.pos = p + 1;
        return text.slice(start, p);
      }
      if (c === BACKSLASH) break;
      p++;
    }
    let out = text.slice(start, p);
    for (;;) {
      if (p >= this.length) {
        this.pos = start - 1;
        this.fail('unterminated string; add the closing quote');
      }
      const c = text.charCodeAt(p);
      if (c === QUOTE) {
        this.pos = p + 1;
        return out;
      }
      if (c !== BACKSLASH) {
        const runStart = p;
        while (p < this.length) {
          const d = text.charCodeAt(p);
          if (d === QUOTE || d === BACKSLASH) break;
          p++;
        }
        out += text.slice(runStart, p);
        continue;
      }
      const e = text[p + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = text.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = p;
            this.fail('bad \\u escape; write four hex digits');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          this.pos = p;
          this.fail(`unknown escape \\${e ?? ''}; escape a backslash as \\\\`);
      }
      p += 2;
    }
  }

  private rawString(): string {
    const start = this.pos + 3;
    const end = this.text.indexOf('"""', start);
    if (end < 0) this.fail('unterminated """ string; close it with """');
    this.pos = end + 3;
    return this.text.slice(start, end);
  }

  private number(): number {
    const text = this.text;
    const start = this.pos;
    let p = start;
    let c = text.charCodeAt(p);
    if (c === MINUS || c === PLUS) c = text.charCodeAt(++p);
    // Fast path: a plain integer is accumulated directly.
    let integer = 0;
    let digits = 0;
    while (c >= ZERO && c <= NINE) {
      integer = integer * 10 + (c - ZERO);
      digits++;
      c = text.charCodeAt(++p);
    }
    if (digits > 0 && digits < 16 && c !== DOT && c !== 101 && c !== 69 && !(c < 128 && BARE[c] === 1)) {
      this.pos = p;
      return text.charCodeAt(start) === MINUS ? -integer : integer;
    }
    while ((c >= ZERO && c <= NINE) || c === DOT || c === 101 || c === 69 || ((c === MINUS || c === PLUS) && (text.charCodeAt(p - 1) | 32) === 101)) {
      if (c >= ZERO && c <= NINE) digits++;
      c = text.charCodeAt(++p);
    }
    const slice = text.slice(start, p);
    const value = digits > 0 ? Number(slice) : Number.NaN;
    if (Number.isNaN(value) || !Number.isFinite(value)) this.fail(`bad number ${JSON.stringify(slice)}`);
    if (c < 128 && BARE[c] === 1) {
      this.pos = p;
      this.fail('bad number; a number runs straight into a word');
    }
    this.pos = p;
    return value;
  }

  /** Skips whitespace, commas-free: spaces, tabs, newlines and both comment styles. */
  private skip(): void {
    const text = this.text;
    let p = this.pos;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === SPACE || c === LF || c === CR || c === TAB) {
        p++;
      } else if (c === SLASH) {
        const d = text.charCodeAt(p + 1);
        if (d === SLASH) {
          const end = text.indexOf('\n', p + 2);
          if (this.keepComments) this.pending.push({ text: text.slice(p, end < 0 ? this.length : end).trimEnd(), ownLine: this.startsLine(p) });
          p = end < 0 ? this.length : end + 1;
        } else if (d === STAR) {
          const end = text.indexOf('*/', p + 2);
          if (end < 0) {
            this.pos = p;
            this.fail('unterminated /* comment; close it with */');
          }
          if (this.keepComments) this.pending.push({ text: text.slice(p, end + 2), ownLine: this.startsLine(p) });
          p = end + 2;
        } else {
          break;
        }
      } else {
        break;
      }
    }
    this.pos = p;
  }

  /** True when only spaces and tabs stand between the line's start and `p`. */
  private startsLine(p: number): boolean {
    const text = this.text;
    for (let i = p - 1; i >= 0; i--) {
      const c = text.charCodeAt(i);
      if (c === LF || c === CR) return true;
      if (c !== SPACE && c !== TAB && c !== 0xfeff) return false;
    }
    return true;
  }

  private fail(what: string): never {
    // Line and column are counted only on failure, so the happy path pays nothing for them.
    let line = 1;
    let lineStart = 0;
    const end = Math.min(this.pos, this.length);
    for (let i = 0; i < end; i++) {
      if (this.text.charCodeAt(i) === LF) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new SjsonParseError(what, line, end - lineStart + 1, end, this.source);
  }
}

// The post's `static_hash("root_point", 0x5e43bd96)`: a hash written as a literal for speed,
// checked against its string in development so a wrong literal cannot slip through, plus a
// scanner that finds every such pair in source text and reports the wrong ones (for CI).
import { ToolsMergeError } from './errors.ts';
import { hashHex, murmurHash2, murmurHash64A } from './murmur.ts';

/** Thrown by `staticHash` when a literal does not match its string. */
export class StaticHashError extends ToolsMergeError {
  /** Always `'StaticHashError'`. */
  override readonly name = 'StaticHashError';
}

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
let checking = env?.NODE_ENV !== 'production';

/** Turns the development check on or off (default: on unless NODE_ENV is 'production'). */
export function setStaticHashChecks(enabled: boolean): void {
  checking = enabled;
}

/** Returns `value`, after checking (in development) that it is the 32-bit murmur hash of `name`. */
export function staticHash(name: string, value: number): number {
  if (checking) {
    const actual = murmurHash2(name);
    if (actual !== value) throw new StaticHashError(`static_hash("${name}", ${hashHex(value)}) is wrong: the hash is ${hashHex(actual)}; fix the literal`);
  }
  return value;
}

/** The 64-bit form: `value` must be MurmurHash64A of `name`. */
export function staticHash64(name: string, value: bigint): bigint {
  if (checking) {
    const actual = murmurHash64A(name);
    if (actual !== value) throw new StaticHashError(`static_hash64("${name}", ${hashHex(value)}) is wrong: the hash is ${hashHex(actual)}; fix the literal`);
  }
  return value;
}

/** One `static_hash("name", 0x...)` pair found in source text. */
export interface StaticHashFinding {
  /** The source the text came from (a file path; `'<text>'` when none was given). */
  source: string;
  /** Line of the `static_hash` call, from 1. */
  line: number;
  /** Column of the call, from 1. */
  column: number;
  /** The hashed string. */
  name: string;
  /** The literal as written. */
  literal: string;
  /** The right literal. */
  expected: string;
  /** The hash's width: 32 (murmur2) or 64 (MurmurHash64A). */
  bits: 32 | 64;
  /** Whether the literal matches the string's hash. */
  ok: boolean;
}

// static_hash / staticHash / static_hash64 / staticHash64 ( "string" or 'string' , 0xHEX suffix? )
const PAIR = /\b(static_?[hH]ash(64)?)\s*\(\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')\s*,\s*(0[xX][0-9a-fA-F]+)(?:n|[uU]?[lL]{0,2})?\s*\)/g;

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_m, c: string) => ({ n: '\n', t: '\t', r: '\r', '0': '\0' })[c] ?? c);
}

/** Every static-hash pair in `text`, each checked. */
export function scanStaticHashes(text: string, source = '<text>'): StaticHashFinding[] {
  if (typeof text !== 'string') throw new ToolsMergeError('scanStaticHashes needs the source text as a string');
  const findings: StaticHashFinding[] = [];
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  for (const m of text.matchAll(PAIR)) {
    const bits = m[2] === '64' ? 64 : 32;
    const name = unescape(m[3] ?? m[4] ?? '');
    const literal = m[5]!;
    const expected = bits === 64 ? hashHex(murmurHash64A(name)) : hashHex(murmurHash2(name));
    const ok = bits === 64 ? BigInt(literal) === BigInt(expected) : BigInt(literal) === BigInt(expected);
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= m.index) lo = mid;
      else hi = mid - 1;
    }
    findings.push({ source, line: lo + 1, column: m.index - lineStarts[lo]! + 1, name, literal, expected, bits, ok });
  }
  return findings;
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  hashHex,
  murmurHash2,
  murmurHash64A,
  murmurHash64AInto,
  scanStaticHashes,
  setStaticHashChecks,
  staticHash,
  staticHash64,
  StaticHashError,
  ToolsMergeError,
} from '../src/index.ts';
import { checkStaticHashFiles, runCli } from '../src/node.ts';
import vectors from './fixtures/murmur-vectors.json' with { type: 'json' };

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/** SMHasher's VerificationTest: hash keys {}, {0}, {0,1}, ... with seeds 256 - i, then the hashes. */
function smhasherVerification(bits: 32 | 64): number {
  const n = bits / 8;
  const key = new Uint8Array(256);
  const hashes = new Uint8Array(n * 256);
  const hash = (k: Uint8Array, seed: number): Uint8Array => {
    if (bits === 32) return new Uint8Array(Uint32Array.of(murmurHash2(k, seed)).buffer);
    const o = murmurHash64AInto(k, new Uint32Array(2), 0, seed);
    return new Uint8Array(Uint32Array.of(o[1]!, o[0]!).buffer); // little-endian u64
  };
  for (let i = 0; i < 256; i++) {
    key[i] = i;
    hashes.set(hash(key.subarray(0, i), 256 - i), i * n);
  }
  const f = hash(hashes, 0);
  return (f[0]! | (f[1]! << 8) | (f[2]! << 16) | (f[3]! << 24)) >>> 0;
}

describe('murmur hashes', () => {
  test('match the published SMHasher verification values (MurmurHash2 0x27864C1E, MurmurHash64A 0x1F0D3804)', () => {
    expect(smhasherVerification(32)).toBe(0x27864c1e);
    expect(smhasherVerification(64)).toBe(0x1f0d3804);
  });

  test('match the post: murmur_hash("root_point") is 0x5e43bd96', () => {
    expect(murmurHash2('root_point')).toBe(0x5e43bd96);
  });

  test('match the C reference (compiled with g++, test/fixtures/make-murmur-vectors.sh) on UTF-8 strings and seeds', () => {
    expect(vectors.length).toBeGreaterThan(60);
    for (const v of vectors) {
      const data = bytes(v.bytes);
      const seed = BigInt(`0x${v.seed}`);
      expect(hashHex(murmurHash2(data, Number(seed & 0xffffffffn))), v.bytes).toBe(`0x${v.murmur2}`);
      expect(hashHex(murmurHash64A(data, seed)), v.bytes).toBe(`0x${v.murmur64a}`);
      // Strings hash their UTF-8 bytes.
      const text = new TextDecoder().decode(data);
      expect(murmurHash2(text, Number(seed & 0xffffffffn))).toBe(parseInt(v.murmur2, 16));
      const out = murmurHash64AInto(text, new Uint32Array(2), Number(seed >> 32n), Number(seed & 0xffffffffn));
      expect(hashHex((BigInt(out[0]!) << 32n) | BigInt(out[1]!))).toBe(`0x${v.murmur64a}`);
    }
  });

  test('reject bad input with a typed error', () => {
    expect(() => murmurHash2(5 as never)).toThrow(ToolsMergeError);
    expect(() => murmurHash2('a', -1)).toThrow(/u32/);
    expect(() => murmurHash64A('a', -1n)).toThrow(/u64/);
    expect(() => murmurHash64AInto('a', new Uint32Array(1))).toThrow(ToolsMergeError);
  });
});

describe('static hashes', () => {
  test('staticHash returns the literal and throws in development when it is wrong', () => {
    expect(staticHash('root_point', 0x5e43bd96)).toBe(0x5e43bd96);
    expect(() => staticHash('root_point', 0x5e43bd97)).toThrow(StaticHashError);
    expect(() => staticHash('root_point', 0x5e43bd97)).toThrow(/the hash is 0x5e43bd96/);
    expect(staticHash64('root_point', murmurHash64A('root_point'))).toBe(murmurHash64A('root_point'));
    expect(() => staticHash64('root_point', 1n)).toThrow(StaticHashError);
    setStaticHashChecks(false);
    try {
      expect(staticHash('root_point', 1)).toBe(1); // release builds trust the literal
    } finally {
      setStaticHashChecks(true);
    }
  });

  test('the scanner finds every pair and flags wrong literals with line and column', () => {
    const code = [
      'if (object.name() == static_hash("root_point", 0x5e43bd96)) {}',
      "const a = staticHash('root_point', 0x5e43bd97);",
      `const b = staticHash64("root_point", ${hashHex(murmurHash64A('root_point'))}n);`,
      '  x = static_hash("units/player", 0x1234u);',
    ].join('\n');
    const found = scanStaticHashes(code, 'game.cpp');
    expect(found.map((f) => [f.line, f.column, f.name, f.ok, f.bits])).toEqual([
      [1, 22, 'root_point', true, 32],
      [2, 11, 'root_point', false, 32],
      [3, 11, 'root_point', true, 64],
      [4, 7, 'units/player', false, 32],
    ]);
    expect(found[1]!.expected).toBe('0x5e43bd96');
  });

  test('the file checker and `cuttle-merge hash-check` fail on a wrong literal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuttle-hash-'));
    try {
      writeFileSync(join(dir, 'good.cpp'), 'int a = static_hash("root_point", 0x5e43bd96);\n');
      writeFileSync(join(dir, 'notes.txt'), 'static_hash("root_point", 0x1)\n');
      const out: string[] = [];
      const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s) };
      expect(runCli(['hash-check', dir], io)).toBe(0);
      writeFileSync(join(dir, 'bad.ts'), '\nconst id = staticHash("root_point", 0xdeadbeef);\n');
      expect(checkStaticHashFiles([dir]).filter((f) => !f.ok)).toHaveLength(1);
      out.length = 0;
      expect(runCli(['hash-check', dir], io)).toBe(1);
      expect(out.join('')).toContain(`${join(dir, 'bad.ts')}:2:12: static_hash("root_point", 0xdeadbeef) should be 0x5e43bd96`);
      out.length = 0;
      expect(runCli(['hash', 'root_point'], io)).toBe(0);
      expect(out.join('')).toBe(`0x5e43bd96  ${hashHex(murmurHash64A('root_point'))}  "root_point"\n`);
      expect(runCli(['hash-check', join(dir, 'missing')], io)).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

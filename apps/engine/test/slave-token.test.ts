// Where slave mode's token comes from: a file only its owner may read, or the environment, or
// a new random one; never echoed in an error.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EngineError } from '../src/errors.ts';
import { resolveToken, TOKEN_ENV } from '../src/slave/token-source.ts';

const dir = mkdtempSync(join(tmpdir(), 'cuttle-token-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });
const TOKEN = 'a-token-of-twenty-six-chars';

function tokenFile(name: string, text: string, mode: number): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

describe('the slave token', () => {
  test('comes from a file of mode 0600, trimmed', () => {
    expect(resolveToken({ file: tokenFile('ok', `${TOKEN}\n`, 0o600), env: {} })).toEqual({ token: TOKEN, from: 'file' });
  });

  test('a file that group or others may read is refused, naming its mode', () => {
    for (const mode of [0o644, 0o640, 0o604]) {
      const file = tokenFile(`open-${mode.toString(8)}`, TOKEN, mode);
      expect(() => resolveToken({ file, env: {} })).toThrow(new RegExp(`mode 0${mode.toString(8)}; other users may read it. chmod 600 it`));
    }
  });

  test('a missing file, a folder and a large file are refused', () => {
    expect(() => resolveToken({ file: join(dir, 'none'), env: {} })).toThrow(/cannot be read; create it with mode 0600/);
    expect(() => resolveToken({ file: dir, env: {} })).toThrow(/not a regular file/);
    expect(() => resolveToken({ file: tokenFile('big', 'x'.repeat(5000), 0o600), env: {} })).toThrow(/5000 bytes; a token file holds one token/);
  });

  test('comes from CUTTLE_ENGINE_TOKEN; given twice is an error', () => {
    expect(resolveToken({ file: undefined, env: { [TOKEN_ENV]: TOKEN } })).toEqual({ token: TOKEN, from: 'environment' });
    expect(() => resolveToken({ file: tokenFile('twice', TOKEN, 0o600), env: { [TOKEN_ENV]: TOKEN } })).toThrow(/given twice/);
  });

  test('a malformed token is refused without showing it', () => {
    const secret = 'short; rm -rf';
    let error: unknown;
    try {
      resolveToken({ file: undefined, env: { [TOKEN_ENV]: secret } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect(String(error)).toMatch(/16 to 128 letters/);
    expect(String(error)).not.toContain(secret);
  });

  test('without either, a new random token each time', () => {
    const a = resolveToken({ file: undefined, env: {} });
    const b = resolveToken({ file: undefined, env: {} });
    expect(a.from).toBe('generated');
    expect(a.token).toMatch(/^[0-9a-f]{32}$/);
    expect(a.token).not.toBe(b.token);
  });
});

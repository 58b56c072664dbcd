// Where slave mode's token comes from. Never the command line: any local user reads other
// users' command lines in the process list. The environment (CUTTLE_ENGINE_TOKEN; a process's
// environment is readable by its own user only) or a file only its owner may read; else a new
// random token, printed on stdout for whoever started the engine.
import { readFileSync, statSync } from 'node:fs';
import { EngineError } from '../errors.ts';
import { newToken } from './auth.ts';

export const TOKEN_ENV = 'CUTTLE_ENGINE_TOKEN';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
/** Longest token file read: a token is at most 128 characters and a newline. */
const MAX_TOKEN_FILE_BYTES = 1024;

export interface TokenOptions {
  /** Path given with --token-file. */
  file: string | undefined;
  env: NodeJS.ProcessEnv;
}

/** The token and where it came from; throws an EngineError saying what to change. */
export function resolveToken(options: TokenOptions): { token: string; from: 'file' | 'environment' | 'generated' } {
  const fromEnv = options.env[TOKEN_ENV];
  if (options.file !== undefined && fromEnv !== undefined) throw new EngineError(`the token is given twice (--token-file and ${TOKEN_ENV}); give one.`);
  if (options.file !== undefined) return { token: check(readTokenFile(options.file), `--token-file ${options.file}`), from: 'file' };
  if (fromEnv !== undefined) return { token: check(fromEnv, TOKEN_ENV), from: 'environment' };
  return { token: newToken(), from: 'generated' };
}

function check(token: string, where: string): string {
  if (!TOKEN_PATTERN.test(token)) throw new EngineError(`${where}: the token must be 16 to 128 letters, digits, _ or - (the file's or variable's text is not shown).`);
  return token;
}

function readTokenFile(path: string): string {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new EngineError(`--token-file ${path} cannot be read; create it with mode 0600 (umask 077; echo TOKEN > FILE).`);
  }
  if (!stat.isFile()) throw new EngineError(`--token-file ${path} is not a regular file.`);
  if (stat.size > MAX_TOKEN_FILE_BYTES) throw new EngineError(`--token-file ${path} is ${stat.size} bytes; a token file holds one token.`);
  // Group or others may read it: the token is no secret then.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) throw new EngineError(`--token-file ${path} has mode 0${(stat.mode & 0o777).toString(8)}; other users may read it. chmod 600 it.`);
  return readFileSync(path, 'utf8').trim();
}

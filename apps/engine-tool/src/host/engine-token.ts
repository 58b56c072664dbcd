// The engine's token reaches the tool as it reaches the engine: in CUTTLE_ENGINE_TOKEN or in a
// file only its owner may read (--token-file), never on the command line, where every local
// user can read it in the process list.
import { readFileSync, statSync } from 'node:fs';

export const TOKEN_ENV = 'CUTTLE_ENGINE_TOKEN';

export class TokenError extends Error {
  override readonly name = 'TokenError';
}

/** The token from `file` (mode 0600) or the environment; throws a TokenError saying what to change. */
export function engineToken(file: string | undefined, env: NodeJS.ProcessEnv): string {
  if (file === undefined) {
    const token = env[TOKEN_ENV];
    if (token === undefined || token === '') throw new TokenError(`give the engine's token in ${TOKEN_ENV} or with --token-file FILE (mode 0600).`);
    return token;
  }
  const mode = statSync(file, { throwIfNoEntry: false })?.mode;
  if (mode === undefined) throw new TokenError(`--token-file ${file} does not exist.`);
  if ((mode & 0o077) !== 0) throw new TokenError(`--token-file ${file} may be read by other users (mode 0${(mode & 0o777).toString(8)}); chmod 600 it.`);
  return readFileSync(file, 'utf8').trim();
}

// A local Verdaccio for the registry test, in this process: configured by config.ts in a
// temporary folder, listening on a free port of 127.0.0.1, with one user whose token publishes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runServer } from 'verdaccio';
import { registryPaths, verdaccioConfig } from './config.ts';

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** The publishing user's token. */
  token: string;
  /** Verdaccio's log so far (warnings and errors). */
  log(): string;
  stop(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** GETs `url` until it answers 200, for at most `timeoutMs`. */
export async function waitUntilAnswers(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new RegistryError(`the registry did not answer ${url} within ${timeoutMs} ms (last: ${last})`);
}

/** Creates a user through the registry's adduser API (what `npm adduser` calls) and returns its token. */
export async function addUser(url: string, name: string, password: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${encodeURIComponent(name)}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, email: `${name}@localhost`, type: 'user', roles: [], date: new Date().toISOString() }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || typeof body.token !== 'string') throw new RegistryError(`adduser ${name} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** Starts Verdaccio with its config, storage and log in `dir` (which must exist). */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const paths = registryPaths(dir);
  mkdirSync(paths.storage, { recursive: true });
  writeFileSync(paths.config, verdaccioConfig(paths));
  writeFileSync(paths.log, '');
  const app: unknown = await runServer(paths.config);
  if (!(app instanceof Server)) throw new RegistryError('verdaccio runServer() did not return an http.Server');
  const server = app as Server;
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/`;
  const stop = (): Promise<void> => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => {
      resolve();
    });
  });
  try {
    await waitUntilAnswers(new URL('-/ping', url).href, 20_000);
    const token = await addUser(url, 'cuttle-release', 'registry-test-only');
    return { url, token, stop, log: () => readFileSync(paths.log, 'utf8') };
  } catch (error) {
    await stop();
    throw error;
  }
}

// `cuttle-engine-tool`: the level viewer and property editor. It launches the data compiler
// (watching), serves its page, and connects the page to an engine already running in slave
// mode, which it reaches only through the engine's WebSocket protocol.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { engineToken, TOKEN_ENV, TokenError } from './engine-token.ts';
import { ToolServer } from './server.ts';

export const USAGE = `cuttle-engine-tool --source <project> --compiled <out> --engine ws://127.0.0.1:PORT [--token-file FILE]
    [--level levels/courtyard] [--port 5175] [--compiler "node path/to/cuttle-engine.mjs"]
Start the engine first with --allow-origin http://127.0.0.1:<port> so the page may connect.
The engine's token comes from --token-file (mode 0600) or ${TOKEN_ENV}, never the command line.
`;

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      source: { type: 'string' },
      compiled: { type: 'string' },
      engine: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      level: { type: 'string', default: 'levels/courtyard' },
      port: { type: 'string', default: '5175' },
      compiler: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.source || !values.compiled || !values.engine) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (values.token !== undefined) {
    process.stderr.write(`--token puts the token on the command line, where every user of this machine can read it; pass it in ${TOKEN_ENV} or with --token-file FILE (mode 0600).\n`);
    return 2;
  }
  let token: string;
  try {
    token = engineToken(values['token-file'], process.env);
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}`);
    return 2;
  }
  const compiler = values.compiler?.split(' ') ?? [process.execPath, join(import.meta.dirname, '..', '..', '..', 'engine', 'bin', 'cuttle-engine.mjs')];
  const server = await ToolServer.start({
    source: resolve(values.source),
    compiled: resolve(values.compiled),
    level: values.level,
    engineUrl: values.engine,
    engineToken: token,
    compiler,
    host: '127.0.0.1',
    port: Number(values.port),
    log: (line) => process.stderr.write(`[compiler] ${line}\n`),
  });
  process.stdout.write(values.json ? JSON.stringify({ event: 'listening', url: server.url, origin: server.origin }) + '\n' : `cuttle-engine-tool: open ${server.url}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.close();
  return 0;
}

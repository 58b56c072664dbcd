// `cuttle-engine run --slave <compiled>`: boots the compiled data, loads the slave script,
// serves the tool protocol and prints where and with which token to connect.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIo } from '../cli-io.ts';
import { EngineError } from '../errors.ts';
import { Engine } from '../runtime/engine.ts';
import { boundedLines } from './bounded-log.ts';
import { SlaveServer } from './server.ts';
import { loadSlaveScript, type SlaveApi, type SlaveCommands } from './slave-script.ts';
import { resolveToken, TOKEN_ENV } from './token-source.ts';

export const RUN_USAGE = `usage: cuttle-engine run --slave <compiled data> [--host 127.0.0.1] [--port 0] [--token-file FILE] [--allow-origin URL]... [--script slave.ts] [--frame-threads N] [--texture-formats device|rgba8]
  The token comes from --token-file (mode 0600), or ${TOKEN_ENV}, or is made up and printed.`;

export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      slave: { type: 'boolean' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      script: { type: 'string' },
      boot: { type: 'string', default: 'boot' },
      json: { type: 'boolean' },
      'frame-threads': { type: 'string', default: '1' },
      'texture-formats': { type: 'string', default: 'device' },
    },
  });
  const data = positionals[0];
  if (!values.slave || data === undefined) throw new EngineError(RUN_USAGE);
  if (values.token !== undefined) throw new EngineError(`--token puts the token on the command line, where every user of this machine can read it in the process list. Pass it in ${TOKEN_ENV} or in a file with mode 0600 (--token-file FILE), or leave it out and the engine makes one.`);
  const { token } = resolveToken({ file: values['token-file'], env: process.env });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new EngineError(`--port ${values.port} is not a port number.`);
  for (const origin of values['allow-origin']) if (!/^https?:\/\/[^/]+$/.test(origin)) throw new EngineError(`--allow-origin ${origin}: give an origin such as http://127.0.0.1:5175 (scheme, host, port; no path).`);
  const json = values.json === true;
  const logLine = boundedLines({ write: (text) => { io.stderr(text); }, queued: () => io.stderrQueued() }, (count) => (json ? JSON.stringify({ event: 'dropped', lines: count }) : `[warning] log: ${count} lines dropped: stderr was not keeping up`) + '\n');
  const frameThreads = Number(values['frame-threads']);
  if (!Number.isInteger(frameThreads) || frameThreads < 1 || frameThreads > 256) throw new EngineError(`--frame-threads ${values['frame-threads']}: give a whole number from 1 to 256 (threads for the frame's work: walkers, Flow and textures, this one included).`);
  const textureFormats = values['texture-formats'];
  if (textureFormats !== 'device' && textureFormats !== 'rgba8') throw new EngineError(`--texture-formats ${textureFormats}: give device (the best block format the GPU has) or rgba8 (uncompressed).`);
  const engine = await Engine.start({
    data,
    boot: values.boot,
    frameThreads,
    textureFormats,
    log: (level, system, message) => {
      logLine(json ? JSON.stringify({ event: 'message', level, system, message }) + '\n' : `[${level}] ${system}: ${message}\n`);
    },
  });
  const api: SlaveApi = {
    log: (message) => { engine.log('info', 'script', message); },
    units: () => engine.world.listUnits(),
    moveUnit: (id, position) => engine.world.setUnitPosition(id, position),
    setCamera: (position, target) => {
      engine.camera = { position, target };
    },
    setTitle: (text) => { engine.world.setTitle(text); },
    title: () => engine.world.title,
    time: () => engine.world.time,
  };
  const commands: SlaveCommands = values.script ? await loadSlaveScript(resolve(values.script), api) : {};
  const server = await SlaveServer.start({ engine, host: values.host, port, token, allowedOrigins: values['allow-origin'], commands });
  const line = { event: 'listening', url: server.url, token, adapter: engine.gpu.adapter, level: engine.level, commands: Object.keys(commands) };
  io.stdout(json ? JSON.stringify(line) + '\n' : `cuttle-engine slave: ${server.url}  token ${token}\n  adapter ${engine.gpu.adapter}; level ${engine.level}; script commands: ${line.commands.join(', ') || 'none'}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.close();
  engine.destroy();
  return 0;
}

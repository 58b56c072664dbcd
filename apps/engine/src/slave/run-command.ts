// `cuttle-engine run --slave <compiled>`: boots the compiled data, loads the slave script,
// serves the tool protocol and prints where and with which token to connect.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIo } from '../cli.ts';
import { EngineError } from '../errors.ts';
import { Engine } from '../runtime/engine.ts';
import { newToken } from './auth.ts';
import { SlaveServer } from './server.ts';
import { loadSlaveScript, type SlaveApi, type SlaveCommands } from './slave-script.ts';

export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      slave: { type: 'boolean' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      script: { type: 'string' },
      boot: { type: 'string', default: 'boot' },
      json: { type: 'boolean' },
    },
  });
  const data = positionals[0];
  if (!values.slave || data === undefined) throw new EngineError('usage: cuttle-engine run --slave <compiled data> [--host 127.0.0.1] [--port 0] [--token T] [--allow-origin URL]... [--script slave.ts]');
  const token = values.token ?? newToken();
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) throw new EngineError('--token must be 16 to 128 letters, digits, _ or -.');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new EngineError(`--port ${values.port} is not a port number.`);
  for (const origin of values['allow-origin']) if (!/^https?:\/\/[^/]+$/.test(origin)) throw new EngineError(`--allow-origin ${origin}: give an origin such as http://127.0.0.1:5175 (scheme, host, port; no path).`);
  const json = values.json === true;
  const engine = await Engine.start({
    data,
    boot: values.boot,
    log: (level, system, message) => {
      io.stderr(json ? JSON.stringify({ event: 'message', level, system, message }) + '\n' : `[${level}] ${system}: ${message}\n`);
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

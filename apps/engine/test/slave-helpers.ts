// A real engine process in slave mode for the protocol tests, and a small tool-side client.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { compileProject } from '../src/compiler/compile-project.ts';
import { join } from 'node:path';
import { SAMPLE, scratchProject, startCli, type Scratch } from './helpers.ts';

export const TOKEN = 'test-token-0123456789abcdef';
export const ALLOWED_ORIGIN = 'http://127.0.0.1:5999';

export interface SlaveProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

export async function startSlave(project: Scratch): Promise<SlaveProcess> {
  const report = await compileProject(project.source, project.out);
  if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
  const child = startCli(['run', '--slave', project.out, '--allow-origin', ALLOWED_ORIGIN, '--script', join(SAMPLE, 'scripts', 'level-viewer-slave.ts'), '--json'], { CUTTLE_ENGINE_TOKEN: TOKEN });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => { reject(new Error(`engine exited with ${code}: ${stderr}`)); });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

/** One engine process for the whole test file, over a scratch copy of the sample: handed to `use` before the tests, stopped after them. */
export function slaveForFile(use: (project: Scratch, slave: SlaveProcess) => void): void {
  let project: Scratch | undefined;
  let slave: SlaveProcess | undefined;
  beforeAll(async () => {
    project = scratchProject();
    slave = await startSlave(project);
    use(project, slave);
  }, 60_000);
  afterAll(async () => {
    await slave?.stop();
    project?.dispose();
  });
}

export interface ToolClient {
  socket: WebSocket;
  messages: Record<string, unknown>[];
  frames: Buffer[];
  /** Resolves with the first message (already received or coming) that matches. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  nextFrame(match?: (frame: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
  send(message: unknown): void;
  close(): void;
}

export function connect(url: string, options: { token?: string; origin?: string; ack?: boolean } = {}): Promise<ToolClient> {
  const socket = new WebSocket(url, ['cuttle.v1', `token.${options.token ?? TOKEN}`], options.origin ? { origin: options.origin } : {});
  const messages: Record<string, unknown>[] = [];
  const frames: Buffer[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) {
      frames.push(data);
      if (options.ack !== false) socket.send(JSON.stringify({ type: 'frame', ack: data.readUInt32LE(4) }));
    } else messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const wait = <T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => { reject(new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(messages.slice(-5)).slice(0, 600)}`)); }, timeoutMs);
      const check = (): void => {
        const found = find();
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  const client: ToolClient = {
    socket,
    messages,
    frames,
    next: (match, timeoutMs = 15_000) => wait(() => messages.find(match), timeoutMs, 'a message'),
    nextFrame: (match = () => true, timeoutMs = 30_000) => wait(() => frames.find(match), timeoutMs, 'a frame'),
    send: (message) => { socket.send(typeof message === 'string' ? message : JSON.stringify(message)); },
    close: () => { socket.close(); },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => { resolve(client); });
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => { reject(new Error(`refused: HTTP ${response.statusCode}`)); });
  });
}

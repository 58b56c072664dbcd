// The tool's own small server: serves the page and the two things a browser cannot do, read
// and write the level source and wait for the compiler. It answers only requests that carry
// its key (printed in the URL's fragment, never sent to other sites) from its own origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CompilerProcess } from './compiler-process.ts';
import { EDITABLE, EditError, editUnitProperty, listUnits, type EditableProperty } from './level-edit.ts';

export interface ToolServerOptions {
  source: string;
  compiled: string;
  level: string;
  engineUrl: string;
  engineToken: string;
  compiler: readonly string[];
  host: string;
  port: number;
  log: (line: string) => void;
}

const PAGE_DIR = join(import.meta.dirname, '..', 'page');

async function bundlePage(): Promise<string> {
  const result = await build({ entryPoints: [join(PAGE_DIR, 'main.ts')], bundle: true, format: 'esm', write: false, target: 'es2022', minify: false });
  return result.outputFiles[0]!.text;
}

export class ToolServer {
  readonly key = randomBytes(16).toString('hex');
  readonly #http: Server;
  readonly #compiler: CompilerProcess;
  readonly #options: ToolServerOptions;
  #script = '';

  private constructor(options: ToolServerOptions) {
    this.#options = options;
    this.#compiler = new CompilerProcess(options.compiler, options.source, options.compiled, options.log);
    this.#http = createServer((request, response) => {
      this.#route(request, response).catch((error: unknown) => {
        this.#json(response, 500, { error: error instanceof Error ? error.message : String(error) });
      });
    });
  }

  static async start(options: ToolServerOptions): Promise<ToolServer> {
    const server = new ToolServer(options);
    server.#script = await bundlePage();
    await server.#compiler.ready();
    await new Promise<void>((resolve) => server.#http.listen(options.port, options.host, resolve));
    return server;
  }

  get origin(): string {
    return `http://${this.#options.host}:${(this.#http.address() as AddressInfo).port}`;
  }

  get url(): string {
    return `${this.origin}/#key=${this.key}`;
  }

  #json(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  }

  #authorized(request: IncomingMessage): boolean {
    if (request.headers.host !== this.origin.slice('http://'.length)) return false;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== this.origin) return false;
    const header = request.headers['x-tool-key'];
    const key = Buffer.from(typeof header === 'string' ? header : '');
    const mine = Buffer.from(this.key);
    return key.length === mine.length && timingSafeEqual(key, mine);
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const security = { 'content-security-policy': "default-src 'self'; img-src 'self' blob:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*", 'x-content-type-options': 'nosniff' };
    if (request.method === 'GET' && url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...security }).end(readFileSync(join(PAGE_DIR, 'index.html')));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/tool.css') {
      response.writeHead(200, { 'content-type': 'text/css; charset=utf-8', ...security }).end(readFileSync(join(PAGE_DIR, 'tool.css')));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/tool.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...security }).end(this.#script);
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      this.#json(response, 404, { error: 'not found' });
      return;
    }
    if (!this.#authorized(request)) {
      this.#json(response, 403, { error: 'this tool answers its own page only (open the URL it printed)' });
      return;
    }
    const levelPath = join(this.#options.source, `${this.#options.level}.level`);
    if (request.method === 'GET' && url.pathname === '/api/config') {
      this.#json(response, 200, { engineUrl: this.#options.engineUrl, engineToken: this.#options.engineToken, level: `${this.#options.level}.level`, editable: EDITABLE });
      return;
    }
    if (request.method === 'GET' && url.pathname === '/api/units') {
      this.#json(response, 200, { units: listUnits(readFileSync(levelPath, 'utf8')) });
      return;
    }
    if (request.method === 'POST' && url.pathname === '/api/edit') {
      let body = '';
      for await (const chunk of request) {
        body += String(chunk);
        if (body.length > 16_384) throw new EditError('request too large');
      }
      const { unit, property, value } = JSON.parse(body) as { unit: string; property: EditableProperty; value: unknown };
      const t0 = performance.now();
      let text: string;
      try {
        text = editUnitProperty(readFileSync(levelPath, 'utf8'), unit, property, value);
      } catch (error) {
        if (error instanceof EditError) {
          this.#json(response, 400, { error: error.message });
          return;
        }
        throw error;
      }
      const compiled = this.#compiler.nextCompile();
      writeFileSync(levelPath, text);
      const t1 = performance.now();
      const event = await compiled;
      const t2 = performance.now();
      this.#json(response, event.failed.length > 0 ? 422 : 200, { compiled: event.compiled.map((c) => c.path), failed: event.failed, writeMs: t1 - t0, compileMs: t2 - t1, compilerMs: event.ms });
      return;
    }
    this.#json(response, 404, { error: 'not found' });
  }

  async close(): Promise<void> {
    this.#compiler.stop();
    await new Promise<void>((resolve) => this.#http.close(() => { resolve(); }));
  }
}

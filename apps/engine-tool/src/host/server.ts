// The tool's own small server: serves the page and the two things a browser cannot do, read
// and write the level source and wait for the compiler. It answers only requests that carry
// its key (printed in the URL's fragment, never sent to other sites) from its own origin.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { CompilerProcess, type CompiledEvent } from './compiler-process.ts';
import { FlowSourceError, flowSourceUnchanged, MAX_FLOW_SOURCE_BYTES, readFlowSource, writeFlowSource } from './flow-source.ts';
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

/** Largest request body the API reads (a Flow source, JSON-escaped, with its path). */
const MAX_BODY_BYTES = 2 * MAX_FLOW_SOURCE_BYTES + 4096;

class RequestError extends Error {
  override readonly name = 'RequestError';
}

/**
 * The page's script, and the CSP hashes of the stylesheets it inserts: the Flow editor's view
 * puts its CSS in a <style> inside its root, which `default-src 'self'` would block; allowing
 * that exact text by its hash keeps inline styles refused otherwise.
 */
async function bundlePage(): Promise<{ script: string; styleHashes: string[] }> {
  const stylesheets: string[] = [];
  const findViewCss: Plugin = {
    name: 'flow-editor-view-css',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /flow-editor[\\/]src[\\/]view[\\/]styles\.ts$/ }, (args) => {
        stylesheets.push(args.path);
        return undefined;
      });
    },
  };
  const result = await build({ entryPoints: [join(PAGE_DIR, 'main.ts')], bundle: true, format: 'esm', write: false, target: 'es2022', minify: false, conditions: ['@cuttle/source'], plugins: [findViewCss] });
  const styleHashes: string[] = [];
  for (const file of stylesheets) {
    const { VIEW_CSS } = (await import(pathToFileURL(file).href)) as { VIEW_CSS: string };
    styleHashes.push(`'sha256-${createHash('sha256').update(VIEW_CSS).digest('base64')}'`);
  }
  return { script: result.outputFiles[0]!.text, styleHashes };
}

async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) throw new RequestError(`request larger than the ${limit} bytes allowed`);
    chunks.push(bytes);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new RequestError('the request body is not JSON');
  }
}

function failureText(event: CompiledEvent): string {
  return event.failed.map((f) => `${f.path}: ${f.message}`).join('\n');
}

export class ToolServer {
  readonly key = randomBytes(16).toString('hex');
  readonly #http: Server;
  readonly #compiler: CompilerProcess;
  readonly #options: ToolServerOptions;
  #script = '';
  #styleHashes: string[] = [];
  /** Saves of Flow graphs, one at a time (each waits for its own compile). */
  #saving: Promise<unknown> = Promise.resolve();

  private constructor(options: ToolServerOptions) {
    this.#options = options;
    this.#compiler = new CompilerProcess(options.compiler, options.source, options.compiled, options.log);
    this.#http = createServer((request, response) => {
      this.#route(request, response).catch((error: unknown) => {
        if (error instanceof RequestError || error instanceof FlowSourceError) {
          this.#json(response, 400, { error: error.message });
          return;
        }
        this.#json(response, 500, { error: error instanceof Error ? error.message : String(error) });
      });
    });
  }

  static async start(options: ToolServerOptions): Promise<ToolServer> {
    const server = new ToolServer(options);
    ({ script: server.#script, styleHashes: server.#styleHashes } = await bundlePage());
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
    const security = { 'content-security-policy': `default-src 'self'; style-src 'self' ${this.#styleHashes.join(' ')}; img-src 'self' blob:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*`, 'x-content-type-options': 'nosniff' };
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
    if (request.method === 'GET' && url.pathname === '/favicon.ico') {
      response.writeHead(204, security).end();
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
      const { unit, property, value } = (await readBody(request, 16_384)) as { unit: string; property: EditableProperty; value: unknown };
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
    if (request.method === 'GET' && url.pathname === '/api/flow') {
      const path = url.searchParams.get('path');
      this.#json(response, 200, { path, text: readFlowSource(this.#options.source, path) });
      return;
    }
    if (request.method === 'POST' && url.pathname === '/api/flow') {
      const body = await readBody(request);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RequestError('send { path, text }');
      const { path, text } = body as { path?: unknown; text?: unknown };
      const save = this.#saving.then(() => this.#saveFlow(path, text));
      this.#saving = save.catch(() => undefined);
      const { status, result } = await save;
      this.#json(response, status, result);
      return;
    }
    this.#json(response, 404, { error: 'not found' });
  }

  /** Writes a graph, waits for the compiler, and says what it compiled (the page then sends `reload`); a failed compile leaves the engine on the old graph. */
  async #saveFlow(path: unknown, text: unknown): Promise<{ status: number; result: object }> {
    const t0 = performance.now();
    // Nothing to compile when the text is the file's: the watcher would not fire.
    if (flowSourceUnchanged(this.#options.source, path, text)) return { status: 200, result: { path, unchanged: true, compiled: [], failed: [], compileMs: 0 } };
    const compiled = this.#compiler.nextCompile();
    writeFlowSource(this.#options.source, path, text);
    const event = await compiled;
    const compileMs = performance.now() - t0;
    if (event.failed.length > 0) return { status: 422, result: { path, error: `the compiler refused it, the engine keeps the old graph:\n${failureText(event)}`, compiled: event.compiled.map((c) => c.path), failed: event.failed, compileMs } };
    return { status: 200, result: { path, compiled: event.compiled.map((c) => c.path), failed: [], compileMs, compilerMs: event.ms } };
  }

  async close(): Promise<void> {
    this.#compiler.stop();
    await new Promise<void>((resolve) => this.#http.close(() => { resolve(); }));
  }
}

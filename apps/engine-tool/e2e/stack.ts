// What the engine tool's end-to-end runs share: a copy of the sample project compiled, the
// engine in slave mode and the tool started on free ports (the token through the tool's
// environment, never its command line), Debian's headless Chromium (never a downloaded one:
// /usr/bin/chromium or CUTTLE_CHROMIUM), the checks printed as they pass, and the clean-up.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = join(import.meta.dirname, '..', '..');
const ENGINE = join(ROOT, 'engine', 'bin', 'cuttle-engine.mjs');
const TOOL = join(ROOT, 'engine-tool', 'bin', 'cuttle-engine-tool.mjs');

const results: { name: string; ok: boolean; detail?: string }[] = [];
const children: ChildProcess[] = [];
const started = performance.now();

/** Seconds since the run started, one decimal. */
export const seconds = (): string => ((performance.now() - started) / 1000).toFixed(1);

export function check(name: string, ok: boolean, detail?: string): void {
  results.push({ name, ok, ...(detail === undefined ? {} : { detail }) });
  console.log(`${ok ? 'ok  ' : 'FAIL'} [${seconds()} s] ${name}${detail ? `: ${detail}` : ''}`);
}

/** Starts a Node program and resolves to the JSON line it prints with "listening" in it. */
function start(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = out.split('\n').find((l) => l.includes('"listening"'));
      if (found) resolve(JSON.parse(found) as Record<string, unknown>);
    });
    child.on('exit', (code) => { reject(new Error(`${args[0]} exited with ${code}: ${stderr}`)); });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => { resolve(port); });
    });
  });
}

export interface Stack {
  /** The copy of the sample project's sources, and where it compiled to. */
  source: string;
  out: string;
  /** The engine's "listening" line (url, token). */
  listening: Record<string, unknown>;
  toolUrl: string;
  browser: Browser;
}

const chromiumPath = process.env.CUTTLE_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.error(`No Chromium at ${chromiumPath}: apt-get install chromium (bash tooling/scripts/setup.sh does), or set CUTTLE_CHROMIUM.`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'cuttle-tool-e2e-'));

/** Compiles a copy of the sample project, starts the engine, the tool and Chromium. */
export async function startStack(): Promise<Stack> {
  const source = join(dir, 'sample');
  const out = join(dir, 'out');
  cpSync(join(ROOT, 'engine', 'sample'), source, { recursive: true });
  const compile = spawn(process.execPath, [ENGINE, 'compile', source, out, '--quiet'], { stdio: 'inherit' });
  check('the sample project compiles', (await new Promise<number | null>((resolve) => compile.on('exit', resolve))) === 0);
  const toolPort = await freePort();
  const listening = await start([ENGINE, 'run', '--slave', out, '--allow-origin', `http://127.0.0.1:${toolPort}`, '--json']);
  const toolUrl = String((await start([TOOL, '--source', source, '--compiled', out, '--engine', String(listening.url), '--port', String(toolPort), '--json'], { CUTTLE_ENGINE_TOKEN: String(listening.token) })).url);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  return { source, out, listening, toolUrl, browser };
}

/** Runs `body` against a fresh stack, stops everything, prints the tally and exits with its status. */
export async function runE2e(title: string, body: (stack: Stack) => Promise<void>): Promise<never> {
  let exitCode = 1;
  try {
    const stack = await startStack();
    await body(stack);
    await stack.browser.close();
    exitCode = results.every((r) => r.ok) ? 0 : 1;
  } catch (error) {
    check('the end-to-end run', false, error instanceof Error ? error.message : String(error));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${title}: ${seconds()} s, ${results.length - failed} passed, ${failed} failed`);
  process.exit(exitCode);
}

// The README's figures, measured on the machine it runs on: full and one-file incremental
// compiles of the sample project (in process, as --watch runs them, and as a fresh compile
// process), streamed frames per second on loopback with a tool that acknowledges every frame,
// and edit-to-frame over the protocol (write the source, compile, `reload`, first frame of the
// new generation). Runs from source (`pnpm --filter @cuttle/engine figures`) or bundled for the
// GPU machine (`bash tooling/scripts/device-engine.sh`); either way the engine is this same
// script started again with `--engine <cli arguments>`, in its own process.
//   figures.ts [--sample <dir>] [--font <another ttf for the sample's font>] [--out <file.json>] [--quick]
//   figures.ts --engine <cuttle-engine arguments>
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { main } from '../src/cli.ts';
import { compileProject } from '../src/compiler/compile-project.ts';
import { streamFrames, editToFrame } from './stream-client.ts';

const args = process.argv.slice(2);
if (args[0] === '--engine') {
  process.exitCode = await main(args.slice(1));
} else {
  await measure();
}

/** This script again (with the loader flags it was started with), running the engine CLI. */
function engineProcess(cliArgs: string[]): string[] {
  return [...process.execArgv, process.argv[1]!, '--engine', ...cliArgs];
}

function option(name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function measure(): Promise<void> {
  const quick = args.includes('--quick');
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const round = (x: number): number => Math.round(x * 10) / 10;
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-figures-'));
  const source = join(dir, 'sample');
  cpSync(option('--sample') ?? join(import.meta.dirname, '..', 'sample'), source, { recursive: true });
  // The sample carries its font; --font names another TTF by absolute path instead, read from
  // its folder as a --font-dir (the compiler reads nothing outside the project otherwise).
  const font = option('--font');
  const fontDirs = font === undefined ? [] : [dirname(resolve(font))];
  if (font !== undefined) {
    const fontFile = join(source, 'fonts', 'dejavu.font');
    writeFileSync(fontFile, readFileSync(fontFile, 'utf8').replace(/^source = .*$/m, `source = ${JSON.stringify(resolve(font))}`));
  }
  const figures: Record<string, unknown> = { date: new Date().toISOString().slice(0, 10), node: process.version, cpu: `${cpus()[0]?.model ?? 'unknown'} x ${cpus().length}` };
  let engine: ChildProcess | undefined;
  try {
    const progress = (what: string): void => { console.error(`[figures] ${what}`); };
    // Compiles.
    progress('compiles');
    const full: number[] = [];
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      const t0 = performance.now();
      const report = await compileProject(source, join(dir, `full${i}`), { fontDirs });
      full.push(performance.now() - t0);
      if (report.failed.length > 0 || report.compiled.length !== 26) {
        const why = report.failed.map((f) => `${f.path}: ${f.error.message}`).join('; ');
        throw new Error(`the full compile built ${report.compiled.length} of the 26 resources; failed: ${why || 'none'}`);
      }
    }
    const out = join(dir, 'full0');
    const incremental = async (file: string, expected: number): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < (quick ? 1 : 7); i++) {
        appendFileSync(join(source, file), `\n// edit ${i}\n`);
        const t0 = performance.now();
        const report = await compileProject(source, out, { fontDirs });
        times.push(performance.now() - t0);
        if (report.compiled.length !== expected) throw new Error(`${file}: rebuilt ${report.compiled.length}, expected ${expected}`);
      }
      return round(median(times));
    };
    const compile: Record<string, number> = {
      fullMs: round(median(full)),
      oneMaterialMs: await incremental('materials/wood.material', 1),
      oneLevelMs: await incremental('levels/courtyard.level', 1),
      oneUnitAndItsLevelMs: await incremental('units/crate.unit', 2),
    };
    const cli: number[] = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      appendFileSync(join(source, 'materials/wood.material'), '\n');
      const t0 = performance.now();
      const run = spawnSync(process.execPath, engineProcess(['compile', source, out, '--quiet', ...fontDirs.flatMap((dir) => ['--font-dir', dir])]));
      cli.push(performance.now() - t0);
      if (run.status !== 0) throw new Error(`the compile process failed: ${run.stderr.toString()}`);
    }
    compile.oneMaterialAsProcessMs = round(median(cli));
    figures.compile = compile;

    // The engine, in its own process.
    progress('starting the engine');
    const token = 'figures-token-0123456789';
    // The engine refuses a token on its command line (other users see it there): the environment carries it.
    engine = spawn(process.execPath, engineProcess(['run', '--slave', out, '--json']), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CUTTLE_ENGINE_TOKEN: token } });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      engine!.on('exit', (code) => { reject(new Error(`the engine exited (${code}) before listening`)); });
      const read = (d: Buffer): void => {
        text += d.toString();
        const line = text.split('\n').find((l) => l.includes('"listening"'));
        if (!line) return;
        // Only the listening line matters: keep draining the engine's output without keeping it.
        engine!.stdout!.off('data', read);
        engine!.stdout!.resume();
        resolve((JSON.parse(line) as { url: string }).url);
      };
      engine!.stdout!.on('data', read);
    });
    const seconds = quick ? 2 : 10;
    progress('streaming');
    figures.stream640x360 = await streamFrames(url, token, { width: 640, height: 360, seconds });
    figures.stream1280x720 = await streamFrames(url, token, { width: 1280, height: 720, seconds: seconds * 1.5 });
    figures.stream1280x720NoSsao = await streamFrames(url, token, { width: 1280, height: 720, seconds: seconds * 1.5, ssao: false });
    figures.stream640x360NoSsao = await streamFrames(url, token, { width: 640, height: 360, seconds, ssao: false });

    // Edit to frame: the wood material's colour, changed and changed back, then compiled here
    // (as --watch would, without its 25 ms gathering) and reloaded by the engine.
    const wood = join(source, 'materials/wood.material');
    const original = readFileSync(wood, 'utf8');
    const edits = quick ? 2 : 9;
    progress('edits to frames');
    let written = 0; // every write toggles the colour, so every compile has something to rebuild
    for (const [width, height] of [[640, 384], [1280, 720]] as const) {
      figures[`editToFrame${width}x${height}`] = await editToFrame(url, token, { width, height, edits, resource: 'materials/wood.material' }, async () => {
        writeFileSync(wood, original.replace('base_color = [1 1 1 1]', written++ % 2 === 0 ? 'base_color = [1 0.4 0.2 1]' : 'base_color = [1 1 1 1]'));
        const report = await compileProject(source, out, { fontDirs });
        if (report.compiled.length !== 1) throw new Error(`the material edit rebuilt ${report.compiled.length} resources`);
      });
    }
  } finally {
    engine?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  const text = JSON.stringify(figures, null, 1);
  const outFile = option('--out');
  if (outFile) writeFileSync(outFile, text);
  console.log(text);
  process.exit(0);
}

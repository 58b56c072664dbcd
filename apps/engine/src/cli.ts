// `cuttle-engine`: the data compiler and the slave-mode engine in one program, as in the post
// (the compiler is the engine started with a compile flag, so the two never disagree).
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { CompilePool, compileProject, type CompileReport, type ProgressEvent } from './compiler/compile-project.ts';
import { ProgressBar } from './compiler/progress-bar.ts';
import { ProjectCache } from './compiler/project-scan.ts';
import { watchProject } from './compiler/watch.ts';
import { processIo, type CliIo } from './cli-io.ts';
import { CompileError, EngineError } from './errors.ts';

export const USAGE = `cuttle-engine compile <source> <out> [--font-dir <dir>]... [--jobs N] [--watch] [--force] [--json]
    Compiles a project's SJSON/JSON sources (levels, units, Flow graphs, materials, fonts,
    GLB meshes, PNG textures, packages) into runtime data and a manifest. Incremental: only
    changed sources and what embeds them are rebuilt. --json prints one JSON line per event.
    --jobs: worker threads for compiles of 64 resources or more (default: one per core).
    Sources read only files of the project; --font-dir lets a font source name a font inside
    that folder by absolute path (e.g. --font-dir /usr/share/fonts).

cuttle-engine run --slave <compiled> [--host 127.0.0.1] [--port 0] [--token-file FILE]
    [--allow-origin http://127.0.0.1:5175]... [--script module.ts] [--source <project>]
    [--frame-threads N] [--texture-formats device|rgba8]
    Loads the compiled data's boot package and serves the tool protocol over a WebSocket;
    prints the URL and token to connect with. The token comes from --token-file (a file
    only its owner may read), or CUTTLE_ENGINE_TOKEN, or is made up; never the command line.
    --frame-threads: threads for the walkers' animation, the Flow update of levels with
                     thousands of ticking scripts and the textures' transcoding at load, this
                     one included (default 1).
    --texture-formats: what compiled textures are transcoded to: device (default: BC, ETC2 or
    ASTC, the best the GPU has) or rgba8 (uncompressed).
`;

function describeReport(report: CompileReport): string {
  const lines = report.failed.map(({ error }) => `error: ${error.message}`);
  lines.push(`compiled ${report.compiled.length}, up to date ${report.upToDate}, failed ${report.failed.length}${report.removed.length ? `, removed ${report.removed.length}` : ''} in ${report.ms.toFixed(0)} ms`);
  return lines.join('\n') + '\n';
}

function reportJson(report: CompileReport): string {
  return JSON.stringify({
    event: 'compiled',
    compiled: report.compiled,
    upToDate: report.upToDate,
    failed: report.failed.map(({ path, error }) => ({ path, file: error.file, line: error.line, column: error.column, problem: error.problem, fix: error.fix, message: error.message })),
    removed: report.removed,
    ms: Math.round(report.ms * 10) / 10,
  }) + '\n';
}

async function compileCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { watch: { type: 'boolean' }, force: { type: 'boolean' }, json: { type: 'boolean' }, quiet: { type: 'boolean' }, jobs: { type: 'string' }, 'font-dir': { type: 'string', multiple: true } } });
  const [source, out] = positionals;
  if (source === undefined || out === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  const json = values.json === true;
  const workers = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    io.stderr(`error: --jobs takes a whole number from 1 to 256, got ${values.jobs}\n`);
    return 2;
  }
  // A terminal gets a bar redrawn in place; pipes (logs, CI) a line per resource.
  const columns = json || values.quiet ? undefined : io.stderrColumns?.();
  let bar: ProgressBar | undefined;
  const onProgress = (e: ProgressEvent): void => {
    if (json) io.stdout(JSON.stringify({ event: 'progress', ...e, ms: Math.round(e.ms * 10) / 10, writeMs: Math.round(e.writeMs * 10) / 10 }) + '\n');
    else if (columns !== undefined) (bar ??= new ProgressBar((text) => { io.stderr(text); }, columns)).update(e);
    else if (!values.quiet) io.stderr(`[${e.index}/${e.total}] ${e.ok ? '' : 'FAILED '}${e.path} (${e.reason}, ${e.ms.toFixed(0)} ms)\n`);
  };
  const fontDirs = values['font-dir'] ?? [];
  // --watch keeps what it read (the compiles after a save read and parse only what changed) and
  // its workers (started once; their code stays warm for the next large rebuild).
  const cache = values.watch ? new ProjectCache() : undefined;
  const pool = values.watch && workers > 1 ? new CompilePool(workers) : undefined;
  const report = await compileProject(source, out, { force: values.force === true, fontDirs, onProgress, workers, cache, pool }).catch(async (error: unknown) => {
    await pool?.shutdown();
    throw error;
  });
  bar?.finish();
  bar = undefined;
  io.stdout(json ? reportJson(report) : describeReport(report));
  if (!values.watch) return report.failed.length > 0 ? 1 : 0;
  io.stderr(`watching ${source} (Ctrl-C to stop)\n`);
  const watcher = watchProject(source, out, {
    fontDirs,
    workers,
    cache,
    pool,
    onProgress,
    onCompiled: (r) => {
      bar?.finish();
      bar = undefined;
      io.stdout(json ? reportJson(r) : describeReport(r));
    },
    onError: (error) => { io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`); },
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  watcher.close();
  await pool?.shutdown();
  return 0;
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'compile') return await compileCommand(rest, io);
    if (command === 'run') {
      const { runCommand } = await import('./slave/run-command.ts');
      return await runCommand(rest, io);
    }
    io.stdout(USAGE);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  } catch (error) {
    if (error instanceof CompileError || error instanceof EngineError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

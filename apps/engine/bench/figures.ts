// The README's figures, measured on this machine: full and one-file incremental compiles of the
// sample project (in process, as --watch runs them, and as a fresh `cuttle-engine compile`
// process), and streamed frames per second on loopback at 640x360 and 1280x720 with a tool that
// acknowledges every frame. Run: pnpm --filter @cuttle/engine figures
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { compileProject } from '../src/compiler/compile-project.ts';
import { BIN, SAMPLE, startCli } from '../test/helpers.ts';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const round = (x: number): number => Math.round(x * 10) / 10;
const dir = mkdtempSync(join(tmpdir(), 'cuttle-figures-'));
const source = join(dir, 'sample');
cpSync(SAMPLE, source, { recursive: true });
const figures: Record<string, unknown> = { date: new Date().toISOString().slice(0, 10), node: process.version, cpu: `${cpus()[0]?.model ?? 'unknown'} x ${cpus().length}` };

// Compiles.
const full: number[] = [];
for (let i = 0; i < 5; i++) {
  const out = join(dir, `full${i}`);
  const t0 = performance.now();
  const report = await compileProject(source, out);
  full.push(performance.now() - t0);
  if (report.failed.length > 0 || report.compiled.length !== 26) throw new Error('the full compile did not build the 26 resources');
}
const out = join(dir, 'full0');
const incremental = async (file: string, expected: number): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    appendFileSync(join(source, file), `\n// edit ${i}\n`);
    const t0 = performance.now();
    const report = await compileProject(source, out);
    times.push(performance.now() - t0);
    if (report.compiled.length !== expected) throw new Error(`${file}: rebuilt ${report.compiled.length}, expected ${expected}`);
  }
  return round(median(times));
};
figures.compile = {
  fullMs: round(median(full)),
  oneMaterialMs: await incremental('materials/wood.material', 1),
  oneLevelMs: await incremental('levels/courtyard.level', 1),
  oneUnitAndItsLevelMs: await incremental('units/crate.unit', 2),
  nothingChangedMs: round(median(await Promise.all([0, 1, 2].map(async () => {
    const t0 = performance.now();
    await compileProject(source, out);
    return performance.now() - t0;
  })))),
};
const cli: number[] = [];
for (let i = 0; i < 3; i++) {
  appendFileSync(join(source, 'materials/wood.material'), '\n');
  const t0 = performance.now();
  spawnSync(process.execPath, [BIN, 'compile', source, out, '--quiet']);
  cli.push(performance.now() - t0);
}
(figures.compile as Record<string, number>).oneMaterialAsProcessMs = round(median(cli));

// Streaming.
const engine = startCli(['run', '--slave', out, '--token', 'figures-token-0123456789', '--json']);
const url = await new Promise<string>((resolve) => {
  let text = '';
  engine.stdout!.on('data', (d: Buffer) => {
    text += d.toString();
    const line = text.split('\n').find((l) => l.includes('"listening"'));
    if (line) resolve((JSON.parse(line) as { url: string }).url);
  });
});
const stream = (width: number, height: number, seconds: number, ssao = true): Promise<{ fps: number; kbPerFrame: number; frameMs: number }> =>
  new Promise((resolve) => {
    const ws = new WebSocket(url, ['cuttle.v1', 'token.figures-token-0123456789']);
    let frames = 0, bytes = 0, start = 0;
    const totals: number[] = [];
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'profiler', enable: true }));
      ws.send(JSON.stringify({ type: 'frame', width, height, fps: 60, quality: 75, ssao }));
    });
    ws.on('message', (data: Buffer, binary) => {
      if (!binary) {
        const m = JSON.parse(data.toString()) as { type: string; cpu?: { total: number } };
        if (m.type === 'profiler' && start > 0) totals.push(m.cpu!.total);
        return;
      }
      ws.send(JSON.stringify({ type: 'frame', ack: data.readUInt32LE(4) }));
      if (frames === 0 && start === 0 && data.readUInt32LE(4) >= 3) start = performance.now(); // after warm-up
      if (start === 0) return;
      frames++;
      bytes += data.length;
      if (performance.now() - start > seconds * 1000) {
        ws.close();
        resolve({ fps: round(frames / ((performance.now() - start) / 1000)), kbPerFrame: Math.round(bytes / frames / 1024), frameMs: round(median(totals)) });
      }
    });
  });
figures.stream640x360 = await stream(640, 360, 10);
figures.stream1280x720 = await stream(1280, 720, 15);
figures.stream1280x720NoSsao = await stream(1280, 720, 15, false);
figures.stream640x360NoSsao = await stream(640, 360, 10, false);
engine.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(figures, null, 1));
process.exit(0);

// Where a parallel compile's texture encoding loses its speed: the same textures encoded by K
// worker threads of one process, and by K separate processes, against one encoder alone. Each
// encoder (thread or process) encodes the whole list on its own, so the work per encoder is the
// same in every configuration: its time over the lone time is the slowdown sharing costs.
//   tsx --import ./bin/source-hooks-register.mjs bench/encode-contention.ts --counts 1,4,8,16 [--textures 24] [--json out.json]
// Bundled for the GPU machine's 16-core host: see apps/engine/BENCHMARKS.md, "Where the compile's scaling goes".
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { decodeImage } from '../src/textures/decode-image.ts';
import { encodeKtx2 } from '../src/textures/encode-ktx2.ts';
import { textureFile } from '../sample-tools/large/assets.ts';
import { Random } from '../sample-tools/large/random.ts';

const { values } = parseArgs({ options: { counts: { type: 'string' }, textures: { type: 'string' }, child: { type: 'boolean' }, json: { type: 'string' } } });
// A worker thread does not get the command line: the count comes in its workerData.
const fromParent = isMainThread ? undefined : (workerData as { textures: number }).textures;
const textureCount = fromParent ?? Number(values.textures ?? 24);

/** The large project's texture generator, seeded: a tenth normal maps, sizes 128 to 1,024 px. */
async function inputs(): Promise<{ rgba: Uint8Array; width: number; height: number; normal: boolean }[]> {
  const random = new Random(7);
  const out = [];
  for (let i = 0; i < textureCount; i++) {
    const normal = i % 10 === 0;
    const image = await decodeImage(await textureFile(random, normal), 'image/png');
    out.push({ rgba: image.rgba, width: image.width, height: image.height, normal });
  }
  return out;
}

/** Encodes every input once (after one warm-up encode); returns milliseconds and the output bytes. */
async function encodeAll(): Promise<{ ms: number; bytes: number }> {
  const list = await inputs();
  await encodeKtx2(list[0]!.rgba, list[0]!.width, list[0]!.height, 'color');
  const started = performance.now();
  let bytes = 0;
  for (const input of list) bytes += (await encodeKtx2(input.rgba, input.width, input.height, input.normal ? 'normal' : 'color')).length;
  return { ms: performance.now() - started, bytes };
}

function inThreads(count: number): Promise<{ ms: number; bytes: number }[]> {
  const url = new URL(import.meta.url);
  return Promise.all(Array.from({ length: count }, () => new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
    const worker = new Worker(url, { workerData: { textures: textureCount } });
    worker.once('message', (result: { ms: number; bytes: number }) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  })));
}

function inProcesses(count: number): Promise<{ ms: number; bytes: number }[]> {
  const self = fileURLToPath(import.meta.url);
  return Promise.all(Array.from({ length: count }, () => new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, self, '--child', '--textures', String(textureCount)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(text) as { ms: number; bytes: number });
      else reject(new Error(`an encoder process exited with ${code}`));
    });
  })));
}

if (fromParent !== undefined) {
  parentPort!.postMessage(await encodeAll());
} else if (values.child) {
  process.stdout.write(JSON.stringify(await encodeAll()));
} else {
  const counts = (values.counts ?? '1,4,8,16').split(',').map(Number);
  console.log(`${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} threads, Node ${process.version}: ${textureCount} textures per encoder`);
  const alone = await encodeAll();
  console.log(`alone (main thread): ${alone.ms.toFixed(0)} ms, ${alone.bytes} B`);
  const rows: { count: number; kind: string; meanMs: number; maxMs: number; slowdown: number }[] = [];
  for (const count of counts) {
    for (const [kind, run] of [['threads', inThreads], ['processes', inProcesses]] as const) {
      const results = await run(count);
      if (results.some((r) => r.bytes !== alone.bytes)) throw new Error(`${kind} x${count} wrote other bytes than the lone encoder`);
      const meanMs = results.reduce((s, r) => s + r.ms, 0) / count;
      const maxMs = Math.max(...results.map((r) => r.ms));
      // Against one encoder of the same kind (a lone thread or process), so start-up differences cancel.
      const lone = rows.find((row) => row.kind === kind && row.count === 1)?.meanMs ?? meanMs;
      rows.push({ count, kind, meanMs, maxMs, slowdown: meanMs / lone });
      console.log(`${String(count).padStart(2)} ${kind.padEnd(9)} mean ${meanMs.toFixed(0)} ms, slowest ${maxMs.toFixed(0)} ms: ${(meanMs / lone).toFixed(2)}x one ${kind === 'threads' ? 'thread' : 'process'}'s time`);
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ aloneMs: alone.ms, textures: textureCount, rows }, null, 2));
}

// A minimal tool for the figures: a WebSocket client that asks for frames, acknowledges each one
// (so the engine's backpressure never skips it), and times the stream or edits to the frames.
import WebSocket from 'ws';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const round = (x: number): number => Math.round(x * 10) / 10;

/** Frame header fields (protocol.ts): magic, sequence, width, height, reload generation. */
const SEQUENCE_AT = 4;
const GENERATION_AT = 16;

interface Connection {
  socket: WebSocket;
  /** Resolves with the next binary frame (header included) that `accept` takes. */
  nextFrame(accept: (frame: Buffer) => boolean): Promise<Buffer>;
  /** Resolves with the next JSON message that `accept` takes. */
  nextMessage(accept: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function connect(url: string, token: string, onFrame?: (frame: Buffer) => void, onMessage?: (message: Record<string, unknown>) => void): Promise<Connection> {
  const socket = new WebSocket(url, ['cuttle.v1', `token.${token}`]);
  const frameWaiters: { accept: (frame: Buffer) => boolean; resolve: (frame: Buffer) => void }[] = [];
  const messageWaiters: { accept: (message: Record<string, unknown>) => boolean; resolve: (message: Record<string, unknown>) => void }[] = [];
  socket.on('message', (data: Buffer, binary: boolean) => {
    if (!binary) {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      onMessage?.(message);
      const at = messageWaiters.findIndex((waiter) => waiter.accept(message));
      if (at >= 0) messageWaiters.splice(at, 1)[0]!.resolve(message);
      return;
    }
    socket.send(JSON.stringify({ type: 'frame', ack: data.readUInt32LE(SEQUENCE_AT) }));
    onFrame?.(data);
    const at = frameWaiters.findIndex((waiter) => waiter.accept(data));
    if (at >= 0) frameWaiters.splice(at, 1)[0]!.resolve(data);
  });
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () => {
      resolve({
        socket,
        nextFrame: (accept) => new Promise((done) => frameWaiters.push({ accept, resolve: done })),
        nextMessage: (accept) => new Promise((done) => messageWaiters.push({ accept, resolve: done })),
      });
    });
  });
}

export interface StreamFigures {
  fps: number;
  kbPerFrame: number;
  /** Median of the engine's per-frame CPU total (its profiler messages): render start to sent. */
  frameMs: number;
  /**
   * Medians of the parts of a frame from the profiler: the world update, recording and
   * submitting, waiting for the GPU and the pixels (readback), the JPEG encoding and send (which
   * overlaps the next frame's render), and the sum of the GPU passes' timestamps.
   */
  parts: { update: number; record: number; readback: number; encode: number; gpu: number };
}

/** Frames per second at `width` x `height` over `seconds`, after three warm-up frames. */
export async function streamFrames(url: string, token: string, { width, height, seconds, ssao = true }: { width: number; height: number; seconds: number; ssao?: boolean }): Promise<StreamFigures> {
  let frames = 0, bytes = 0, start = 0;
  const totals: number[] = [];
  const parts = { update: [] as number[], record: [] as number[], readback: [] as number[], encode: [] as number[], gpu: [] as number[] };
  const connection = await connect(
    url,
    token,
    (frame) => {
      if (start === 0 && frame.readUInt32LE(SEQUENCE_AT) >= 3) start = performance.now();
      else if (start > 0) {
        frames++;
        bytes += frame.length;
      }
    },
    (message) => {
      if (message.type !== 'profiler' || start === 0) return;
      const cpu = message.cpu as { total: number; update: number; record: number; readback: number; encode: number };
      totals.push(cpu.total);
      parts.update.push(cpu.update);
      parts.record.push(cpu.record);
      parts.readback.push(cpu.readback);
      parts.encode.push(cpu.encode);
      const gpu = Object.values(message.gpu as Record<string, number>);
      if (gpu.length > 0) parts.gpu.push(gpu.reduce((a, b) => a + b, 0));
    },
  );
  connection.socket.send(JSON.stringify({ type: 'profiler', enable: true }));
  connection.socket.send(JSON.stringify({ type: 'frame', width, height, fps: 60, quality: 75, ssao }));
  await connection.nextFrame(() => start > 0 && performance.now() - start > seconds * 1000);
  const elapsed = (performance.now() - start) / 1000;
  connection.socket.close();
  return { fps: round(frames / elapsed), kbPerFrame: Math.round(bytes / Math.max(1, frames) / 1024), frameMs: round(median(totals)),
    parts: {
      update: round(median(parts.update)),
      record: round(median(parts.record)),
      readback: round(median(parts.readback)),
      encode: round(median(parts.encode)),
      gpu: parts.gpu.length > 0 ? round(median(parts.gpu)) : Number.NaN,
    },
  };
}

export interface EditFigures {
  /** Edit to the first frame of the reloaded generation: median, fastest, slowest (ms). */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Medians of the parts: the edit (write and compile), the reload's reply, the frame after it. */
  editMs: number;
  reloadMs: number;
  frameMs: number;
  modes: string[];
}

/**
 * Edit to frame over the protocol, `edits` times while frames stream at `width` x `height`:
 * `edit(i)` writes and compiles the source, then `reload` names `resource`, and the clock
 * stops at the first frame whose header carries the generation the reply announced.
 */
export async function editToFrame(url: string, token: string, { width, height, edits, resource }: { width: number; height: number; edits: number; resource: string }, edit: (i: number) => Promise<void>): Promise<EditFigures> {
  const connection = await connect(url, token);
  connection.socket.send(JSON.stringify({ type: 'frame', width, height, fps: 60, quality: 75 }));
  await connection.nextFrame((frame) => frame.readUInt32LE(SEQUENCE_AT) >= 3);
  const total: number[] = [], editing: number[] = [], reloading: number[] = [], framing: number[] = [];
  const modes: string[] = [];
  for (let i = 0; i < edits; i++) {
    const t0 = performance.now();
    await edit(i);
    const t1 = performance.now();
    const id = 1000 + i;
    const reply = connection.nextMessage((message) => (message.type === 'reloaded' && message.id === id) || message.type === 'error');
    connection.socket.send(JSON.stringify({ type: 'reload', resources: [resource], id }));
    const reloaded = await reply;
    if (reloaded.type === 'error') throw new Error(`the engine refused reload ${i}: ${JSON.stringify(reloaded)}`);
    if (reloaded.ok !== true) throw new Error(`reload ${i} failed: ${String(reloaded.error)}`);
    const t2 = performance.now();
    const generation = reloaded.generation as number;
    await connection.nextFrame((frame) => frame.readUInt32LE(GENERATION_AT) >= generation);
    const t3 = performance.now();
    total.push(t3 - t0);
    editing.push(t1 - t0);
    reloading.push(t2 - t1);
    framing.push(t3 - t2);
    modes.push(String(reloaded.mode));
  }
  connection.socket.close();
  return { medianMs: round(median(total)), minMs: round(Math.min(...total)), maxMs: round(Math.max(...total)), editMs: round(median(editing)), reloadMs: round(median(reloading)), frameMs: round(median(framing)), modes: [...new Set(modes)] };
}

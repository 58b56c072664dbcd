// The slave-mode server: a WebSocket server (ws) in front of the engine. Each tool connection
// is authorized at the upgrade, then every text message is validated; a bad one gets an error
// reply and changes nothing. Frames are rendered on demand for the tools that asked, encoded as
// JPEG, and sent only to tools that keep up (backpressure: at most MAX_UNACKED frames in flight
// and a cap on the socket's queued bytes), so a slow or stalled tool is skipped, never queued
// for, and the others are not held back. Every message kind shares one outbound budget per
// connection (outbound.ts); every socket, accepted or refused, has an error listener before
// anything is written to it; refusals and failing frames are logged rate-limited.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { describeError } from '../describe-error.ts';
import type { RenderedFrame } from '../runtime/engine.ts';
import { authorize } from './auth.ts';
import { FlowDebugger } from './flow-debugger.ts';
import { LogLimiter } from './log-limiter.ts';
import { Outbound, OUTBOUND_BUDGET } from './outbound.ts';
import { nextFrameDue } from './pacing.ts';
import { FRAME_HEADER_BYTES, FRAME_MAGIC, MAX_PAYLOAD_BYTES, parseToolMessage, PROTOCOL_VERSION, SUBPROTOCOL, type ToolMessage } from './protocol.ts';
import { MemoryFeed } from './memory-feed.ts';
import type { SlaveEngine } from './slave-engine.ts';
import { runSlaveCommand, type SlaveCommands } from './slave-script.ts';

/** Frames a tool may have unacknowledged before it is skipped. */
export const MAX_UNACKED = 2;
/** Bytes queued on a socket past which it gets no frames until it drains. */
export const MAX_BUFFERED = OUTBOUND_BUDGET;
/** How long a refused connection may stay open after its refusal before it is destroyed. */
const REFUSED_LINGER_MS = 1000;

interface Stream {
  width: number;
  height: number;
  fps: number;
  quality: number;
}

interface Client {
  socket: WebSocket;
  out: Outbound;
  id: number;
  stream: Stream | undefined;
  seq: number;
  acked: number;
  /** When this tool's next frame is due (performance.now() ms): paced from render starts. */
  nextDue: number;
  profiler: boolean;
  skipped: number;
}

export interface SlaveServerOptions {
  engine: SlaveEngine;
  host: string;
  port: number;
  token: string;
  allowedOrigins: readonly string[];
  commands: SlaveCommands;
}

export class SlaveServer {
  readonly #engine: SlaveEngine;
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #clients = new Set<Client>();
  readonly #options: SlaveServerOptions;
  readonly #limited: LogLimiter;
  readonly #flow: FlowDebugger;
  readonly #memory: MemoryFeed;
  #nextId = 1;
  #rendering = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #framesRendered = 0;
  #lastFrame: RenderedFrame | undefined;
  /** The previous frame's JPEG encoding and send, which overlaps the next frame's render. */
  #encoding: Promise<void> = Promise.resolve();

  private constructor(options: SlaveServerOptions) {
    this.#options = options;
    this.#engine = options.engine;
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false) });
    this.#http = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('Connect with a WebSocket (subprotocol cuttle.v1) and the token the engine printed.\n');
    });
    this.#http.on('upgrade', (request, socket: Duplex, head) => {
      // Before anything is written: a client that resets the connection must not take the
      // process down with an unhandled 'error'.
      socket.on('error', () => { socket.destroy(); });
      const port = (this.#http.address() as AddressInfo).port;
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${options.host}:${port}`];
      const auth = authorize(request, { token: options.token, allowedOrigins: options.allowedOrigins, hosts });
      if (!auth.ok) {
        this.#refuse(socket, auth.status, auth.reason);
        return;
      }
      this.#wss.handleUpgrade(request, socket, head, (ws) => { this.#connected(ws); });
    });
    this.#http.on('clientError', (_error, socket: Duplex) => { socket.destroy(); });
    const log = this.#engine.log;
    this.#engine.log = (level, system, message) => {
      log(level, system, message);
      if (this.#clients.size === 0) return;
      const text = JSON.stringify({ type: 'message', level, system, message });
      for (const client of this.#clients) client.out.offer('log', text);
    };
    this.#limited = new LogLimiter((level, system, message) => { this.#engine.log(level, system, message); });
    this.#flow = new FlowDebugger(this.#engine, (level, system, message) => { this.#limited.report('flow debugger failures', level, system, message); });
    this.#memory = new MemoryFeed(this.#engine, (level, system, message) => { this.#limited.report('memory overview failures', level, system, message); });
  }

  /** Answers a refused upgrade and closes it: the reason is logged rate-limited, never per attempt. */
  #refuse(socket: Duplex, status: 401 | 403, reason: string): void {
    this.#limited.report('refused connections', 'warning', 'slave', `refused a connection: ${reason}`);
    const body = `${reason}\n`;
    socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // A client that never closes its side must not hold the socket.
    const linger = setTimeout(() => { socket.destroy(); }, REFUSED_LINGER_MS);
    linger.unref();
    socket.once('close', () => { clearTimeout(linger); });
  }

  static async start(options: SlaveServerOptions): Promise<SlaveServer> {
    const server = new SlaveServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#http.once('error', reject);
      server.#http.listen(options.port, options.host, resolve);
    });
    server.#schedule(0);
    return server;
  }

  get port(): number {
    return (this.#http.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.#options.host.includes(':') ? `[${this.#options.host}]` : this.#options.host;
    return `ws://${host}:${this.port}`;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  #connected(socket: WebSocket): void {
    const id = this.#nextId++;
    const out = new Outbound(socket, (reason) => {
      this.#left(client);
      this.#limited.report('tools closed for not reading', 'warning', 'slave', `closed tool connection ${id}: ${reason}`);
    });
    const client: Client = { socket, out, id, stream: undefined, seq: 0, acked: 0, nextDue: 0, profiler: false, skipped: 0 };
    this.#clients.add(client);
    socket.on('message', (data, isBinary) => {
      this.#received(client, data, isBinary);
    });
    socket.on('close', () => { this.#left(client); });
    socket.on('error', () => { this.#left(client); });
    this.#send(client, { type: 'hello', protocol: PROTOCOL_VERSION, level: this.#engine.level, generation: this.#engine.generation, title: this.#engine.world.title, units: this.#engine.world.listUnits() });
  }

  /** A tool's connection ended (or the budget closed it): it is forgotten, and its Flow breakpoints and pauses go with it. */
  #left(client: Client): void {
    this.#clients.delete(client);
    this.#flow.disconnect(client.out);
    this.#memory.unsubscribe(client.out);
  }

  /** A reply or announcement the tool waits for (never dropped; see outbound.ts). */
  #send(client: Client, message: object): void {
    client.out.reply(message);
  }

  #broadcast(message: object): void {
    const text = JSON.stringify(message);
    for (const client of this.#clients) client.out.reply(text);
  }

  #error(client: Client, problem: string, inReplyTo?: string): void {
    this.#send(client, { type: 'error', problem, ...(inReplyTo === undefined ? {} : { inReplyTo }) });
  }

  #received(client: Client, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.#error(client, 'binary messages are not accepted; send JSON text');
      return;
    }
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    const parsed = parseToolMessage(text);
    if (!parsed.ok) {
      this.#error(client, parsed.problem);
      return;
    }
    try {
      this.#handle(client, parsed.message);
    } catch (error) {
      this.#error(client, describeError(error), parsed.message.type);
    }
  }

  #handle(client: Client, message: ToolMessage): void {
    const engine = this.#engine;
    switch (message.type) {
      case 'message':
        engine.log(message.level, `tool:${message.system}`, message.message);
        return;
      case 'profiler':
        client.profiler = message.enable;
        return;
      case 'memory':
        // Throws (an error reply to this tool) when the engine keeps no memory overview.
        if (message.subscribe) this.#memory.subscribe(client.out);
        else this.#memory.unsubscribe(client.out);
        return;
      case 'script': {
        const result = runSlaveCommand(this.#options.commands, message.command, message.args);
        this.#send(client, { type: 'script', ...(message.id === undefined ? {} : { id: message.id }), command: message.command, result: result ?? null });
        return;
      }
      case 'reload': {
        const t0 = performance.now();
        const result = engine.reload(message.resources);
        const ms = Math.round((performance.now() - t0) * 10) / 10;
        if (result.ok) {
          engine.log('info', 'reload', `reloaded ${message.resources.join(', ')} ${result.mode} in ${ms} ms (generation ${result.generation})`);
          this.#broadcast({ type: 'reloaded', ...(message.id === undefined ? {} : { id: message.id }), ok: true, generation: result.generation, mode: result.mode, resources: message.resources, ms, units: engine.world.listUnits(), ...(result.flow ? { flow: result.flow } : {}) });
          // Watchers learn at once that their unit moved to a new world or its graph changed.
          if (this.#flow.active) this.#flow.poll(performance.now());
        } else {
          engine.log('error', 'reload', `reload of ${message.resources.join(', ')} failed, keeping the old data: ${result.error}`);
          this.#send(client, { type: 'reloaded', ...(message.id === undefined ? {} : { id: message.id }), ok: false, generation: engine.generation, resources: message.resources, error: result.error });
        }
        this.#schedule(0);
        return;
      }
      case 'frame': {
        if (message.ssao !== undefined) engine.renderer.ssao = message.ssao;
        if (message.ack !== undefined) client.acked = Math.max(client.acked, Math.min(message.ack, client.seq));
        if (message.stop) client.stream = undefined;
        else if (message.width !== undefined || message.height !== undefined || message.fps !== undefined || message.quality !== undefined || !client.stream) {
          const previous = client.stream;
          client.stream = { width: message.width ?? previous?.width ?? 640, height: message.height ?? previous?.height ?? 360, fps: message.fps ?? previous?.fps ?? 30, quality: message.quality ?? previous?.quality ?? 75 };
        }
        this.#schedule(0);
        return;
      }
      case 'camera':
        // The setter checks the camera: a bad one throws, and only this tool gets the error.
        engine.camera = { position: message.position, target: message.target, ...(message.fovY === undefined ? {} : { fovY: message.fovY }) };
        this.#schedule(0);
        return;
      case 'flow':
        try {
          this.#flow.handle(client.out, message);
        } catch (error) {
          this.#send(client, { type: 'error', problem: describeError(error), inReplyTo: 'flow', action: message.action, ...(message.id === undefined ? {} : { id: message.id }) });
        }
        return;
    }
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#pump(), ms);
  }

  /** Whether a tool is too far behind to be sent another frame now (it is skipped, not queued for). */
  #stalled(client: Client): boolean {
    return client.seq - client.acked >= MAX_UNACKED || !client.out.takesFrames;
  }

  /** Tools due a frame that keep up; stalled ones are skipped (and counted), never queued for. */
  #due(now: number): Client[] {
    const due: Client[] = [];
    for (const client of this.#clients) {
      if (!client.stream || !client.out.open || now < client.nextDue) continue;
      if (this.#stalled(client)) {
        client.skipped++;
        continue;
      }
      due.push(client);
    }
    return due;
  }

  /** Milliseconds until the earliest frame due to a tool that keeps up (Infinity when none). */
  #untilNextDue(now: number): number {
    let wait = Infinity;
    for (const client of this.#clients) {
      if (!client.stream || !client.out.open || this.#stalled(client)) continue;
      wait = Math.min(wait, Math.max(0, client.nextDue - now));
    }
    return wait;
  }

  async #pump(): Promise<void> {
    if (this.#rendering || this.#closed) return;
    const now = performance.now();
    for (const client of this.#clients) client.out.check(now);
    // Costs one Map size while no tool watches a Flow instance.
    if (this.#flow.active) this.#flow.poll(now);
    if (this.#memory.active) this.#memory.poll(now);
    const due = this.#due(now);
    if (due.length === 0) {
      // Nobody wants a frame now: keep the world ticking, and wake when the next one is due (a
      // stalled tool's ack wakes the pump itself; a full socket buffer is looked at again soon).
      try {
        this.#engine.tick();
      } catch (error) {
        this.#limited.report('failed updates', 'error', 'world', `update failed: ${describeError(error)}`);
      }
      this.#schedule(Math.min(this.#clients.size > 0 ? 15 : 100, this.#untilNextDue(now)));
      return;
    }
    this.#rendering = true;
    try {
      for (const client of due) client.nextDue = nextFrameDue(client.nextDue, client.stream!.fps, now);
      // One render per requested size; one encoding per (size, quality).
      const bySize = new Map<string, Client[]>();
      for (const client of due) {
        const key = `${client.stream!.width}x${client.stream!.height}`;
        bySize.set(key, [...(bySize.get(key) ?? []), client]);
      }
      // Each size is rendered on its own: one that fails does not stop the others' frames.
      for (const clients of bySize.values()) await this.#renderFor(clients);
    } finally {
      this.#rendering = false;
      this.#schedule(0);
    }
  }

  async #renderFor(clients: Client[]): Promise<void> {
    const { width, height } = clients[0]!.stream!;
    const t0 = performance.now();
    let frame: RenderedFrame;
    try {
      frame = await this.#engine.renderFrame(width, height);
    } catch (error) {
      this.#limited.report('failed frames', 'error', 'frames', `a ${width}x${height} frame failed: ${describeError(error)}`);
      return;
    }
    if (frame.flowFailure !== null) this.#limited.report('failed updates', 'error', 'world', `update failed: ${frame.flowFailure}`);
    this.#lastFrame = frame;
    this.#framesRendered++;
    // Sequence numbers count the frame as in flight from here, so backpressure sees it while
    // it is still being encoded.
    const sends = clients.map((client) => ({ client, seq: ++client.seq, quality: client.stream!.quality }));
    // The JPEG encoding runs on sharp's threads: it overlaps the next frame's render, one
    // encoding at a time, so frames leave in order and never pile up.
    await this.#encoding;
    this.#encoding = this.#encodeAndSend(frame, sends, t0, this.#framesRendered).catch((error: unknown) => {
      this.#limited.report('failed encodings', 'error', 'frames', `a frame's encoding failed: ${describeError(error)}`);
    });
  }

  async #encodeAndSend(frame: RenderedFrame, sends: { client: Client; seq: number; quality: number }[], t0: number, frameNumber: number): Promise<void> {
    const { width, height } = frame;
    const t1 = performance.now();
    const encoded = new Map<number, Buffer>();
    for (const { client, seq, quality } of sends) {
      let jpeg = encoded.get(quality);
      if (!jpeg) {
        jpeg = await sharp(frame.pixels, { raw: { width, height, channels: 4 } }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
        encoded.set(quality, jpeg);
      }
      if (!client.out.open) continue;
      const header = Buffer.alloc(FRAME_HEADER_BYTES);
      header.writeUInt32LE(FRAME_MAGIC, 0);
      header.writeUInt32LE(seq, 4);
      header.writeUInt32LE(width, 8);
      header.writeUInt32LE(height, 12);
      header.writeUInt32LE(frame.generation, 16);
      client.out.frame(Buffer.concat([header, jpeg]));
    }
    const encodeMs = performance.now() - t1;
    for (const { client } of sends) {
      if (client.profiler) client.out.offer('profiler', { type: 'profiler', frame: frameNumber, width, height, cpu: { ...frame.cpu, encode: encodeMs, total: performance.now() - t0 }, gpu: frame.gpu, skipped: client.skipped, dropped: client.out.dropped });
    }
  }

  get framesRendered(): number {
    return this.#framesRendered;
  }

  get lastFrame(): RenderedFrame | undefined {
    return this.#lastFrame;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const client of this.#clients) client.socket.terminate();
    await this.#encoding;
    this.#limited.flush();
    this.#wss.close();
    await new Promise<void>((resolve) => this.#http.close(() => { resolve(); }));
  }
}

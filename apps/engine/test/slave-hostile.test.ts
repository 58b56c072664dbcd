// Hostile and unlucky clients against a real engine process: connections refused and reset at
// once, a tool that stops reading while messages keep coming, floods of refused upgrades,
// degenerate cameras. After each, the engine is up, its memory bounded, and other tools are
// served.
import { readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { runCli, type Scratch } from './helpers.ts';
import { connect, slaveForFile, TOKEN, type SlaveProcess, type ToolClient } from './slave-helpers.ts';

let project: Scratch;
let slave: SlaveProcess;
slaveForFile((scratch, started) => {
  project = scratch;
  slave = started;
});

/** A raw WebSocket upgrade request with the given token and extra headers. */
function upgradeRequest(port: number, token: string, headers: Record<string, string> = {}): string {
  const lines = [
    'GET / HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Protocol: cuttle.v1, token.${token}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return lines.join('\r\n') + '\r\n\r\n';
}

/** Sends a refused upgrade and resets the TCP connection: at once, or as the refusal arrives. */
function refusedThenReset(port: number, token: string, resetOn: 'write' | 'data', headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.on('error', () => { resolve(); });
    socket.on('close', () => { resolve(); });
    socket.on('connect', () => {
      socket.write(upgradeRequest(port, token, headers), () => {
        if (resetOn === 'write') socket.resetAndDestroy();
      });
    });
    socket.on('data', () => { socket.resetAndDestroy(); });
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe('hostile clients', () => {
  test('100 refused connections reset at once do not crash the engine; a valid tool still gets frames', async () => {
    const port = portOf(slave.url);
    for (let i = 0; i < 100; i++) {
      const origin: Record<string, string> = i % 3 === 0 ? { Origin: 'http://evil.example' } : {};
      await refusedThenReset(port, i % 2 === 0 ? 'wrong-token-0123456789abcdef' : '', i % 4 < 2 ? 'write' : 'data', origin);
    }
    expect(slave.child.exitCode).toBeNull();
    const tool = await connect(slave.url);
    await tool.next((m) => m.type === 'hello');
    tool.send({ type: 'frame', width: 128, height: 64, fps: 30, quality: 50 });
    await tool.nextFrame();
    tool.close();
    expect(slave.child.exitCode).toBeNull();
  }, 60_000);
});

describe('refusals', () => {
  test('2,000 refused attempts with a 4 KB Origin reach the tools and stderr as a few summarised lines, header text cut', async () => {
    const tool = await connect(slave.url);
    await tool.next((m) => m.type === 'hello');
    // Let the summary of earlier refusals (the test above) go out first.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const earlier = tool.messages.length;
    const stderrBefore = slave.stderr().length;
    const port = portOf(slave.url);
    const origin = `http://${'a'.repeat(4000)}.example`;
    for (let batch = 0; batch < 40; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => refusedThenReset(port, 'wrong-token-0123456789abcdef', 'data', { Origin: origin })));
    }
    // Each refusal is in a line of its own or counted in a summary; the last summary comes
    // within a second of the last attempt.
    const refusalsNow = (): Record<string, unknown>[] => tool.messages.slice(earlier).filter((m) => m.type === 'message' && String(m.message).includes('refused'));
    const counted = (): number => refusalsNow().map((m) => /^(\d+) more refused/.exec(String(m.message))?.[1]).reduce((sum, n) => sum + (n === undefined ? 1 : Number(n)), 0);
    await tool.next(() => counted() >= 2000, 10_000);
    expect(counted()).toBe(2000);
    const refusals = refusalsNow();
    const bytes = refusals.reduce((sum, m) => sum + JSON.stringify(m).length, 0);
    // 2,000 attempts in a few seconds: about two lines a second, each under 500 bytes.
    expect(refusals.length).toBeLessThan(30);
    expect(bytes).toBeLessThan(30 * 500);
    expect(slave.stderr().length - stderrBefore).toBeLessThan(30 * 500);
    expect(String(refusals[0]!.message)).toMatch(/^refused a connection: Origin "http:\/\/a{73}"… \(4015 characters\) is not allowed/);
    tool.close();
  }, 60_000);
});

describe('cameras', () => {
  test('a degenerate camera gets an error reply to its sender only; one looking straight down is drawn; frames go on for everyone', async () => {
    const viewer = await connect(slave.url);
    await viewer.next((m) => m.type === 'hello');
    viewer.send({ type: 'frame', width: 128, height: 64, fps: 30, quality: 50 });
    await viewer.nextFrame();
    const driver = await connect(slave.url);
    await driver.next((m) => m.type === 'hello');
    const errors = (): Record<string, unknown>[] => driver.messages.filter((m) => m.type === 'error');
    const cameras = [
      { position: [0, 5, 0], target: [0, 5, 0], problem: /at least 0.001 apart/ },
      { position: [1e30, 0, 0], target: [0, 0, 0], problem: /outside ±1000000/ },
      { position: [0, 1e308, 0], target: [0, 0, 0], problem: /outside ±1000000/ },
    ];
    for (const [i, { position, target, problem }] of cameras.entries()) {
      driver.send({ type: 'camera', position, target });
      const error = await driver.next((m) => errors().indexOf(m) === i);
      expect(error).toMatchObject({ inReplyTo: 'camera' });
      expect(String(error.problem)).toMatch(problem);
    }
    expect(driver.messages.filter((m) => m.type === 'error')).toHaveLength(3);
    // Straight down the up axis: drawn with another up vector.
    driver.send({ type: 'camera', position: [0, 30, 0], target: [0, 0, 0] });
    const seq = viewer.frames.at(-1)!.readUInt32LE(4);
    await viewer.nextFrame((f) => f.readUInt32LE(4) > seq + 3);
    expect(viewer.messages.filter((m) => m.type === 'error')).toHaveLength(0);
    expect(slave.stderr()).not.toMatch(/frame failed/);
    viewer.close();
    driver.close();
  });
});

describe('the token', () => {
  test('never on the command line: --token is refused with what to do instead, and the running engine\'s command line has no token', async () => {
    const { code, stderr } = await runCli(['run', '--slave', project.out, '--token', 'a-token-on-the-command-line']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--token puts the token on the command line.*CUTTLE_ENGINE_TOKEN.*--token-file/s);
    const commandLine = readFileSync(`/proc/${slave.child.pid!}/cmdline`, 'utf8');
    expect(commandLine).not.toContain(TOKEN);
  });
});

/** The engine process's resident memory in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

function pauseReading(tool: ToolClient): void {
  (tool.socket as unknown as { _socket: { pause(): void } })._socket.pause();
}

function resumeReading(tool: ToolClient): void {
  (tool.socket as unknown as { _socket: { resume(): void } })._socket.resume();
}

describe('outbound budget', () => {
  test('stalled tools and 40,000 messages: the engine\'s memory stays bounded, replies are kept, log lines dropped and counted, frames go on', async () => {
    const healthy = await connect(slave.url);
    await healthy.next((m) => m.type === 'hello');
    healthy.send({ type: 'frame', width: 128, height: 64, fps: 30, quality: 50 });
    // A tool that only listens (log lines and profiler samples come to it) and stops reading.
    const listener = await connect(slave.url);
    await listener.next((m) => m.type === 'hello');
    listener.send({ type: 'profiler', enable: true });
    listener.send({ type: 'frame', width: 128, height: 64, fps: 30, quality: 50 });
    await listener.nextFrame();
    pauseReading(listener);
    // A tool that asks for replies and does not read them while it asks.
    const asker = await connect(slave.url);
    await asker.next((m) => m.type === 'hello');
    pauseReading(asker);
    // 40,000 messages: 4 KB log lines from the healthy tool (each is broadcast to every tool:
    // 80 MB for the stalled listener if it were queued for it) and script calls from the asker
    // (each gets a reply, and logs a line that goes to every tool). Sent in bursts, as a busy
    // tool would, with a pause for the engine's event loop between them.
    const text = 'x'.repeat(4000);
    let sent = 0;
    const flood = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++, sent++) {
        healthy.send({ type: 'message', level: 'info', system: 'flood', message: `${sent} ${text}` });
        asker.send({ type: 'script', id: sent, command: 'ping' });
        if (i % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 30));
      }
    };
    // Warm up first: the first frames of a size compile pipelines, and the first thousands of
    // messages grow the heap to its working size.
    await healthy.nextFrame((f) => f.readUInt32LE(4) >= 8);
    await flood(2000);
    const afterFrames = async (): Promise<void> => {
      const seq = healthy.frames.at(-1)!.readUInt32LE(4);
      await healthy.nextFrame((f) => f.readUInt32LE(4) > seq + 10);
    };
    await afterFrames();
    const before = rssMb(slave.child.pid!);
    await flood(20_000);
    // What the engine still holds once the flood has passed, with both tools still not reading
    // (anything queued for them is still there): the least resident memory seen over up to 10 s
    // of frames. The flood's own garbage comes and goes with the collector (10-80 MB over the
    // baseline at its peak in runs here, later on a loaded machine: a CI run under full load
    // was still 50.09 MB over after 4 s); what is retained stays.
    await afterFrames();
    let retained = Infinity;
    for (let polls = 0; polls < 100 && retained - before >= 50; polls++) {
      retained = Math.min(retained, rssMb(slave.child.pid!));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(retained - before).toBeLessThan(50);
    expect(slave.child.exitCode).toBeNull();
    // Replies are never dropped: the asker gets every one once it reads again.
    resumeReading(asker);
    await asker.next((m) => m.type === 'script' && m.id === sent - 1);
    expect(asker.messages.filter((m) => m.type === 'script')).toHaveLength(sent);
    // Log lines to the listener were dropped and counted, and it is told how many.
    resumeReading(listener);
    const dropped = await listener.next((m) => m.type === 'dropped');
    expect(dropped.log).toBeGreaterThan(10_000);
    expect(listener.socket.readyState).toBe(listener.socket.OPEN);
    for (const tool of [healthy, listener, asker]) tool.close();
  }, 60_000);
});

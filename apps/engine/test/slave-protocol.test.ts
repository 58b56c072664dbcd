// The slave protocol against a real engine process and real WebSocket clients: wrong token,
// foreign Origin, malformed JSON, unknown and invalid messages, oversized messages, a tool that
// stops reading frames. After each, the engine is still up and other tools are unaffected.
import { describe, expect, test } from 'vitest';
import { ALLOWED_ORIGIN, connect, slaveForFile, TOKEN, type SlaveProcess } from './slave-helpers.ts';

let slave: SlaveProcess;
slaveForFile((_project, started) => {
  slave = started;
});

async function stillServes(): Promise<void> {
  const tool = await connect(slave.url);
  const hello = await tool.next((m) => m.type === 'hello');
  expect(hello.level).toBe('levels/courtyard');
  tool.close();
  expect(slave.child.exitCode).toBeNull();
}

describe('slave protocol', () => {
  test('a connection says hello with the level and its units', async () => {
    const tool = await connect(slave.url);
    const hello = await tool.next((m) => m.type === 'hello');
    expect(hello).toMatchObject({ protocol: 1, level: 'levels/courtyard', generation: 0, title: 'Cuttle courtyard' });
    expect((hello.units as unknown[]).length).toBe(282);
    tool.close();
  });

  test('a wrong or missing token is refused (401)', async () => {
    await expect(connect(slave.url, { token: 'wrong-token-0123456789abcdef' })).rejects.toThrow('HTTP 401');
    await expect(connect(slave.url, { token: '' })).rejects.toThrow('HTTP 401');
    expect(slave.stderr()).toContain('refused a connection: missing or wrong token');
    await stillServes();
  });

  test('a browser page from a foreign Origin is refused (403), an allowed one connects', async () => {
    await expect(connect(slave.url, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(slave.url, { origin: 'http://127.0.0.1:5998' })).rejects.toThrow('HTTP 403');
    const tool = await connect(slave.url, { origin: ALLOWED_ORIGIN });
    await tool.next((m) => m.type === 'hello');
    tool.close();
    // DNS rebinding: a Host that is not this engine.
    const { default: WebSocket } = await import('ws');
    const socket = new WebSocket(slave.url, ['cuttle.v1', `token.${TOKEN}`], { headers: { host: 'attacker.example:80' } });
    const status = await new Promise<number>((resolve) => socket.once('unexpected-response', (_q, r) => { resolve(r.statusCode ?? 0); }));
    expect(status).toBe(403);
  });

  test('malformed JSON, unknown types, bad fields and binary messages get error replies; the connection stays usable', async () => {
    const tool = await connect(slave.url);
    await tool.next((m) => m.type === 'hello');
    tool.send('{"type": "script", ');
    expect((await tool.next((m) => m.type === 'error')).problem).toMatch(/^malformed JSON/);
    tool.send({ type: 'launch_missiles' });
    expect((await tool.next((m) => m.type === 'error' && String(m.problem).includes('launch_missiles'))).problem).toBe('unknown message type "launch_missiles"; known types: message, profiler, memory, script, reload, frame, camera, flow');
    tool.send([1, 2, 3]);
    await tool.next((m) => m.type === 'error' && m.problem === 'a message must be a JSON object with a "type"');
    tool.send({ type: 'frame', width: 100, height: 100 });
    expect((await tool.next((m) => m.type === 'error' && String(m.problem).includes('width'))).problem).toContain('frame message, field width');
    tool.send({ type: 'camera', position: [0, 1], target: [0, 0, 0] });
    await tool.next((m) => m.type === 'error' && String(m.problem).includes('field position'));
    tool.send({ type: 'reload', resources: ['../../etc/passwd'] });
    await tool.next((m) => m.type === 'error' && String(m.problem).includes('resources.0'));
    tool.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await tool.next((m) => m.type === 'error' && m.problem === 'binary messages are not accepted; send JSON text');
    // Scripts: only the slave module's own commands; nothing is evaluated.
    tool.send({ type: 'script', command: 'constructor' });
    await tool.next((m) => m.type === 'error' && String(m.problem).includes('has no command "constructor"'));
    tool.send({ type: 'script', command: 'process.exit', args: [] });
    await tool.next((m) => m.type === 'error' && String(m.problem).includes('field command'));
    tool.send({ type: 'script', id: 7, command: 'unit_count' });
    expect(await tool.next((m) => m.type === 'script' && m.id === 7)).toMatchObject({ command: 'unit_count', result: 282 });
    tool.close();
    await stillServes();
  });

  test('an oversized message gets an error reply; a huge one closes only that connection (1009)', async () => {
    const other = await connect(slave.url);
    await other.next((m) => m.type === 'hello');
    const tool = await connect(slave.url);
    await tool.next((m) => m.type === 'hello');
    tool.send({ type: 'message', level: 'info', system: 'tool', message: 'x'.repeat(20_000) });
    expect((await tool.next((m) => m.type === 'error')).problem).toMatch(/larger than the 16384 allowed/);
    const closed = new Promise<number>((resolve) => tool.socket.once('close', resolve));
    tool.send('x'.repeat(300_000));
    expect(await closed).toBe(1009);
    other.send({ type: 'script', id: 1, command: 'ping' });
    expect(await other.next((m) => m.type === 'script' && m.id === 1)).toMatchObject({ result: 'pong' });
    other.close();
    await stillServes();
  });

  test('a tool that stops reading frames is skipped; another keeps getting them', async () => {
    const stalled = await connect(slave.url, { ack: false });
    await stalled.next((m) => m.type === 'hello');
    stalled.send({ type: 'frame', width: 256, height: 144, fps: 30, quality: 60 });
    await stalled.nextFrame();
    // Stop reading the socket altogether.
    (stalled.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const healthy = await connect(slave.url);
    await healthy.next((m) => m.type === 'hello');
    healthy.send({ type: 'profiler', enable: true });
    healthy.send({ type: 'frame', width: 256, height: 144, fps: 30, quality: 60 });
    await healthy.nextFrame((f) => f.readUInt32LE(4) === 6, 60_000);
    const profiler = await healthy.next((m) => m.type === 'profiler');
    expect(profiler).toMatchObject({ width: 256, height: 144 });
    expect(stalled.frames.length).toBeLessThanOrEqual(2);
    // The header: magic, sequence, size, reload generation.
    const frame = healthy.frames.at(-1)!;
    expect(frame.readUInt32LE(0)).toBe(0x46545543);
    expect([frame.readUInt32LE(8), frame.readUInt32LE(12)]).toEqual([256, 144]);
    expect(frame.subarray(20, 22)).toEqual(Buffer.from([0xff, 0xd8])); // JPEG
    stalled.socket.terminate();
    healthy.close();
    await stillServes();
  }, 90_000);
});

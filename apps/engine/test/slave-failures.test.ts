// The slave server with a fake engine whose frames fail on demand: a frame that fails stops no
// other tool's stream, its error is never empty and is logged rate-limited, not once a frame.
import { afterEach, describe, expect, test } from 'vitest';
import type { CameraInput } from '../src/runtime/camera.ts';
import { checkCamera } from '../src/runtime/camera.ts';
import type { RenderedFrame } from '../src/runtime/engine.ts';
import type { LogFn } from '../src/runtime/world.ts';
import { SlaveServer } from '../src/slave/server.ts';
import type { SlaveEngine } from '../src/slave/slave-engine.ts';
import { connect, TOKEN } from './slave-helpers.ts';

class FakeEngine implements SlaveEngine {
  readonly lines: string[] = [];
  log: LogFn = (level, system, message) => { this.lines.push(`[${level}] ${system}: ${message}`); };
  readonly level = 'levels/fake';
  readonly generation = 0;
  readonly world = { title: 'fake', listUnits: (): unknown[] => [] };
  readonly renderer = { ssao: true };
  #camera: CameraInput = { position: [0, 1, 5], target: [0, 0, 0] };
  /** Widths whose frames throw an Error with an empty message. */
  failingWidths = new Set<number>();
  /** What each frame reports as a failed Flow update (null: none). */
  flowFailure: string | null = null;

  get camera(): CameraInput {
    return this.#camera;
  }

  set camera(camera: CameraInput) {
    this.#camera = checkCamera(camera);
  }

  reload(): { ok: false; error: string } {
    return { ok: false, error: 'not in the fake' };
  }

  ticks = 0;

  tick(): void {
    this.ticks++;
  }

  renderFrame(width: number, height: number): Promise<RenderedFrame> {
    if (this.failingWidths.has(width)) return Promise.reject(new Error(''));
    return Promise.resolve({ width, height, pixels: new Uint8Array(width * height * 4), cpu: { update: 0, record: 0, readback: 0 }, gpu: {}, generation: 0, flowFailure: this.flowFailure });
  }
}

let server: SlaveServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('failing frames', () => {
  test('a size whose frames fail stops no other tool\'s stream; the error says something and is logged about once a second', async () => {
    const engine = new FakeEngine();
    engine.failingWidths.add(128);
    server = await SlaveServer.start({ engine, host: '127.0.0.1', port: 0, token: TOKEN, allowedOrigins: [], commands: {} });
    const failing = await connect(server.url);
    const working = await connect(server.url);
    failing.send({ type: 'frame', width: 128, height: 64, fps: 60, quality: 50 });
    working.send({ type: 'frame', width: 192, height: 64, fps: 60, quality: 50 });
    await working.nextFrame((f) => f.readUInt32LE(4) >= 30, 10_000);
    expect(failing.frames).toHaveLength(0);
    const failures = engine.lines.filter((l) => l.includes('128x64 frame failed'));
    expect(failures[0]).toBe('[error] frames: a 128x64 frame failed: Error with no message');
    // 30 frames at 60 fps is half a second: one line, or one and a summary.
    expect(failures.length).toBeLessThanOrEqual(2);
    failing.close();
    working.close();
  });

  test('frames whose Flow update failed are still sent, and the failure is logged about once a second', async () => {
    const engine = new FakeEngine();
    engine.flowFailure = 'The Flow update failed in 1 instance: the level (flow/courtyard): too many steps';
    server = await SlaveServer.start({ engine, host: '127.0.0.1', port: 0, token: TOKEN, allowedOrigins: [], commands: {} });
    const tool = await connect(server.url);
    tool.send({ type: 'frame', width: 128, height: 64, fps: 60, quality: 50 });
    await tool.nextFrame((f) => f.readUInt32LE(4) >= 30, 10_000);
    const failures = engine.lines.filter((l) => l.includes('update failed'));
    expect(failures[0]).toBe('[error] world: update failed: The Flow update failed in 1 instance: the level (flow/courtyard): too many steps');
    expect(failures.length).toBeLessThanOrEqual(2);
    tool.close();
  });

  test('a camera that cannot be drawn gets an error reply to its sender only; the old camera stays', async () => {
    const engine = new FakeEngine();
    server = await SlaveServer.start({ engine, host: '127.0.0.1', port: 0, token: TOKEN, allowedOrigins: [], commands: {} });
    const sender = await connect(server.url);
    const other = await connect(server.url);
    await other.next((m) => m.type === 'hello');
    sender.send({ type: 'camera', position: [1, 2, 3], target: [1, 2, 3] });
    const error = await sender.next((m) => m.type === 'error');
    expect(error).toMatchObject({ inReplyTo: 'camera' });
    expect(String(error.problem)).toMatch(/at least 0.001 apart/);
    sender.send({ type: 'camera', position: [1e30, 0, 0], target: [0, 0, 0] });
    await sender.next((m) => m.type === 'error' && String(m.problem).includes('outside'));
    expect(engine.camera).toEqual({ position: [0, 1, 5], target: [0, 0, 0] });
    other.send({ type: 'script', id: 1, command: 'nothing' });
    await other.next((m) => m.type === 'error' && String(m.problem).includes('nothing'));
    expect(other.messages.filter((m) => m.type === 'error')).toHaveLength(1);
    sender.close();
    other.close();
  });
});

// The memory overview over the protocol: a real engine (the compiled sample on Dawn) behind the
// slave server in this process, so the test can compare what a tool receives with the engine's
// own report. Subscribing gets the allocator tree about twice a second; bad messages get error
// replies and change nothing; a tool that falls behind misses trees instead of queuing them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import type { MemoryNode } from '../src/runtime/memory-tree.ts';
import { MemoryFeed } from '../src/slave/memory-feed.ts';
import { DROPPABLE_BYTES, Outbound, type OutboundSocket } from '../src/slave/outbound.ts';
import { SlaveServer } from '../src/slave/server.ts';
import { scratchProject, type Scratch } from './helpers.ts';
import { connect, TOKEN, type ToolClient } from './slave-helpers.ts';

let project: Scratch;
let engine: Engine;
let server: SlaveServer;
beforeAll(async () => {
  project = scratchProject();
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
  engine = await Engine.start({ data: project.out, log: () => undefined });
  server = await SlaveServer.start({ engine, host: '127.0.0.1', port: 0, token: TOKEN, allowedOrigins: [], commands: {} });
}, 60_000);
afterAll(async () => {
  await server.close();
  engine.destroy();
  project.dispose();
});

const trees = (tool: ToolClient): { seq: number; tree: MemoryNode }[] => tool.messages.filter((m) => m.type === 'memory') as unknown as { seq: number; tree: MemoryNode }[];

function child(node: MemoryNode, name: string): MemoryNode {
  const found = node.children.find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} under ${node.name}`);
  return found;
}

describe('memory overview', () => {
  test('a subscriber gets the allocator tree at once, then about twice a second; its root matches the engine', async () => {
    const tool = await connect(server.url);
    await tool.next((m) => m.type === 'hello');
    tool.send({ type: 'memory', subscribe: true });
    const first = (await tool.next((m) => m.type === 'memory')) as unknown as { seq: number; tree: MemoryNode };
    const report = engine.memoryTree();
    expect(first.tree.name).toBe('engine');
    expect(first.tree.bytes).toBe(report.bytes);
    expect(first.tree.count).toBe(report.count);
    expect(first.tree.children.map((c) => c.name)).toEqual(['gpu/vertices', 'gpu/indices', 'gpu/uniforms', 'gpu/instances', 'frame']);
    const vertices = child(first.tree, 'gpu/vertices');
    expect(vertices).toMatchObject({ kind: 'GpuBufferAllocator', buffers: 1, capacity: 8 << 20 });
    expect(vertices.bytes).toBeGreaterThan(0);
    expect(vertices.peak).toBeGreaterThanOrEqual(vertices.bytes);
    expect(vertices.fragmentation).toBeGreaterThanOrEqual(0);
    expect(child(vertices, 'world')).toMatchObject({ kind: 'ProxyAllocator', bytes: vertices.bytes, capacity: null, fragmentation: null });

    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const received = trees(tool).filter((t) => t.seq > first.seq);
    const seconds = (performance.now() - t0) / 1000;
    // About 2 a second (the pump may be late while a frame renders; nobody asks for frames here).
    expect(received.length).toBeGreaterThanOrEqual(Math.floor(seconds * 2) - 1);
    expect(received.length).toBeLessThanOrEqual(Math.ceil(seconds * 2) + 1);
    expect(received.map((t) => t.seq)).toEqual(received.map((_, i) => first.seq + 1 + i));

    tool.send({ type: 'memory', subscribe: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = trees(tool).length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(trees(tool).length).toBe(count);
    tool.close();
  }, 20_000);

  test('a rebuild shows in the tree with the same bytes in use', async () => {
    const tool = await connect(server.url);
    tool.send({ type: 'memory', subscribe: true });
    const before = (await tool.next((m) => m.type === 'memory')) as unknown as { seq: number; tree: MemoryNode };
    expect(engine.reload(['meshes/crate.glb'])).toMatchObject({ ok: true, mode: 'rebuilt' });
    const after = (await tool.next((m) => m.type === 'memory' && (m.seq as number) > before.seq)) as unknown as { tree: MemoryNode };
    expect(child(after.tree, 'gpu/vertices').bytes).toBe(child(before.tree, 'gpu/vertices').bytes);
    expect(after.tree.bytes).toBe(before.tree.bytes);
    // Both worlds held their ranges during the rebuild.
    expect(child(after.tree, 'gpu/vertices').peak).toBe(2 * child(after.tree, 'gpu/vertices').bytes);
    tool.close();
  }, 20_000);

  test('bad memory messages get error replies naming the field; the connection stays usable', async () => {
    const tool = await connect(server.url);
    await tool.next((m) => m.type === 'hello');
    const bad = [{ type: 'memory' }, { type: 'memory', subscribe: 'yes' }, { type: 'memory', subscribe: true, depth: 99 }, { type: 'memory', subscribe: null }];
    for (const message of bad) tool.send(message);
    await tool.next(() => tool.messages.filter((m) => m.type === 'error').length === bad.length);
    const errors = tool.messages.filter((m) => m.type === 'error').map((m) => String(m.problem));
    expect(errors[0]).toMatch(/memory message, field subscribe/);
    expect(errors[1]).toMatch(/field subscribe/);
    expect(errors[2]).toMatch(/depth/);
    expect(trees(tool)).toEqual([]);
    tool.send({ type: 'memory', subscribe: true });
    await tool.next((m) => m.type === 'memory');
    tool.close();
  }, 20_000);

  test('a tool that is behind misses trees (counted with the profiler samples) instead of queuing them', () => {
    const sent: string[] = [];
    const socket: OutboundSocket = { bufferedAmount: DROPPABLE_BYTES + 1, readyState: 1, OPEN: 1, send: (data) => { sent.push(String(data)); }, terminate: () => undefined };
    const out = new Outbound(socket, () => undefined);
    const feed = new MemoryFeed(engine, () => undefined);
    feed.subscribe(out);
    for (let i = 0; i < 10; i++) feed.poll(i * 500);
    expect(sent).toEqual([]);
    expect(out.dropped.profiler).toBe(10);
    (socket as { bufferedAmount: number }).bufferedAmount = 0;
    feed.poll(10 * 500);
    expect(sent.map((s) => (JSON.parse(s) as { type: string }).type)).toEqual(['dropped', 'memory']);
  });
});


// Hot reload in a running engine: a material, a level's units, a Flow graph and a font are
// recompiled and reloaded without a restart, and the change shows in the streamed frames, through
// the slave script or in the Flow debugger's messages; a resource that fails to load keeps the old one and says why.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { scratchProject, type Scratch } from './helpers.ts';
import { connect, startSlave, type SlaveProcess, type ToolClient } from './slave-helpers.ts';

let project: Scratch;
let slave: SlaveProcess;
let tool: ToolClient;
let reloadId = 0;
beforeAll(async () => {
  project = scratchProject();
  slave = await startSlave(project);
  tool = await connect(slave.url);
  await tool.next((m) => m.type === 'hello');
  // Straight down at the floor in front of the crates: mostly paving.
  tool.send({ type: 'camera', position: [0, 12, -2], target: [0, 0, -2.01] });
  tool.send({ type: 'frame', width: 192, height: 128, fps: 20, quality: 90 });
}, 60_000);
afterAll(async () => {
  tool.close();
  await slave.stop();
  project.dispose();
});

async function meanColor(frame: Buffer): Promise<[number, number, number]> {
  const { data, info } = await sharp(frame.subarray(20)).raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  const n = data.length / info.channels;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

async function recompileAndReload(paths: string[]): Promise<Record<string, unknown>> {
  const report = await compileProject(project.source, project.out);
  expect(report.failed).toEqual([]);
  const id = ++reloadId;
  tool.send({ type: 'reload', id, resources: paths });
  return tool.next((m) => m.type === 'reloaded' && m.id === id);
}

const generationOf = (frame: Buffer): number => frame.readUInt32LE(16);

describe('hot reload', () => {
  test('a material: updated in place, the paving turns red in the next frames', async () => {
    const before = await meanColor(await tool.nextFrame((f) => generationOf(f) === 0));
    project.edit('materials/stone.material', 'base_color = [0.55 0.5 0.45 1]', 'base_color = [0.9 0.05 0.05 1]');
    const reloaded = await recompileAndReload(['materials/stone.material']);
    expect(reloaded).toMatchObject({ ok: true, generation: 1, mode: 'in-place' });
    const after = await meanColor(await tool.nextFrame((f) => generationOf(f) === 1));
    expect(after[0] - after[1]).toBeGreaterThan(before[0] - before[1] + 40);
  }, 60_000);

  test("a level's units: a moved unit is where the source says", async () => {
    project.edit('levels/courtyard.level', 'position = [-17.7 0.5 2]', 'position = [-17.7 3.5 2]');
    const reloaded = await recompileAndReload(['levels/courtyard.level']);
    // Only a transform changed: patched into the running world, not rebuilt.
    expect(reloaded).toMatchObject({ ok: true, mode: 'in-place' });
    const units = reloaded.units as { id: string; position: number[] }[];
    expect(units.find((u) => u.id === 'crate_001')!.position[1]).toBeCloseTo(3.5);
    await tool.nextFrame((f) => generationOf(f) === reloaded.generation);
  }, 60_000);

  test("a unit's material in the level: patched in place", async () => {
    project.edit('levels/courtyard.level', `id = "crate_002"\n        unit = "units/crate"\n        position = [-16.4 0.5 2]`, `id = "crate_002"\n        unit = "units/crate"\n        position = [-16.4 0.5 2]\n        material = "materials/brass"`);
    const reloaded = await recompileAndReload(['levels/courtyard.level']);
    expect(reloaded).toMatchObject({ ok: true, mode: 'in-place' });
    await tool.nextFrame((f) => generationOf(f) === reloaded.generation);
  }, 60_000);

  test('a change to the level header (the sun) rebuilds the world', async () => {
    project.edit('levels/courtyard.level', 'intensity = 2.4', 'intensity = 1.2');
    const reloaded = await recompileAndReload(['levels/courtyard.level']);
    expect(reloaded).toMatchObject({ ok: true, mode: 'rebuilt' });
    await tool.nextFrame((f) => generationOf(f) === reloaded.generation);
  }, 60_000);

  test('a Flow graph: the running level script switches in place and keeps its state; a watching tool sees it run', async () => {
    // Watch the level's graph: its timer ticks every 2 s into a counter.
    tool.send({ type: 'flow', id: 1, action: 'list' });
    const list = await tool.next((m) => m.type === 'flow.units');
    expect((list.units as { unit: string | null; graph: string }[]).filter((u) => u.unit === null)).toEqual([expect.objectContaining({ graph: 'flow/courtyard.flow', kind: 'level' })]);
    expect((list.units as { unit: string | null; graph: string }[]).some((u) => u.unit === 'lamp_00' && u.graph === 'flow/lamp.flow')).toBe(true);
    tool.send({ type: 'flow', id: 2, action: 'watch', unit: null });
    const watching = await tool.next((m) => m.type === 'flow.watching' && m.id === 2);
    // Node ids from the graph, pins named by the compiler's node types and the registry.
    expect((watching.nodes as { id: string; pins: string[] }[]).find((n) => n.id === 'count')).toEqual({ id: 'count', type: 'logic/counter', pins: ['target', 'count'] });
    const counted = (m: Record<string, unknown>): number | undefined => (m.type === 'flow.activity' ? (m.values as Record<string, number[]>).count?.[1] : undefined);
    const first = counted(await tool.next((m) => counted(m) !== undefined, 10_000))!;

    // The title the level script set at load stays: level_loaded does not fire again.
    project.edit('flow/courtyard.flow', 'text = "Cuttle courtyard"', 'text = "Reloaded courtyard"');
    const reloaded = await recompileAndReload(['flow/courtyard.flow']);
    expect(reloaded).toMatchObject({ ok: true, mode: 'in-place', flow: [{ graph: 'flow/courtyard.flow', report: { instances: 1, nodesRemoved: [] } }] });
    tool.send({ type: 'script', id: 100, command: 'title' });
    expect(await tool.next((m) => m.type === 'script' && m.id === 100)).toMatchObject({ result: 'Cuttle courtyard' });
    await tool.next((m) => m.type === 'message' && m.system === 'reload' && String(m.message).startsWith('flow/courtyard.flow: 1 instance switched'));
    // The counter kept its count through the reload (a new instance would start again at 1).
    const count = tool.messages.length;
    const after = counted(await tool.next((m) => tool.messages.indexOf(m) >= count && counted(m) !== undefined, 10_000))!;
    expect(after).toBeGreaterThan(first);
    tool.send({ type: 'flow', id: 3, action: 'unwatch' });
    await tool.next((m) => m.type === 'flow.watching' && m.id === 3);
  }, 60_000);

  test('a font: a new size reloads', async () => {
    project.edit('fonts/dejavu.font', 'size = 32', 'size = 40');
    const reloaded = await recompileAndReload(['fonts/dejavu.font']);
    expect(reloaded.ok).toBe(true);
    await tool.nextFrame((f) => generationOf(f) === reloaded.generation);
  }, 60_000);

  test('a failed load keeps the old resource, reports why, and the engine keeps streaming', async () => {
    const generation = (await tool.next((m) => m.type === 'reloaded' && m.id === reloadId)).generation as number;
    writeFileSync(join(project.out, 'materials/stone.material.cr'), 'not a container');
    const id = ++reloadId;
    tool.send({ type: 'reload', id, resources: ['materials/stone.material'] });
    const failed = await tool.next((m) => m.type === 'reloaded' && m.id === id);
    expect(failed).toMatchObject({ ok: false, generation });
    expect(failed.error).toContain('materials/stone.material.cr');
    const log = await tool.next((m) => m.type === 'message' && m.system === 'reload' && m.level === 'error');
    expect(log.message).toContain('keeping the old data');
    // Still red: the old material is in use; frames keep coming.
    const count = tool.frames.length;
    const frame = await tool.nextFrame((f) => tool.frames.indexOf(f) >= count + 1);
    const [r, g] = await meanColor(frame);
    expect(r - g).toBeGreaterThan(40);
    // A missing resource fails the same way.
    tool.send({ type: 'reload', id: ++reloadId, resources: ['materials/nothing.material'] });
    expect((await tool.next((m) => m.type === 'reloaded' && m.id === reloadId)).error).toContain('not in the compiled data');
  }, 60_000);
});

// Hot reload frees and reuses the engine's buffer ranges: 1,000 world rebuilds of the compiled
// sample, through the engine's own reload path, leave the memory overview as it was after the
// first frame (same bytes in use, same allocations, same GPUBuffers, fragmentation bounded), and
// rebuilds that fail half-way give back what they took.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import type { MemoryNode } from '../src/runtime/memory-tree.ts';
import { scratchProject, type Scratch } from './helpers.ts';

const RELOADS = 1000;
// A static mesh: the cheapest reload that rebuilds the world (a new RenderScene with every mesh,
// material, texture and instance; skinning, fluid and the title font are reused as on any rebuild).
const REBUILD = ['meshes/crate.glb'];

let project: Scratch;
let engine: Engine;
beforeAll(async () => {
  project = scratchProject();
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
  engine = await Engine.start({ data: project.out, log: () => undefined });
}, 60_000);
afterAll(() => {
  engine.destroy();
  project.dispose();
});

/**
 * Everything but the peaks, which only ever rise, and fragmentation: a rebuilt world allocates
 * while the old one still holds its ranges, so its ranges may sit elsewhere than the first's.
 */
function usage(node: MemoryNode): unknown {
  return { name: node.name, bytes: node.bytes, count: node.count, capacity: node.capacity, buffers: node.buffers, children: node.children.map(usage) };
}

function maxFragmentation(node: MemoryNode): number {
  return Math.max(node.fragmentation ?? 0, ...node.children.map(maxFragmentation));
}

function find(node: MemoryNode, path: readonly string[]): MemoryNode {
  let at = node;
  for (const name of path) {
    const child = at.children.find((c) => c.name === name);
    if (!child) throw new Error(`no ${name} under ${at.name}; children: ${at.children.map((c) => c.name).join(', ')}`);
    at = child;
  }
  return at;
}

describe('memory across hot reloads', () => {
  test(`${RELOADS} world rebuilds: same bytes, allocations and GPUBuffers as after the first frame`, async () => {
    await engine.renderFrame(128, 64);
    const first = engine.memoryTree();
    const vertices = find(first, ['gpu/vertices']);
    expect(vertices.bytes).toBeGreaterThan(0);
    // The world's proxy holds every range of the allocator: nothing else allocates from it.
    expect(find(first, ['gpu/vertices', 'world']).bytes).toBe(vertices.bytes);
    expect(find(first, ['gpu/uniforms']).count).toBeGreaterThan(0);
    expect(find(first, ['gpu/instances']).count).toBe(1);
    expect(find(first, ['frame']).bytes).toBeGreaterThan(0);

    const t0 = performance.now();
    for (let i = 0; i < RELOADS; i++) {
      const result = engine.reload(REBUILD);
      if (!result.ok || result.mode !== 'rebuilt') throw new Error(`reload ${i} did not rebuild: ${JSON.stringify(result)}`);
    }
    const ms = performance.now() - t0;
    await engine.renderFrame(128, 64);
    const after = engine.memoryTree();
    expect(usage(after)).toEqual(usage(first));
    // While a rebuild runs both worlds hold their ranges: the peak, and still one GPUBuffer each.
    expect(find(after, ['gpu/vertices']).peak).toBe(2 * vertices.bytes);
    expect(after.buffers).toBe(4);
    expect(maxFragmentation(after)).toBeLessThan(0.05);

    // Rebuilds that fail half-way (a corrupt mesh output; the new scene holds its instance range
    // and whatever it built before by then) give back what they took: the old world keeps exactly what it had.
    const file = join(project.out, engine.store.manifest.resources[REBUILD[0]!]!.file);
    const good = readFileSync(file);
    writeFileSync(file, Buffer.from('not a container'));
    for (let i = 0; i < 50; i++) expect(engine.reload(REBUILD).ok).toBe(false);
    writeFileSync(file, good);
    expect(usage(engine.memoryTree())).toEqual(usage(first));
    expect(engine.reload(REBUILD)).toMatchObject({ ok: true, mode: 'rebuilt' });
    expect(usage(engine.memoryTree())).toEqual(usage(first));

    console.log(`${RELOADS} rebuilds in ${(ms / 1000).toFixed(1)} s (${(ms / RELOADS).toFixed(1)} ms each); in use before ${first.bytes} B, after ${after.bytes} B; ` +
      after.children.map((c) => `${c.name} ${c.bytes} B / ${c.capacity ?? '-'} B in ${c.count} (peak ${c.peak} B)`).join(', '));
  }, 55_000);
});

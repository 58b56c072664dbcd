// A world's textures transcoded on the frame workers (a @cuttle/jobs Dispatch, the main thread
// helping) against the one-thread load: the same textures added in the same order with the
// same ids, formats, sizes and level bytes; damaged files refused naming the texture; a kernel
// that throws on a worker reported, not hung.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { encodePng } from '@cuttle/gui';
import { JobFailedError, type JobSystem } from '@cuttle/jobs';
import { RenderScene, type CompressedTextureInput } from '@cuttle/render';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { readContainer, section, writeContainer } from '../src/runtime/container.ts';
import { Engine } from '../src/runtime/engine.ts';
import { EngineError } from '../src/errors.ts';
import type { TextureMeta } from '../src/runtime/formats.ts';
import { TextureLoader } from '../src/runtime/texture-loader.ts';
import { basisModule } from '../src/textures/basis-module.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { APP, scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
let jobs: JobSystem;

/** Extra textures of every usage and several sizes (one not a multiple of 4: RGBA8), each on a crate. */
const EXTRA: { side: [number, number]; key: string; alpha?: boolean }[] = [
  { side: [128, 128], key: 'base_color_texture' },
  { side: [64, 32], key: 'base_color_texture', alpha: true },
  { side: [16, 16], key: 'base_color_texture' },
  { side: [18, 10], key: 'base_color_texture' },
  { side: [64, 64], key: 'normal_texture' },
  { side: [32, 64], key: 'metallic_roughness_texture' },
  { side: [256, 128], key: 'base_color_texture' },
];

function pattern(width: number, height: number, seed: number, alpha: boolean): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data.set([(x * 7 + seed * 40) & 255, (y * 5 + seed * 13) & 255, ((x ^ y) * 3) & 255, alpha ? (x * 255) / width : 255], i);
    }
  }
  return data;
}

beforeAll(async () => {
  project = scratchProject();
  let placements = '';
  for (const [k, { side: [width, height], key, alpha }] of EXTRA.entries()) {
    writeFileSync(join(project.source, `textures/extra_${k}.png`), await encodePng({ width, height, channels: 4, data: pattern(width, height, k, alpha ?? false) }));
    writeFileSync(join(project.source, `materials/extra_${k}.material`), `base_color = [1 1 1 1]\nroughness = 0.5\n${key} = "textures/extra_${k}"\n`);
    placements += `\n    {\n        id = "extra_${k}"\n        unit = "units/crate"\n        position = [${k * 2} 1 -20]\n        material = "materials/extra_${k}"\n    }`;
  }
  // A GLB drawn with its own materials: its embedded images go through the prefetch too.
  copyFileSync(join(APP, 'test/fixtures/wild/CesiumMilkTruck.glb'), join(project.source, 'meshes/truck.glb'));
  writeFileSync(join(project.source, 'units/truck.unit'), 'mesh = "meshes/truck"\n');
  placements += '\n    {\n        id = "truck"\n        unit = "units/truck"\n        position = [0 0 -30]\n    }';
  project.edit('levels/courtyard.level', 'units = [', `units = [${placements}`);
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
  jobs = (await startFrameWorkers(3))!;
}, 60_000);

afterAll(async () => {
  await jobs.shutdown();
  project.dispose();
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface Upload {
  id: number;
  format: string;
  width: number;
  height: number;
  levels: Uint8Array[];
}

/**
 * Starts an engine on the project and records every compressed texture its world uploads, in
 * order, and how many came transcoded ahead; `rebuilds`: worlds built again by a hot reload
 * after the first (their uploads recorded too).
 */
async function uploads(frameThreads: number, rebuilds = 0): Promise<{ uploads: Upload[]; prefetched: number }> {
  const spy = vi.spyOn(RenderScene.prototype, 'addCompressedTexture');
  const engine = await Engine.start({ data: project.out, log: () => undefined, frameThreads });
  try {
    expect(engine.jobs !== undefined).toBe(frameThreads > 1);
    for (let k = 0; k < rebuilds; k++) expect(engine.reload(['meshes/crate.glb'])).toMatchObject({ ok: true, mode: 'rebuilt' });
    const uploads = spy.mock.calls.map(([input]: [CompressedTextureInput], i) => ({ id: spy.mock.results[i]!.value as number, format: input.format, width: input.width, height: input.height, levels: input.levels.map((level) => Uint8Array.from(level)) }));
    return { uploads, prefetched: engine.textures.stats.prefetched };
  } finally {
    engine.destroy();
    spy.mockRestore();
  }
}

/** Rewrites compiled texture `name`'s KTX2 with `damage` applied. */
function damage(name: string, change: (ktx2: Uint8Array, view: DataView) => void): () => void {
  const file = join(project.out, readManifest(project.out)!.resources[`${name}.png`]!.file);
  const original = readFileSync(file);
  const container = readContainer<TextureMeta>(original, 'texture');
  const ktx2 = Uint8Array.from(section(container, 'ktx2', Uint8Array));
  change(ktx2, new DataView(ktx2.buffer));
  writeFileSync(file, writeContainer({ type: 'texture', meta: container.meta, sections: { ktx2 } }));
  return () => {
    writeFileSync(file, original);
  };
}

describe('textures transcoded on frame workers', () => {
  test('an engine with --frame-threads 3 uploads the same textures, ids and bytes as a one-thread engine', async () => {
    const { uploads: one, prefetched: none } = await uploads(1);
    const { uploads: three, prefetched } = await uploads(3);
    expect(none).toBe(0);
    // Every one of them came from the workers' Dispatch, none transcoded at its load.
    expect(prefetched).toBe(three.length);
    // The sample's two, the extra seven and the truck's images.
    expect(one.length).toBeGreaterThanOrEqual(2 + EXTRA.length + 1);
    expect(new Set(one.map((u) => u.format)).size).toBeGreaterThanOrEqual(2);
    expect(one.some((u) => u.format.startsWith('rgba8'))).toBe(true);
    expect(three.length).toBe(one.length);
    for (const [i, a] of one.entries()) {
      const b = three[i]!;
      expect({ id: b.id, format: b.format, width: b.width, height: b.height, levels: b.levels.length }).toEqual({ id: a.id, format: a.format, width: a.width, height: a.height, levels: a.levels.length });
      for (const [level, bytes] of a.levels.entries()) expect(Buffer.compare(b.levels[level]!, bytes), `texture ${i} level ${level}`).toBe(0);
    }
  }, 60_000);

  test('worlds rebuilt by hot reloads on frame workers upload the same again (the shared buffers are reused)', async () => {
    const { uploads: first } = await uploads(3);
    const { uploads: three, prefetched } = await uploads(3, 2);
    expect(three.length).toBe(3 * first.length);
    expect(prefetched).toBe(three.length);
    for (const [i, b] of three.entries()) {
      const a = first[i % first.length]!;
      expect([b.id, b.format, b.levels.length]).toEqual([a.id, a.format, a.levels.length]);
      for (const [level, bytes] of a.levels.entries()) expect(Buffer.compare(b.levels[level]!, bytes), `upload ${i} level ${level}`).toBe(0);
    }
  }, 60_000);

  test('a level index that points outside the file is refused naming the texture', async () => {
    // Level 3's offset moved to the end of the file.
    const restore = damage('textures/extra_0', (ktx2, view) => {
      view.setUint32(80 + 3 * 24, ktx2.length, true);
    });
    try {
      for (const frameThreads of [1, 3]) {
        await expect(Engine.start({ data: project.out, log: () => undefined, frameThreads })).rejects.toThrow(/compiled texture textures\/extra_0 level 3's data .* lies outside the file/);
      }
    } finally {
      restore();
    }
  }, 60_000);

  test('Basis data the transcoder cannot read is refused naming the texture, in the same words on a worker', async () => {
    // The normal map is UASTC under Zstandard: zeroed level data is no Zstandard frame.
    const restore = damage('textures/extra_4', (ktx2, view) => ktx2.fill(0, view.getUint32(80, true), view.getUint32(80, true) + view.getUint32(88, true)));
    try {
      const messages: string[] = [];
      for (const frameThreads of [1, 3]) {
        const error: unknown = await Engine.start({ data: project.out, log: () => undefined, frameThreads }).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(EngineError);
        messages.push((error as Error).message);
      }
      expect(messages[0]).toMatch(/compiled texture textures\/extra_4 level 0 did not transcode/);
      expect(messages[1]).toBe(messages[0]);
    } finally {
      restore();
    }
  }, 60_000);

  test('textures a failed worker held are refused at their load, naming them and saying to load on one thread', async () => {
    const store = readContainer<TextureMeta>(readFileSync(join(project.out, readManifest(project.out)!.resources['textures/checker.png']!.file)), 'texture');
    const data = section(store, 'ktx2', Uint8Array);
    // A pool whose Dispatch fails as a worker's thrown kernel makes it fail, before any outcome is written.
    const failing = {
      dispatch: () => undefined,
      wait: () => {
        throw new JobFailedError('transcodeTextures', 0, 0, new Error('the worker ran out of memory'));
      },
    } as unknown as JobSystem;
    const loader = new TextureLoader(await basisModule(), { bc: false, etc2: false, astc: false });
    const prefetched = loader.prefetch([{ name: 'textures/checker', meta: store.meta, data }], failing);
    // The error is thrown at the load, before the scene is touched.
    const scene = null as unknown as RenderScene;
    expect(() => loader.loadData(scene, 'textures/checker', store.meta, data, prefetched)).toThrow(EngineError);
    expect(() => loader.loadData(scene, 'textures/checker', store.meta, data, prefetched)).toThrow(/compiled texture textures\/checker was not transcoded: a frame worker failed \(Kernel "transcodeTextures" failed at job 0 \(group 0\): Error: the worker ran out of memory\)\. Load with --frame-threads 1/);
  });

  test('a kernel that throws on a worker fails the wait instead of hanging it, and the pool goes on', async () => {
    const files = new Uint8Array(new SharedArrayBuffer(16));
    // Four records (so workers take some) whose file range lies past the end of `files`.
    const table = new Float64Array(new SharedArrayBuffer(4 * 6 * 8));
    for (let k = 0; k < 4; k++) table.set([0, 1000, 0, 1, 0, 8], k * 6);
    const output = new Uint8Array(new SharedArrayBuffer(16));
    const outcomes = new Int32Array(new SharedArrayBuffer(16));
    const started = performance.now();
    jobs.dispatch(4, 1, 'transcodeTextures', files, table, 6, output, outcomes);
    expect(() => {
      jobs.wait();
    }).toThrow(JobFailedError);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(Array.from(outcomes)).toEqual([0, 0, 0, 0]);
    // The same pool still transcodes.
    const store = readContainer<TextureMeta>(readFileSync(join(project.out, readManifest(project.out)!.resources['textures/checker.png']!.file)), 'texture');
    const loader = new TextureLoader(await basisModule(), { bc: false, etc2: false, astc: false });
    const prefetched = loader.prefetch([{ name: 'textures/checker', meta: store.meta, data: section(store, 'ktx2', Uint8Array) }], jobs);
    const checker = prefetched.get('textures/checker')!;
    expect('take' in checker && checker.take().levels.length).toBe(store.meta.levels);
  }, 30_000);
});

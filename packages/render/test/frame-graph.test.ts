// The frame graph on plain data (ordering, culling, lifetimes, sharing, the build-time errors),
// then on the GPU: the objects it hands out, kept from frame to frame.
import { gpuTest, readBuffer } from '@cuttle/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileGraph, type ImportDecl } from '../src/graph/compile.ts';
import { FrameGraphError } from '../src/graph/errors.ts';
import { FrameGraph } from '../src/graph/frame-graph.ts';
import { TransientPool } from '../src/graph/pool.ts';
import type { PassDecl } from '../src/graph/pass.ts';
import type { TextureDesc } from '../src/graph/resources.ts';

const HDR: TextureDesc = { kind: 'texture', width: 64, height: 32, format: 'rgba16float' };
const DEPTH: TextureDesc = { kind: 'texture', width: 64, height: 32, format: 'depth32float' };
const noop = (): void => undefined;
const frame = (): Map<string, ImportDecl> => new Map([['frame', { desc: { kind: 'texture', width: 64, height: 32, format: 'rgba8unorm' }, uses: new Set(['attachment', 'storage']) }]]);
const pass = (name: string, decl: Omit<PassDecl, 'name' | 'execute'> = {}): PassDecl => ({ name, execute: noop, ...decl });
const names = (passes: readonly PassDecl[]): string[] => passes.map((p) => p.name);

describe('ordering and culling', () => {
  test('passes run in the order added; a pass whose output nobody needs is culled', () => {
    const graph = compileGraph([
      pass('depth', { creates: { depth: DEPTH }, writes: [{ resource: 'depth', use: 'attachment' }] }),
      pass('debug-view', { reads: [{ resource: 'depth', use: 'sampled' }], creates: { debug: HDR }, writes: [{ resource: 'debug', use: 'storage' }] }),
      pass('lighting', { reads: [{ resource: 'depth', use: 'sampled' }], creates: { hdr: HDR }, writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('tonemap', { reads: [{ resource: 'hdr', use: 'sampled' }], writes: [{ resource: 'frame', use: 'attachment' }] }),
    ], frame());
    expect(names(graph.order)).toEqual(['depth', 'lighting', 'tonemap']);
    expect(graph.culled.map((c) => c.pass.name)).toEqual(['debug-view']);
    expect(graph.resources.get('debug')!.first).toBe(-1);
  });

  test('a write that discards needs nothing before it; a modifying write needs the writer before it', () => {
    const passes = (discard: boolean): PassDecl[] => [
      pass('clear', { creates: { hdr: HDR }, writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('lighting', { writes: [{ resource: 'hdr', use: 'storage', discard }] }),
      pass('tonemap', { reads: [{ resource: 'hdr', use: 'sampled' }], writes: [{ resource: 'frame', use: 'attachment' }] }),
    ];
    expect(names(compileGraph(passes(true), frame()).order)).toEqual(['lighting', 'tonemap']);
    expect(names(compileGraph(passes(false), frame()).order)).toEqual(['clear', 'lighting', 'tonemap']);
  });

  test('a pass with side effects runs though nothing reads it', () => {
    const graph = compileGraph([pass('readback', { sideEffects: true })], new Map());
    expect(names(graph.order)).toEqual(['readback']);
  });

  test('passes of one point are ordered by after, whatever order they were added in', () => {
    const graph = compileGraph([
      pass('lighting', { creates: { hdr: HDR }, writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('bloom', { point: 'before-tonemap', after: ['fog'], writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('fog', { point: 'before-tonemap', writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('tonemap', { reads: [{ resource: 'hdr', use: 'sampled' }], writes: [{ resource: 'frame', use: 'attachment' }] }),
    ], frame());
    expect(names(graph.order)).toEqual(['lighting', 'fog', 'bloom', 'tonemap']);
  });
});

describe('lifetimes and shared objects', () => {
  test('resources of one description whose lifetimes do not overlap share one object; the bytes say so', () => {
    const graph = compileGraph([
      pass('a', { creates: { t1: HDR }, writes: [{ resource: 't1', use: 'storage' }] }),
      pass('b', { reads: [{ resource: 't1', use: 'sampled' }], creates: { t2: HDR }, writes: [{ resource: 't2', use: 'storage' }] }),
      pass('c', { reads: [{ resource: 't2', use: 'sampled' }], creates: { t3: HDR }, writes: [{ resource: 't3', use: 'storage' }] }),
      pass('d', { reads: [{ resource: 't3', use: 'sampled' }], writes: [{ resource: 'frame', use: 'attachment' }] }),
    ], frame());
    // t1 lives over passes 0..1, t2 1..2, t3 2..3: t3 takes t1's object.
    expect(graph.objects.map((o) => o.resources)).toEqual([['t1', 't3'], ['t2']]);
    const bytes = 64 * 32 * 8;
    expect(graph.transientBytes).toEqual({ unshared: 3 * bytes, shared: 2 * bytes });
  });

  test('resources used differently share an object with the union of their uses; other formats never share', () => {
    const graph = compileGraph([
      pass('a', { creates: { t1: HDR }, writes: [{ resource: 't1', use: 'storage' }] }),
      pass('b', { reads: [{ resource: 't1', use: 'sampled' }], creates: { t2: HDR }, writes: [{ resource: 't2', use: 'attachment' }] }),
      pass('c', { reads: [{ resource: 't2', use: 'sampled' }], creates: { t3: HDR, d: DEPTH }, writes: [{ resource: 't3', use: 'attachment' }, { resource: 'd', use: 'attachment' }] }),
      pass('e', { reads: [{ resource: 't3', use: 'copy-src' }, { resource: 'd', use: 'sampled' }], writes: [{ resource: 'frame', use: 'attachment' }] }),
    ], frame());
    expect(graph.objects.map((o) => [o.resources, [...o.uses].sort()])).toEqual([
      [['t1', 't3'], ['attachment', 'copy-src', 'sampled', 'storage']],
      [['t2'], ['attachment', 'sampled']],
      [['d'], ['attachment', 'sampled']],
    ]);
  });

  test('an output is kept and lives to the end of the frame with the uses it is read by', () => {
    const graph = compileGraph([
      pass('gbuffer', { creates: { motion: HDR }, writes: [{ resource: 'motion', use: 'attachment' }] }),
      pass('post', { creates: { t: HDR }, writes: [{ resource: 't', use: 'attachment' }, { resource: 'frame', use: 'attachment' }] }),
    ], frame(), new Map([['motion', ['copy-src']]]));
    expect(names(graph.order)).toEqual(['gbuffer', 'post']);
    expect(graph.resources.get('motion')).toMatchObject({ first: 0, last: 2 });
    expect(graph.objects.map((o) => o.resources)).toEqual([['motion'], ['t']]);
    expect([...graph.resources.get('motion')!.uses].sort()).toEqual(['attachment', 'copy-src']);
  });

  test('on random graphs, no object ever holds two resources alive at once, and shared ones have one description', () => {
    const arbitraryPass = fc.record({
      creates: fc.boolean(),
      format: fc.constantFrom<GPUTextureFormat>('rgba16float', 'rgba8unorm'),
      reads: fc.array(fc.nat(30), { maxLength: 3 }),
      writesFrame: fc.boolean(),
    });
    fc.assert(fc.property(fc.array(arbitraryPass, { minLength: 1, maxLength: 30 }), (specs) => {
      const created: string[] = [];
      const passes = specs.map((spec, i): PassDecl => {
        const reads = [...new Set(spec.reads.filter((r) => r < created.length).map((r) => created[r]!))];
        const decl: PassDecl = pass(`p${i}`, {
          reads: reads.map((resource) => ({ resource, use: 'sampled' as const })),
          writes: spec.writesFrame ? [{ resource: 'frame', use: 'attachment' as const }] : [],
          ...(spec.creates ? { creates: { [`r${i}`]: { ...HDR, format: spec.format } } } : {}),
        });
        if (spec.creates) created.push(`r${i}`);
        return decl;
      });
      const graph = compileGraph(passes, frame());
      for (const object of graph.objects) {
        const infos = object.resources.map((name) => graph.resources.get(name)!);
        for (let i = 1; i < infos.length; i++) expect(infos[i]!.first).toBeGreaterThan(infos[i - 1]!.last);
        for (const info of infos) expect(info.desc).toEqual(object.desc);
      }
      // Every culled pass is one nothing needs: no running pass reads what only it wrote.
      const running = new Set(names(graph.order));
      for (const p of graph.order) for (const read of p.reads ?? []) expect(running.has(graph.resources.get(read.resource)!.creator!)).toBe(true);
    }), { numRuns: 300 });
  });
});

describe('build-time errors name the passes', () => {
  const cases: [string, PassDecl[], RegExp][] = [
    ['a read of a resource nobody writes', [pass('lighting', { reads: [{ resource: 'gbuffer', use: 'sampled' }] })], /pass "lighting" reads "gbuffer", which no pass before it writes and which was not imported/],
    ['a read before its writer', [pass('lighting', { reads: [{ resource: 'hdr', use: 'sampled' }] }), pass('clear', { creates: { hdr: HDR }, writes: [{ resource: 'hdr', use: 'storage' }] })], /reads "hdr", which no pass before it writes \("clear" writes it later\)/],
    ['a write of something never created', [pass('fog', { writes: [{ resource: 'hdr', use: 'storage' }] })], /pass "fog" writes "hdr", which no pass before it creates and which was not imported; create it with creates/],
    ['two writers of one point without an order', [
      pass('lighting', { creates: { hdr: HDR }, writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('bloom', { point: 'before-tonemap', writes: [{ resource: 'hdr', use: 'storage' }] }),
      pass('fog', { point: 'before-tonemap', writes: [{ resource: 'hdr', use: 'storage' }] }),
    ], /passes "bloom" and "fog" of point "before-tonemap" both write "hdr" and nothing orders them; add after: \["bloom"\] to "fog"/],
    ['a format other than the resource\'s', [
      pass('depth', { creates: { depth: DEPTH }, writes: [{ resource: 'depth', use: 'attachment' }] }),
      pass('ssao', { reads: [{ resource: 'depth', use: 'sampled', format: 'depth24plus' }] }),
    ], /pass "ssao" uses "depth" as depth24plus, but it is depth32float \(created by "depth"\)/],
    ['a texture used as a uniform buffer', [pass('a', { creates: { t: HDR }, writes: [{ resource: 't', use: 'uniform' }] })], /uses "t" as uniform, which a texture cannot be/],
    ['a use the imported texture does not allow', [pass('copy', { writes: [{ resource: 'frame', use: 'copy-dst' }] })], /uses imported "frame" as copy-dst, which its usage does not allow \(it allows attachment, storage\)/],
    ['two passes of one name', [pass('a', { sideEffects: true }), pass('a', { sideEffects: true })], /two passes are named "a"/],
    ['a resource created twice', [pass('a', { creates: { t: HDR } }), pass('b', { creates: { t: HDR } })], /pass "b" creates "t", which "a" already creates; write it instead/],
    ['after naming a pass of another point', [pass('a', { point: 'overlay' }), pass('b', { point: 'after-opaque', after: ['a'] })], /pass "b" runs after "a", which is not a pass of point "after-opaque"/],
    ['after in a circle', [pass('a', { point: 'p', after: ['b'] }), pass('b', { point: 'p', after: ['a'] })], /the passes of point "p" order each other in a circle/],
    ['a bad description', [pass('a', { creates: { t: { ...HDR, width: 0 } } })], /pass "a" creates "t": a texture's width, height, layers and mip levels must be positive integers/],
  ];
  test.each(cases)('%s', (_what, passes, message) => {
    expect(() => compileGraph(passes, frame())).toThrow(FrameGraphError);
    expect(() => compileGraph(passes, frame())).toThrow(message);
  });

  test('a write to a read-only import', () => {
    const imports = new Map<string, ImportDecl>([['depth', { desc: DEPTH, uses: new Set(['sampled', 'attachment']), readOnly: true }]]);
    expect(() => compileGraph([pass('a', { writes: [{ resource: 'depth', use: 'attachment' }] })], imports)).toThrow(/pass "a" writes "depth", which was imported read-only/);
  });
});

describe('describe', () => {
  test('lists the passes, the culled ones, each resource\'s lifetime and object, and the bytes', () => {
    const graph = new FrameGraph();
    graph.addPass(pass('a', { creates: { t1: HDR }, writes: [{ resource: 't1', use: 'storage' }] }));
    graph.addPass(pass('b', { reads: [{ resource: 't1', use: 'sampled' }], creates: { t2: HDR }, writes: [{ resource: 't2', use: 'storage' }] }));
    graph.addPass(pass('c', { reads: [{ resource: 't2', use: 'sampled' }], creates: { t3: HDR }, writes: [{ resource: 't3', use: 'storage' }] }));
    graph.addPass(pass('readback', { reads: [{ resource: 't3', use: 'sampled' }], sideEffects: true }));
    graph.addPass(pass('unused', { creates: { t4: HDR }, writes: [{ resource: 't4', use: 'storage' }] }));
    const text = graph.describe();
    expect(text).toContain('frame graph: 4 passes run, 1 culled; 3 transient resources in 2 GPU objects: 0.0 MiB (0.0 MiB without sharing)');
    expect(text).toMatch(/ 0 a +creates t1/);
    expect(text).toMatch(/- unused +culled: nothing that runs needs what it writes/);
    expect(text).toMatch(/t1 +64x32 rgba16float +passes 0\.\.1 +object 0 \(shared with t3\)/);
    expect(text).toMatch(/t4 +64x32 rgba16float +unused/);
  });
});

describe('on the GPU', () => {
  gpuTest('passes get the objects they declared, the same ones frame after frame; an undeclared one is refused', async ({ device }) => {
    const pool = new TransientPool(device);
    const out = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | GPUBufferUsage.STORAGE });
    const seen: GPUTexture[] = [];
    const build = (value: number): FrameGraph => {
      const graph = new FrameGraph().importBuffer('out', out);
      graph.addPass({
        name: 'fill', creates: { t: { kind: 'texture', width: 4, height: 4, format: 'rgba8unorm' } }, writes: [{ resource: 't', use: 'attachment' }],
        execute: ({ encoder, texture }) => {
          seen.push(texture('t'));
          encoder.beginRenderPass({ colorAttachments: [{ view: texture('t').createView(), loadOp: 'clear', clearValue: { r: value / 255, g: 0, b: 0, a: 1 }, storeOp: 'store' }] }).end();
        },
      });
      graph.addPass({
        name: 'copy', reads: [{ resource: 't', use: 'copy-src' }], writes: [{ resource: 'out', use: 'copy-dst' }],
        execute: ({ encoder, texture, buffer }) => { encoder.copyTextureToBuffer({ texture: texture('t') }, { buffer: buffer('out'), bytesPerRow: 256 }, [1, 1]); },
      });
      return graph;
    };
    for (const value of [10, 20]) {
      const encoder = device.createCommandEncoder();
      build(value).execute(encoder, pool);
      device.queue.submit([encoder.finish()]);
      expect(new Uint8Array(await readBuffer(device, out, 0, 4))[0]).toBe(value);
    }
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]!.usage).toBe(GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC);
    const sneaky = new FrameGraph().importBuffer('out', out);
    sneaky.addPass({ name: 'sneaky', writes: [{ resource: 'out', use: 'copy-dst' }], execute: ({ texture }) => { texture('t'); } });
    expect(() => { sneaky.execute(device.createCommandEncoder(), pool); }).toThrow(/pass "sneaky" asked for "t", which it did not declare/);
    pool.destroy();
    out.destroy();
  });
});

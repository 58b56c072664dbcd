// The GUI core without a GPU: create/update/destroy churn (property tests over both patching
// strategies and both modes) keeps every batch holding exactly the live objects' vertices;
// user kinds plug in; stale ids and bad parameters fail without changing anything.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Gui, GuiError, GuiFont, layoutText, parseBMFontText, QUAD_FLOATS, QUAD_WORDS, type GuiEmitter, type GuiId, type PatchingStrategy } from '../src/index.ts';

interface Tagged {
  tag: number;
  quads: number;
  layer: number;
  material: number;
}

/** A user kind whose quads say who they belong to: x = tag, y = quad number. */
function taggedKind(p: Tagged, out: GuiEmitter): void {
  out.key(p.layer, p.material);
  for (let q = 0; q < p.quads; q++) out.rect(p.tag, q, p.tag, q, 0, 0, 0, 0, 0xffffffff);
}

/** Checks every batch against the live objects: contents, counts, and that holes are empty. */
function checkBatches(gui: Gui, live: Map<GuiId, Tagged>): void {
  const expectedLive = new Map<number, number>();
  for (const [id, params] of live) {
    const placement = gui.placementOf(id);
    expect({ layer: placement.layer, material: placement.material, count: placement.count }).toEqual({ layer: params.layer, material: params.material, count: params.quads });
    const batch = gui.batches.find((b) => b.layer === params.layer && b.material === params.material)!;
    for (let q = 0; q < params.quads; q++) {
      const at = (placement.start + q) * QUAD_WORDS;
      expect(batch.floats[at]).toBe(params.tag);
      expect(batch.floats[at + 1]).toBe(q);
      expect(batch.floats[at + 16]).toBe(q);
    }
    const key = batch.key;
    expectedLive.set(key, (expectedLive.get(key) ?? 0) + params.quads);
  }
  for (const batch of gui.batches) {
    expect(batch.live).toBe(expectedLive.get(batch.key) ?? 0);
    expect(batch.used).toBe(batch.live + batch.holes);
    // Every quad of the batch belongs to a live object or is an all-zero hole.
    let covered = 0;
    const owned = new Uint8Array(batch.used);
    for (const [id, params] of live) {
      if (params.layer !== batch.layer || params.material !== batch.material) continue;
      const { start, count } = gui.placementOf(id);
      for (let q = start; q < start + count; q++) {
        expect(owned[q]).toBe(0);
        owned[q] = 1;
        covered++;
      }
    }
    for (let q = 0; q < batch.used; q++) {
      if (owned[q]) continue;
      for (let w = 0; w < QUAD_WORDS; w++) expect(batch.words[q * QUAD_WORDS + w]).toBe(0);
    }
    expect(covered).toBe(batch.live);
  }
  expect(gui.liveObjects).toBe(live.size);
  expect(gui.drawCalls).toBe(gui.batches.filter((b) => b.used > 0).length);
}

const objectArb = fc.record({ quads: fc.integer({ min: 0, max: 9 }), layer: fc.integer({ min: 0, max: 2 }), material: fc.integer({ min: 0, max: 2 }) });
const opArb = fc.oneof(
  fc.record({ op: fc.constant('create' as const), object: objectArb }),
  fc.record({ op: fc.constant('update' as const), pick: fc.nat(), object: objectArb }),
  fc.record({ op: fc.constant('destroy' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('frame' as const) }),
);

describe.each(['free-list', 'compact'] as PatchingStrategy[])('churn with %s patching', (patching) => {
  test('retained: batches always hold exactly the live objects\' vertices', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        const gui = new Gui({ patching });
        gui.registerKind('tagged', taggedKind);
        const live = new Map<GuiId, Tagged>();
        let tag = 1;
        for (const step of ops) {
          const ids = [...live.keys()];
          if (step.op === 'create') {
            const params = { ...step.object, tag: tag++ };
            live.set(gui.create('tagged', params), params);
          } else if (step.op === 'update' && ids.length > 0) {
            const id = ids[step.pick % ids.length]!;
            const params = { ...step.object, tag: tag++ };
            gui.update(id, params);
            live.set(id, params);
          } else if (step.op === 'destroy' && ids.length > 0) {
            const id = ids[step.pick % ids.length]!;
            gui.destroy(id);
            live.delete(id);
            expect(() => { gui.update(id, { tag: 0, quads: 1, layer: 0, material: 0 }); }).toThrow(GuiError);
          } else if (step.op === 'frame') {
            gui.beginFrame();
          }
          checkBatches(gui, live);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('immediate: beginFrame clears, create/update/destroy work within the frame', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const gui = new Gui({ mode: 'immediate', patching });
        gui.registerKind('tagged', taggedKind);
        let live = new Map<GuiId, Tagged>();
        let stale: GuiId[] = [];
        let tag = 1;
        for (const step of ops) {
          const ids = [...live.keys()];
          if (step.op === 'create') {
            const params = { ...step.object, tag: tag++ };
            live.set(gui.create('tagged', params), params);
          } else if (step.op === 'update' && ids.length > 0) {
            const id = ids[step.pick % ids.length]!;
            const params = { ...step.object, tag: tag++ };
            gui.update(id, params);
            live.set(id, params);
          } else if (step.op === 'destroy' && ids.length > 0) {
            const id = ids[step.pick % ids.length]!;
            gui.destroy(id);
            live.delete(id);
          } else if (step.op === 'frame') {
            gui.beginFrame();
            stale = [...live.keys()];
            live = new Map();
          }
          checkBatches(gui, live);
          for (const id of stale) if (!live.has(id)) expect(() => { gui.destroy(id); }).toThrow(/not a live object/);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('the API', () => {
  const font = new GuiFont(parseBMFontText(readFileSync(join(import.meta.dirname, 'fixtures/arial-2pages.fnt'), 'utf8')));

  test('draw calls follow the (layer, material) pairs, not the objects; layers sort first', () => {
    const gui = new Gui();
    for (let i = 0; i < 500; i++) gui.create('rect', { x: i, y: 0, width: 4, height: 4, color: 0xff0000ff, layer: i % 2 });
    for (let i = 0; i < 300; i++) gui.create('text', { x: 0, y: i, text: 'AVé', font, material: 3, layer: 1 });
    expect(gui.drawCalls).toBe(3);
    expect(gui.batches.map((b) => [b.layer, b.material])).toEqual([[0, 0], [1, 0], [1, 3]]);
  });

  test('the one-line text fast path and the general layout write the same quads', () => {
    const gui = new Gui();
    const text = 'AVA Té€Z aT';
    const id = gui.create('text', { x: 10, y: 20, text, font, material: 1, size: 20, color: 0x11223344 });
    const layout = layoutText(font, text, { x: 10, y: 20, size: 20 });
    const { start, count } = gui.placementOf(id);
    expect(count).toBe(layout.count);
    const batch = gui.batches[0]!;
    for (let i = 0; i < count; i++) {
      const at = (start + i) * QUAD_WORDS;
      expect([batch.floats[at], batch.floats[at + 1], batch.floats[at + 15], batch.floats[at + 16]]).toEqual(Array.from(layout.quads.subarray(i * QUAD_FLOATS, i * QUAD_FLOATS + 4)).map((v) => Math.fround(v)));
      expect(batch.words[at + 3]).toBe(0x44332211);
      expect(batch.words[at + 4]! >>> 16).toBe(layout.quads[i * QUAD_FLOATS + 8]);
    }
    // Wrapped text takes the general path and keeps working through update.
    gui.update(id, { x: 0, y: 0, text: 'AVA AVA AVA', font, material: 1, maxWidth: 140 });
    expect(gui.placementOf(id).count).toBe(9);
  });

  test('the built-in kinds: rect, rounded rect, line, image, text', () => {
    const gui = new Gui();
    expect(gui.placementOf(gui.create('rect', { x: 0, y: 0, width: 10, height: 10, color: 0xffffffff })).count).toBe(1);
    expect(gui.placementOf(gui.create('roundedRect', { x: 0, y: 0, width: 40, height: 20, radius: 5, segments: 4, color: 0xffffffff })).count).toBe(3 + 16);
    expect(gui.placementOf(gui.create('line', { points: [0, 0, 10, 0, 10, 10], width: 2, color: 0xffffffff })).count).toBe(2);
    expect(gui.placementOf(gui.create('image', { x: 0, y: 0, width: 8, height: 8, material: 2, u0: 0.5, u1: 1 })).material).toBe(2);
    expect(gui.placementOf(gui.create('text', { x: 0, y: 0, text: 'A V', font, material: 1 })).count).toBe(2);
  });

  test('clip rectangles: added, moved, stamped on the objects that name them', () => {
    const gui = new Gui();
    const clip = gui.addClip({ x: 10, y: 10, width: 100, height: 50 });
    expect(clip).toBe(1);
    const id = gui.create('rect', { x: 0, y: 0, width: 200, height: 200, color: 0xffffffff, clip });
    expect(gui.batches[0]!.words[gui.placementOf(id).start * QUAD_WORDS + 4]! & 0xffff).toBe(1);
    gui.setClip(clip, { x: 0, y: 0, width: 5, height: 5 });
    expect(Array.from(gui.clipRects.subarray(4, 8))).toEqual([0, 0, 5, 5]);
    expect(() => gui.create('rect', { x: 0, y: 0, width: 1, height: 1, color: 0, clip: 7 })).toThrow(/clip 7 does not exist/);
  });

  test('bad input fails clearly and changes nothing', () => {
    const gui = new Gui();
    const id = gui.create('rect', { x: 0, y: 0, width: 10, height: 10, color: 0xffffffff });
    const before = Array.from(gui.batches[0]!.words.subarray(0, QUAD_WORDS));
    expect(() => { gui.update(id, { x: Number.NaN, y: 0, width: 10, height: 10, color: 0 }); }).toThrow(/finite numbers/);
    expect(Array.from(gui.batches[0]!.words.subarray(0, QUAD_WORDS))).toEqual(before);
    expect(() => gui.create('sprite', {})).toThrow(/unknown object kind "sprite"/);
    expect(() => gui.create('rect', { x: 0, y: 0, width: 1, height: 1, color: 0, layer: -1 })).toThrow(/layer must be an integer/);
    gui.registerKind('nokey', () => undefined);
    expect(() => gui.create('nokey', {})).toThrow(/wrote no batch key/);
    expect(() => { gui.registerKind('rect', () => undefined); }).toThrow(/already registered/);
    expect(gui.liveObjects).toBe(1);
    gui.destroy(id);
    expect(() => { gui.destroy(id); }).toThrow(/not a live object/);
    expect(() => new Gui({ mode: 'both' as 'retained' })).toThrow(GuiError);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { blob, checkout, Database, DataModelError, MemoryStore, newGuid, ref, ROOT_GUID, Workspace, type DbOp } from '../src/index.ts';
import { FileStore } from '../src/node.ts';

const G = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe('Database', () => {
  test('objects by GUID with typed values; the root is the all-zero GUID', () => {
    const db = new Database();
    expect(db.has(ROOT_GUID)).toBe(true);
    const tex = newGuid();
    db.applyAll([
      { op: 'create', guid: tex },
      { op: 'change_key', guid: tex, key: 'width', value: 512 },
      { op: 'change_key', guid: tex, key: 'name', value: 'wood' },
      { op: 'change_key', guid: tex, key: 'srgb', value: true },
      { op: 'change_key', guid: tex, key: 'pixels', value: blob(new Uint8Array([1, 2, 3])) },
      { op: 'add_to_set', guid: ROOT_GUID, key: 'textures', member: tex },
      { op: 'change_key', guid: ROOT_GUID, key: 'default_texture', value: ref(tex) },
    ]);
    expect(db.get(tex, 'width')).toBe(512);
    expect(db.get(tex, 'missing')).toBeNull();
    expect(db.get(ROOT_GUID, 'textures')).toEqual({ kind: 'set', guids: new Set([tex]) });
    expect(db.checkIntegrity()).toEqual({ dangling: [], unreachable: [] });
    db.apply({ op: 'change_key', guid: tex, key: 'width', value: null });
    expect(db.keys(tex)).not.toContain('width');
  });

  test('bad operations throw DataModelError saying what to do', () => {
    const db = new Database();
    expect(() => db.apply({ op: 'destroy', guid: ROOT_GUID })).toThrow(DataModelError);
    expect(() => db.apply({ op: 'create', guid: 'not-a-guid' })).toThrow(/bad GUID/);
    expect(() => db.apply({ op: 'change_key', guid: G(1), key: 'a', value: 1 })).toThrow(/no such object/);
    expect(() => db.apply({ op: 'change_key', guid: ROOT_GUID, key: 'a', value: Number.NaN })).toThrow(/finite/);
    expect(() => db.apply({ op: 'change_key', guid: ROOT_GUID, key: 'a', value: { kind: 'set', guids: new Set() } as never })).toThrow(/add_to_set/);
    db.apply({ op: 'change_key', guid: ROOT_GUID, key: 'a', value: 1 });
    expect(() => db.apply({ op: 'add_to_set', guid: ROOT_GUID, key: 'a', member: G(1) })).toThrow(/non-set/);
    expect(() => db.apply({ op: 'rename' } as never)).toThrow(DataModelError);
    expect(db.apply({ op: 'destroy', guid: G(9) }, false)).toBe(false);
  });

  test('integrity: dangling references and unreachable objects', () => {
    const db = new Database().applyAll([
      { op: 'create', guid: G(1) },
      { op: 'create', guid: G(2) },
      { op: 'create', guid: G(3) },
      { op: 'add_to_set', guid: ROOT_GUID, key: 'units', member: G(1) },
      { op: 'change_key', guid: G(1), key: 'mesh', value: ref(G(2)) },
      { op: 'change_key', guid: G(1), key: 'material', value: ref(G(7)) },
      { op: 'add_to_set', guid: G(2), key: 'lods', member: G(8) },
    ]);
    expect(db.checkIntegrity()).toEqual({
      dangling: [
        { guid: G(1), key: 'material', target: G(7) },
        { guid: G(2), key: 'lods', target: G(8) },
      ],
      unreachable: [G(3)],
    });
  });

  test('an op list is a diff: a.diff(b) applied to a gives b; snapshots round-trip through JSON', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('create' as const), guid: fc.integer({ min: 1, max: 5 }).map(G) }),
      fc.record({ op: fc.constant('destroy' as const), guid: fc.integer({ min: 1, max: 5 }).map(G) }),
      fc.record({
        op: fc.constant('change_key' as const),
        guid: fc.integer({ min: 0, max: 5 }).map(G),
        key: fc.constantFrom('a', 'b', '__proto__', 'constructor'),
        value: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.integer({ min: 0, max: 5 }).map((n) => ref(G(n))), fc.uint8Array({ maxLength: 4 }).map(blob)),
      }),
      fc.record({ op: fc.constantFrom('add_to_set' as const, 'remove_from_set' as const), guid: fc.integer({ min: 0, max: 5 }).map(G), key: fc.constantFrom('s', 'a'), member: fc.integer({ min: 0, max: 5 }).map(G) }),
    ) as fc.Arbitrary<DbOp>;
    const build = (ops: DbOp[]): Database => {
      const db = new Database();
      for (const o of ops) db.apply(o.guid === G(0) ? { ...o, guid: ROOT_GUID } : o, false);
      return db;
    };
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), fc.array(op, { maxLength: 25 }), (x, y) => {
        const a = build(x);
        const b = build(y);
        const ops = a.diff(b);
        expect(a.clone().applyAll(ops).equals(b)).toBe(true);
        expect(Database.fromJSON(JSON.parse(JSON.stringify(b.toJSON()))).equals(b)).toBe(true);
        expect(b.diff(b)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('stores and workspaces', () => {
  test('commit all or part of the local changes; the later change wins', () => {
    let clock = 0;
    const store = new MemoryStore(() => ++clock);
    const setup = new Workspace(store, 'lead');
    setup.edit({ op: 'create', guid: G(1) }).edit({ op: 'add_to_set', guid: ROOT_GUID, key: 'lights', member: G(1) }).commit();

    const anna = new Workspace(store, 'anna');
    const bert = new Workspace(store, 'bert');
    anna.edit({ op: 'change_key', guid: G(1), key: 'color', value: 'red' });
    anna.edit({ op: 'change_key', guid: G(1), key: 'radius', value: 3 });
    bert.edit({ op: 'change_key', guid: G(1), key: 'color', value: 'blue' });
    bert.edit({ op: 'change_key', guid: G(1), key: 'intensity', value: 2 });

    // Bert commits only his colour change (index 0) and keeps the intensity test local.
    bert.commit([0]);
    expect(bert.local).toEqual([{ op: 'change_key', guid: G(1), key: 'intensity', value: 2 }]);
    anna.commit();
    const { database } = checkout(store);
    expect(database.get(G(1), 'color')).toBe('red'); // anna committed later
    expect(database.get(G(1), 'radius')).toBe(3);
    expect(database.get(G(1), 'intensity')).toBeNull();
    // Bert's local view sees the committed state plus his remaining local change.
    bert.update();
    expect(bert.view.get(G(1), 'color')).toBe('red');
    expect(bert.view.get(G(1), 'intensity')).toBe(2);
    expect(store.log().map((c) => c.author)).toEqual(['lead', 'lead', 'bert', 'anna', 'anna']);
    expect(() => bert.commit([5])).toThrow(DataModelError);
  });

  test('a destroy committed first makes a later change to that object drop out, reported as skipped', () => {
    const store = new MemoryStore();
    store.commit([{ op: 'create', guid: G(1) }], 'lead');
    const a = new Workspace(store, 'a');
    const b = new Workspace(store, 'b');
    a.edit({ op: 'destroy', guid: G(1) }).commit();
    b.edit({ op: 'change_key', guid: G(1), key: 'x', value: 1 });
    store.commit(b.local, 'b');
    const { database, skipped } = checkout(store);
    expect(database.has(G(1))).toBe(false);
    expect(skipped.map((c) => c.author)).toEqual(['b']);
  });

  test('FileStore keeps the log in a JSON-lines file, blobs and references included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuttle-store-'));
    try {
      const path = join(dir, 'central.jsonl');
      const store = new FileStore(path, () => 1000);
      const w = new Workspace(store, 'anna');
      w.edit({ op: 'create', guid: G(1) })
        .edit({ op: 'change_key', guid: G(1), key: 'data', value: blob(new Uint8Array([255, 0, 7])) })
        .edit({ op: 'change_key', guid: ROOT_GUID, key: 'main', value: ref(G(1)) });
      expect(w.commit()).toBe(3);
      expect(readFileSync(path, 'utf8').split('\n')[1]).toBe(
        `{"seq":2,"author":"anna","time":1000,"op":{"op":"change_key","guid":"${G(1)}","key":"data","value":{"blob":"/wAH"}}}`,
      );
      const again = new FileStore(path);
      expect(again.head()).toBe(3);
      const { database } = checkout(again);
      expect(database.equals(w.view)).toBe(true);
      expect(database.get(G(1), 'data')).toEqual(blob(new Uint8Array([255, 0, 7])));
      expect(() => new FileStore('')).toThrow(DataModelError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

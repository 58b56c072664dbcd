import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ArchiveError,
  ComponentLibrary,
  EcsError,
  INVALID_ENTITY,
  loadLibrary,
  ObjectComponentManager,
  remapEntity,
  saveLibrary,
  Scene,
  SchemaComponentManager,
  type ArchiveReader,
  type ArchiveWriter,
  type ComponentManager,
} from '../src/index.ts';

class Label {
  text = '';
  target = INVALID_ENTITY;
}

const labelSerializer = {
  write(label: Label, writer: ArchiveWriter) {
    writer.string(label.text);
    writer.entity(label.target);
  },
  read(label: Label, reader: ArchiveReader) {
    label.text = reader.string();
    label.target = reader.entity();
  },
};

function buildWorld(seed: number): { scene: Scene; labels: ObjectComponentManager<Label>; mass: SchemaComponentManager<{ value: 'f64' }> } {
  const scene = new Scene({ seed });
  const labels = scene.library.register('label', new ObjectComponentManager({ create: () => new Label() }), { serializer: labelSerializer });
  const mass = scene.library.register('mass', new SchemaComponentManager({ value: 'f64' } as const), { version: 2 });
  const root = scene.createNode({ position: [1, 2, 3] });
  const nodes = [root];
  for (let i = 0; i < 20; i++) {
    const e = scene.createNode({ position: [i, -i, i / 2], scale: [1 + i / 10, 1, 1] });
    scene.attach(e, nodes[Math.floor(i / 3)]!);
    nodes.push(e);
    if (i % 2 === 0) {
      const row = mass.create(e);
      mass.fields.value[row] = i * 1.25;
    }
    if (i % 5 === 0) {
      const label = labels.create(e);
      label.text = `node ${i} ✓`;
      label.target = root;
    }
  }
  scene.update();
  return { scene, labels, mass };
}

/** Everything observable about a library, for "left exactly as it was" checks. */
function snapshot(library: ComponentLibrary): unknown {
  return library.entries.map(({ name, manager }) => {
    const rows: unknown[] = [];
    for (let i = 0; i < manager.count; i++) rows.push(manager.getEntity(i));
    return { name, rows, data: dataOf(manager) };
  });
}

function dataOf(manager: ComponentManager): unknown {
  if (manager instanceof SchemaComponentManager) return manager.layout.map((f) => Array.from(manager.column(f.name).subarray(0, manager.count * f.length)));
  if (manager instanceof ObjectComponentManager) return Array.from({ length: manager.count }, (_, i) => ({ ...(manager.at(i) as object) }));
  return null;
}

describe('save and load', () => {
  test('a whole library round-trips with seed 0 keeping ids', () => {
    const { scene } = buildWorld(1);
    const archive = saveLibrary(scene.library);
    const copy = buildWorld(99);
    for (const e of copy.scene.library.entries) e.manager.clear();
    const result = loadLibrary(copy.scene.library, archive, { seed: 0 });
    expect(result.seed).toBe(0);
    expect(result.skipped).toEqual([]);
    expect(snapshot(copy.scene.library)).toEqual(snapshot(scene.library));
  });

  test('loading the same archive twice gives two independent copies with remapped references', () => {
    const { scene, labels } = buildWorld(2);
    const rootEntity = scene.transforms.getEntity(0);
    const archive = saveLibrary(scene.library, { types: ['transform', 'hierarchy', 'label'] });
    const target = buildWorld(3);
    for (const e of target.scene.library.entries) e.manager.clear();
    const first = loadLibrary(target.scene.library, archive);
    const second = loadLibrary(target.scene.library, archive);
    expect(first.seed).not.toBe(second.seed);
    expect(target.scene.transforms.count).toBe(2 * scene.transforms.count);
    expect(target.labels.count).toBe(2 * labels.count);
    const h = target.scene.hierarchy;
    for (let i = 0; i < h.count; i++) {
      const p = h.fields.parent[i]!;
      if (p !== INVALID_ENTITY) expect(h.indexOf(p)).toBeLessThan(i);
    }
    for (const [result, offset] of [[first, 0], [second, labels.count]] as const) {
      for (let i = 0; i < labels.count; i++) {
        const label = target.labels.at(offset + i);
        expect(label.target).toBe(remapEntity(rootEntity, result.seed));
        expect(target.labels.getEntity(offset + i)).toBe(remapEntity(labels.getEntity(i), result.seed));
      }
    }
    target.scene.update();
    // Worlds match the source's: the copies are full, working scene graphs.
    const src = scene.transforms.fields.world;
    const dst = target.scene.transforms.fields.world;
    for (let i = 0; i < scene.transforms.count; i++) {
      const j = target.scene.transforms.indexOf(remapEntity(scene.transforms.getEntity(i), second.seed));
      for (let k = 0; k < 16; k++) expect(dst[j * 16 + k]).toBeCloseTo(src[i * 16 + k]!, 4);
    }
  });

  test('one entity with its children round-trips as a self-contained tree', () => {
    const { scene } = buildWorld(4);
    const subtreeRoot = scene.childrenOf(scene.transforms.getEntity(0))[0]!;
    const subtree = scene.subtreeOf(subtreeRoot);
    const archive = scene.saveEntityTree(subtreeRoot);
    const copy = scene.loadEntityTree(archive);
    expect(copy.root).toBe(remapEntity(subtreeRoot, copy.seed));
    expect(scene.parentOf(copy.root)).toBe(INVALID_ENTITY);
    expect(scene.subtreeOf(copy.root).length).toBe(subtree.length);
    scene.attach(copy.root, scene.transforms.getEntity(0));
    scene.update();
  });

  test('unknown types are skipped, and an explicit seed that collides is refused', () => {
    const { scene } = buildWorld(5);
    const archive = saveLibrary(scene.library);
    const bare = new ComponentLibrary({ seed: 1 });
    const transforms = bare.register('transform', scene.transforms.emptyClone());
    const result = loadLibrary(bare, archive, { seed: 0 });
    expect(result.skipped.sort()).toEqual(['hierarchy', 'label', 'mass']);
    expect(transforms.count).toBe(scene.transforms.count);
    const before = snapshot(bare);
    expect(() => loadLibrary(bare, archive, { seed: 0 })).toThrow(ArchiveError);
    expect(snapshot(bare)).toEqual(before);
  });

  test('an older component version is migrated; a newer one or a missing migration is an ArchiveError', () => {
    const old = new ComponentLibrary({ seed: 1 });
    const v1 = old.register('mass', new SchemaComponentManager({ grams: 'f32' } as const), { version: 1 });
    for (let i = 0; i < 5; i++) {
      const row = v1.create(old.createEntity());
      v1.fields.grams[row] = 1000 * i;
    }
    const archive = saveLibrary(old);

    const current = new ComponentLibrary({ seed: 2 });
    const v2 = current.register('mass', new SchemaComponentManager({ kg: 'f64' } as const), {
      version: 2,
      migrate: (archived, target) => {
        const grams = archived.fields.grams!;
        const kg = target.column('kg');
        for (let i = 0; i < archived.count; i++) kg[i] = grams[i]! / 1000;
      },
    });
    loadLibrary(current, archive, { seed: 0 });
    expect(Array.from(v2.fields.kg.subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(v2.getEntity(3)).toBe(v1.getEntity(3));

    const strict = new ComponentLibrary();
    strict.register('mass', new SchemaComponentManager({ kg: 'f64' } as const), { version: 2 });
    expect(() => loadLibrary(strict, archive)).toThrow(/migrate/);

    const older = new ComponentLibrary();
    older.register('mass', new SchemaComponentManager({ grams: 'f32' } as const), { version: 1 });
    const newer = saveLibrary(current);
    expect(() => loadLibrary(older, newer)).toThrow(/newer/);

    const sameVersionOtherLayout = new ComponentLibrary();
    sameVersionOtherLayout.register('mass', new SchemaComponentManager({ pounds: 'f32' } as const), { version: 1 });
    expect(() => loadLibrary(sameVersionOtherLayout, archive)).toThrow(ArchiveError);

    const failing = new ComponentLibrary();
    failing.register('mass', new SchemaComponentManager({ kg: 'f64' } as const), { version: 2, migrate: () => { throw new Error('nope'); } });
    expect(() => loadLibrary(failing, archive)).toThrow(ArchiveError);
    expect(failing.get('mass').count).toBe(0);
  });

  test('a seed that maps an id to INVALID_ENTITY is refused when given and redrawn when drawn', () => {
    const source = new ComponentLibrary({ seed: 5 });
    const refs = source.register('ref', new SchemaComponentManager({ target: 'entity' } as const));
    const a = source.createEntity();
    const b = source.createEntity();
    const row = refs.create(a);
    refs.fields.target[row] = b;
    const archive = saveLibrary(source);
    for (const bad of [a * 2, b * 2]) {
      const target = new ComponentLibrary();
      target.register('ref', new SchemaComponentManager({ target: 'entity' } as const));
      expect(() => loadLibrary(target, archive, { seed: bad })).toThrow(ArchiveError);
      expect(target.get('ref').count).toBe(0);
      expect(loadLibrary(target, archive).components).toBe(1);
    }
  });

  test('bad save and load arguments throw EcsError', () => {
    const { scene } = buildWorld(6);
    expect(() => saveLibrary(scene.library, { types: ['nope'] })).toThrow(EcsError);
    expect(() => saveLibrary(scene.library, { entities: [0] })).toThrow(EcsError);
    expect(() => loadLibrary(scene.library, new ArrayBuffer(64), { seed: -1 })).toThrow(EcsError);
    expect(() => loadLibrary(scene.library, 'x' as unknown as ArrayBuffer)).toThrow(EcsError);
    const unsaved = new ComponentLibrary();
    unsaved.register('runtime', new ObjectComponentManager({ create: () => ({}) }));
    expect(() => saveLibrary(unsaved, { types: ['runtime'] })).toThrow(EcsError);
    expect(new Uint8Array(saveLibrary(unsaved)).length).toBeGreaterThan(0);
  });
});

describe('corrupted input', () => {
  const { scene } = buildWorld(7);
  const archive = new Uint8Array(saveLibrary(scene.library));

  function freshTarget(): { library: ComponentLibrary; before: unknown } {
    const target = buildWorld(8);
    return { library: target.scene.library, before: snapshot(target.scene.library) };
  }

  test('wrong magic, wrong format version and empty input are ArchiveErrors', () => {
    const { library, before } = freshTarget();
    const badMagic = archive.slice();
    badMagic[0]! ^= 0xff;
    const badVersion = archive.slice();
    badVersion[4] = 9;
    for (const input of [badMagic, badVersion, new Uint8Array(0), new Uint8Array(7)]) {
      expect(() => loadLibrary(library, input)).toThrow(ArchiveError);
    }
    expect(snapshot(library)).toEqual(before);
  });

  test('fuzz: every truncation, flipped byte or spliced garbage raises ArchiveError and changes nothing', () => {
    const { library, before } = freshTarget();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(archive.length - 1) }),
          fc.record({ kind: fc.constant('flip' as const), at: fc.nat(archive.length - 1), bits: fc.integer({ min: 1, max: 255 }) }),
          fc.record({ kind: fc.constant('splice' as const), at: fc.nat(archive.length - 1), bytes: fc.uint8Array({ minLength: 1, maxLength: 32 }) }),
        ),
        (damage) => {
          let input: Uint8Array;
          if (damage.kind === 'truncate') input = archive.slice(0, damage.at);
          else if (damage.kind === 'flip') {
            input = archive.slice();
            input[damage.at]! ^= damage.bits;
          } else {
            input = archive.slice();
            const end = Math.min(input.length, damage.at + damage.bytes.length);
            const old = input.slice(damage.at, end);
            input.set(damage.bytes.subarray(0, end - damage.at), damage.at);
            if (old.every((v, i) => v === damage.bytes[i])) return;
          }
          expect(() => loadLibrary(library, input)).toThrow(ArchiveError);
        },
      ),
      { numRuns: 400 },
    );
    expect(snapshot(library)).toEqual(before);
  });

  test('fuzz: structurally broken archives with a valid checksum still raise ArchiveError', async () => {
    const { checksumWords } = await import('../src/archive.ts');
    const { library, before } = freshTarget();
    fc.assert(
      fc.property(fc.nat(archive.length - 17), fc.integer({ min: 1, max: 255 }), (offset, bits) => {
        const input = archive.slice();
        input[16 + offset]! ^= bits;
        const view = new DataView(input.buffer);
        view.setUint32(12, checksumWords(new Uint32Array(input.buffer, 16, (input.length - 16) / 4)), true);
        try {
          loadLibrary(library, input, { seed: 12345 });
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveError);
          expect(snapshot(library)).toEqual(before);
          return;
        }
        // Some flips only change component values; those loads succeed. Undo them.
        for (const entry of library.entries) entry.manager.clear();
        const rebuilt = buildWorld(8);
        for (const entry of library.entries) entry.manager.copy(rebuilt.scene.library.get(entry.name));
      }),
      { numRuns: 300 },
    );
  });
});

describe('round-trip property', () => {
  test('random scene graphs survive save/load: seed 0 gives the same world, a drawn seed an isomorphic one', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(15), fc.nat(15), fc.boolean()), { maxLength: 40 }), fc.nat(2 ** 31), (ops, subtreePick) => {
        const scene = new Scene({ seed: 9 });
        const nodes = Array.from({ length: 16 }, (_, i) => scene.createNode({ position: [i, -i, i * 0.5] }));
        scene.update();
        for (const [c, p, detach] of ops) {
          const child = nodes[c]!;
          const parent = nodes[p]!;
          if (detach) scene.detach(child);
          else if (child !== parent && !scene.subtreeOf(child).includes(parent)) scene.attach(child, parent);
          scene.update();
        }
        const archive = saveLibrary(scene.library);
        const same = new Scene({ seed: 10 });
        loadLibrary(same.library, archive, { seed: 0 });
        expect(snapshot(same.library)).toEqual(snapshot(scene.library));

        const copy = new Scene({ seed: 11 });
        const { seed } = loadLibrary(copy.library, archive);
        for (const e of nodes) {
          const mapped = remapEntity(e, seed);
          expect(copy.parentOf(mapped)).toBe(remapEntity(scene.parentOf(e), seed));
          expect(copy.childrenOf(mapped).sort()).toEqual(scene.childrenOf(e).map((x) => remapEntity(x, seed)).sort());
        }
        copy.update();
        scene.update();
        for (const e of nodes) {
          const a = scene.transforms.indexOf(e);
          const b = copy.transforms.indexOf(remapEntity(e, seed));
          for (let k = 0; k < 16; k++) expect(copy.transforms.fields.world[b * 16 + k]).toBeCloseTo(scene.transforms.fields.world[a * 16 + k]!, 4);
        }

        // One subtree, saved alone, loads as a tree of the same shape.
        const root = nodes[subtreePick % nodes.length]!;
        const tree = scene.subtreeOf(root);
        const loaded = scene.loadEntityTree(scene.saveEntityTree(root));
        expect(scene.subtreeOf(loaded.root).length).toBe(tree.length);
        expect(scene.parentOf(loaded.root)).toBe(INVALID_ENTITY);
      }),
      { numRuns: 80 },
    );
  });
});

// Scene.update recomputes only the subtrees under dirty transforms when few are dirty. Against the
// two full systems run over an identical scene (updateTransforms, then updateHierarchy over every
// row): the same world matrices bit for bit after every update, through random edits, attaches,
// detaches and removals, with few and with many transforms dirty.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { Scene, updateHierarchy, updateTransforms, type Entity } from '../src/index.ts';

type Op =
  | { kind: 'edit'; node: number; value: number }
  | { kind: 'attach'; node: number; parent: number }
  | { kind: 'detach'; node: number }
  | { kind: 'remove'; node: number; recursive: boolean }
  | { kind: 'update' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), node: fc.nat(), value: fc.double({ min: -4, max: 4, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('attach' as const), node: fc.nat(), parent: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('detach' as const), node: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), node: fc.nat(), recursive: fc.boolean() }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'update' as const }) },
);

/** The same scene twice: `incremental` updates with Scene.update, `full` with both systems over every row. */
function pair(nodes: number, branching: number): { incremental: Scene; full: Scene; entities: Entity[] } {
  const make = (): { scene: Scene; entities: Entity[] } => {
    const scene = new Scene({ seed: 7 });
    const entities: Entity[] = [];
    for (let i = 0; i < nodes; i++) {
      const entity = scene.createNode({ position: [i * 0.5, (i % 5) - 2, i % 3], rotation: [0, Math.sin(i * 0.1), 0, Math.cos(i * 0.1)], scale: [1, 1 + (i % 4) * 0.25, 1] });
      entities.push(entity);
      if (i > 0 && i % branching !== 0) scene.attach(entity, entities[Math.floor((i - 1) / branching)]!);
    }
    return { scene, entities };
  };
  const a = make();
  const b = make();
  expect(b.entities).toEqual(a.entities);
  return { incremental: a.scene, full: b.scene, entities: a.entities };
}

function fullUpdate(scene: Scene): void {
  updateTransforms(scene.transforms);
  updateHierarchy(scene.hierarchy, scene.transforms);
}

function apply(scene: Scene, entities: readonly Entity[], o: Op): void {
  const alive = entities.filter((e) => scene.transforms.contains(e));
  if (alive.length === 0) return;
  const pick = (n: number): Entity => alive[n % alive.length]!;
  if (o.kind === 'edit') {
    const t = scene.transforms;
    const row = t.indexOf(pick(o.node));
    t.fields.position[row * 3 + 1] = o.value;
    t.fields.dirty[row] = 1;
  } else if (o.kind === 'attach') {
    const child = pick(o.node);
    const parent = pick(o.parent);
    // Skip what attach refuses (itself, a cycle): the same on both scenes.
    try {
      scene.attach(child, parent);
    } catch {
      // refused, nothing changed
    }
  } else if (o.kind === 'detach') {
    scene.detach(pick(o.node));
  } else if (o.kind === 'remove') {
    scene.removeEntity(pick(o.node), { recursive: o.recursive });
  }
}

const bits = (scene: Scene): Uint32Array => {
  const world = scene.transforms.fields.world;
  return new Uint32Array(world.buffer, world.byteOffset, scene.transforms.count * 16).slice();
};

test('Scene.update leaves the world matrices of the full pass, bit for bit, through random edits and hierarchy changes', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 120 }), fc.integer({ min: 2, max: 6 }), fc.array(op, { minLength: 1, maxLength: 60 }), (nodes, branching, ops) => {
      const { incremental, full, entities } = pair(nodes, branching);
      incremental.update();
      fullUpdate(full);
      expect(bits(incremental)).toEqual(bits(full));
      for (const o of ops) {
        if (o.kind === 'update') {
          incremental.update();
          fullUpdate(full);
          expect(bits(incremental)).toEqual(bits(full));
        } else {
          apply(incremental, entities, o);
          apply(full, entities, o);
        }
      }
      incremental.update();
      fullUpdate(full);
      expect(bits(incremental)).toEqual(bits(full));
    }),
    { numRuns: 300 },
  );
});

test('one edited unit of a large scene recomputes its own subtree only; with nothing dirty nothing changes', () => {
  const { incremental, full, entities } = pair(4000, 10);
  incremental.update();
  fullUpdate(full);
  const t = incremental.transforms;
  const moved = entities[25]!; // a child of node 2, with children of its own
  // Its subtree by the construction rule: node i > 0 (not a multiple of 10) hangs under (i - 1) / 10.
  const under = (i: number, root: number): boolean => {
    for (let n = i; n > 0 && n % 10 !== 0; n = Math.floor((n - 1) / 10)) if (n === root) return true;
    return i === root;
  };
  const subtree = entities.filter((_, i) => under(i, 25)).length;
  const before = bits(incremental);
  const row = t.indexOf(moved);
  t.fields.position[row * 3] = t.fields.position[row * 3]! + 1;
  t.fields.dirty[row] = 1;
  const fullRow = full.transforms.indexOf(moved);
  full.transforms.fields.position[fullRow * 3] = full.transforms.fields.position[fullRow * 3]! + 1;
  full.transforms.fields.dirty[fullRow] = 1;
  incremental.update();
  fullUpdate(full);
  const after = bits(incremental);
  expect(after).toEqual(bits(full));
  let changed = 0;
  for (let r = 0; r < t.count; r++) if (after.subarray(r * 16, r * 16 + 16).some((v, k) => v !== before[r * 16 + k])) changed++;
  expect(subtree).toBe(91);
  expect(changed, 'the moved unit and its descendants, nothing else').toBe(subtree);
  // Nothing dirty: the worlds stay as they are.
  incremental.update();
  expect(bits(incremental)).toEqual(after);
});

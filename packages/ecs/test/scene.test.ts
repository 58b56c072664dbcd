import fc from 'fast-check';
import { expect, test } from 'vitest';
import { composeMatrix, decomposeMatrix, EcsError, INVALID_ENTITY, invertMatrix, multiplyMatrices, Scene, SchemaComponentManager, type Entity } from '../src/index.ts';

/** The naive pointer-style reference: parent map, binds, and a recursive world computation. */
class ReferenceGraph {
  parent = new Map<Entity, Entity>();
  bind = new Map<Entity, Float64Array>();
  local = new Map<Entity, { p: Float64Array; q: Float64Array; s: Float64Array }>();

  add(entity: Entity, p: number[], q: number[], s: number[]): void {
    this.local.set(entity, { p: Float64Array.from(p, Math.fround), q: Float64Array.from(q, Math.fround), s: Float64Array.from(s, Math.fround) });
  }

  localMatrix(entity: Entity): Float64Array {
    const l = this.local.get(entity)!;
    const m = new Float64Array(16);
    composeMatrix(m, 0, l.p, 0, l.q, 0, l.s, 0);
    return m;
  }

  world(entity: Entity): Float64Array {
    const parent = this.parent.get(entity);
    if (parent === undefined) return this.localMatrix(entity);
    const out = new Float64Array(16);
    multiplyMatrices(out, 0, this.world(parent), 0, this.bind.get(entity)!, 0);
    multiplyMatrices(out, 0, out, 0, this.localMatrix(entity), 0);
    return out;
  }

  isAncestor(ancestor: Entity, entity: Entity): boolean {
    for (let up = this.parent.get(entity); up !== undefined; up = this.parent.get(up)) if (up === ancestor) return true;
    return false;
  }

  detach(entity: Entity): void {
    if (!this.parent.has(entity)) return;
    const w = this.world(entity);
    const l = this.local.get(entity)!;
    decomposeMatrix(w, 0, l.p, 0, l.q, 0, l.s, 0);
    this.parent.delete(entity);
    this.bind.delete(entity);
  }

  attach(entity: Entity, parent: Entity): void {
    this.detach(entity);
    const inv = new Float64Array(16);
    invertMatrix(inv, 0, this.world(parent), 0);
    this.parent.set(entity, parent);
    this.bind.set(entity, inv);
  }

  children(entity: Entity): Entity[] {
    return [...this.parent].filter(([, p]) => p === entity).map(([c]) => c);
  }
}

function checkInvariants(scene: Scene, ref: ReferenceGraph, nodes: readonly Entity[]): void {
  const h = scene.hierarchy;
  const { parent } = h.fields;
  for (let i = 0; i < h.count; i++) {
    const p = parent[i]!;
    if (p === INVALID_ENTITY) continue;
    const pi = h.indexOf(p);
    expect(pi, 'parent row exists').not.toBe(-1);
    expect(pi, 'parent row precedes child row').toBeLessThan(i);
  }
  for (const e of nodes) {
    const refParent = ref.parent.get(e) ?? INVALID_ENTITY;
    expect(scene.parentOf(e)).toBe(refParent);
    const refChildren = ref.children(e).sort((a, b) => a - b);
    expect(scene.childrenOf(e).sort((a, b) => a - b)).toEqual(refChildren);
    expect(h.contains(e), 'row exists iff parent or children').toBe(refParent !== INVALID_ENTITY || refChildren.length > 0);
  }
}

function checkWorlds(scene: Scene, ref: ReferenceGraph, nodes: readonly Entity[]): void {
  const { world } = scene.transforms.fields;
  for (const e of nodes) {
    const expected = ref.world(e);
    const t = scene.transforms.indexOf(e);
    for (let k = 0; k < 16; k++) {
      const got = world[t * 16 + k]!;
      expect(Math.abs(got - expected[k]!), `world[${k}] of ${e}`).toBeLessThan(2e-3 * (1 + Math.abs(expected[k]!)));
    }
  }
}

const quat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0.2, max: 1, noNaN: true })).map((q) => {
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
});
const nodeInit = fc.record({
  p: fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true })),
  q: quat,
  s: fc.double({ min: 0.6, max: 1.5, noNaN: true }),
});
type Op = { kind: 'attach'; child: number; parent: number } | { kind: 'detach'; child: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('attach' as const), child: fc.nat(11), parent: fc.nat(11) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('detach' as const), child: fc.nat(11) }) },
);

test('random attach/detach/reattach keeps parents before children and matches the recursive reference', () => {
  fc.assert(
    fc.property(fc.array(nodeInit, { minLength: 12, maxLength: 12 }), fc.array(op, { maxLength: 40 }), (inits, ops) => {
      const scene = new Scene({ seed: 1 });
      const ref = new ReferenceGraph();
      const nodes = inits.map((init) => {
        const e = scene.createNode({ position: init.p, rotation: init.q as [number, number, number, number], scale: [init.s, init.s, init.s] });
        ref.add(e, init.p, init.q, [init.s, init.s, init.s]);
        return e;
      });
      scene.update();
      for (const o of ops) {
        const child = nodes[o.child]!;
        if (o.kind === 'detach') {
          scene.detach(child);
          ref.detach(child);
        } else {
          const parent = nodes[o.parent]!;
          if (child === parent || ref.isAncestor(child, parent)) {
            expect(() => { scene.attach(child, parent); }).toThrow(EcsError);
          } else {
            scene.attach(child, parent);
            ref.attach(child, parent);
          }
        }
        scene.update();
        checkInvariants(scene, ref, nodes);
      }
      checkWorlds(scene, ref, nodes);
    }),
    { numRuns: 150 },
  );
});

test('attaching a built subtree under a later parent moves the whole subtree after it', () => {
  const scene = new Scene({ seed: 2 });
  const [a, b, c, d, p] = [0, 1, 2, 3, 4].map(() => scene.createNode());
  scene.attach(b!, a!);
  scene.attach(c!, b!);
  scene.attach(d!, a!);
  // p gets its row only now, after the subtree rooted at a.
  const q = scene.createNode();
  scene.attach(q, p!);
  scene.attach(a!, p!);
  const order = Array.from(scene.hierarchy.entities.subarray(0, scene.hierarchy.count));
  for (const [child, parent] of [[a, p], [b, a], [c, b], [d, a], [q, p]] as const) {
    expect(order.indexOf(parent!)).toBeLessThan(order.indexOf(child!));
  }
  expect(Array.from(scene.subtreeOf(p!)).sort()).toEqual([p, q, a, b, c, d].sort());
});

test('attach moves no rows for a childless entity, and only rows from the subtree root on otherwise', () => {
  const scene = new Scene({ seed: 6 });
  const nodes = Array.from({ length: 50 }, () => scene.createNode());
  for (let i = 1; i < 40; i++) scene.attach(nodes[i]!, nodes[Math.floor((i - 1) / 3)]!);
  const h = scene.hierarchy;
  const before = h.structureVersion;
  const order = Array.from(h.entities.subarray(0, h.count));
  scene.attach(nodes[45]!, nodes[10]!); // a new leaf: one appended row, nothing moved
  expect(h.structureVersion - before).toBe(1);
  expect(Array.from(h.entities.subarray(0, order.length))).toEqual(order);
  // Re-attach an inner node (with children) under a later row: only rows from its own onwards move.
  const inner = nodes[2]!;
  const from = h.indexOf(inner);
  const prefix = Array.from(h.entities.subarray(0, from));
  scene.attach(inner, nodes[45]!);
  expect(Array.from(h.entities.subarray(0, from))).toEqual(prefix);
  for (let i = 0; i < h.count; i++) {
    const p = h.fields.parent[i]!;
    if (p !== INVALID_ENTITY) expect(h.indexOf(p)).toBeLessThan(i);
  }
});

test('a child keeps its world placement across attach and detach', () => {
  const scene = new Scene({ seed: 3 });
  const parent = scene.createNode({ position: [10, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2], scale: [2, 2, 2] });
  const child = scene.createNode({ position: [1, 2, 3] });
  scene.update();
  scene.attach(child, parent);
  scene.update();
  const world = scene.transforms.fields.world;
  const t = scene.transforms.indexOf(child);
  expect(Array.from(world.subarray(t * 16 + 12, t * 16 + 15))).toEqual([expect.closeTo(1, 5), expect.closeTo(2, 5), expect.closeTo(3, 5)]);
  // Moving the parent carries the child along.
  const pi = scene.transforms.indexOf(parent);
  scene.transforms.fields.position[pi * 3] = 20;
  scene.transforms.fields.dirty[pi] = 1;
  scene.update();
  expect(world[t * 16 + 12]).toBeCloseTo(11, 4);
  scene.detach(child);
  scene.update();
  expect(scene.transforms.fields.position[t * 3]).toBeCloseTo(11, 4);
  expect(world[t * 16 + 12]).toBeCloseTo(11, 4);
  expect(scene.hierarchy.count).toBe(0);
});

test('recursive removal removes the subtree from every manager; plain removal detaches the children', () => {
  const scene = new Scene({ seed: 4 });
  const tags = scene.library.register('tag', new SchemaComponentManager({ v: 'u8' }));
  const [root, a, b, c, other] = [0, 1, 2, 3, 4].map(() => scene.createNode());
  scene.attach(a!, root!);
  scene.attach(b!, a!);
  scene.attach(c!, root!);
  scene.attach(other!, c!);
  tags.create(b!);
  scene.removeEntity(a!, { recursive: true });
  expect(scene.transforms.contains(a!)).toBe(false);
  expect(scene.transforms.contains(b!)).toBe(false);
  expect(tags.contains(b!)).toBe(false);
  expect(scene.childrenOf(root!)).toEqual([c]);
  scene.removeEntity(c!);
  expect(scene.library.hasEntity(c!)).toBe(false);
  expect(scene.parentOf(other!)).toBe(INVALID_ENTITY);
  expect(scene.hierarchy.count).toBe(0);
  expect(scene.transforms.count).toBe(2);
});

test('misuse throws EcsError', () => {
  const scene = new Scene({ seed: 5 });
  const a = scene.createNode();
  expect(() => { scene.attach(a, a); }).toThrow(EcsError);
  expect(() => { scene.attach(a, INVALID_ENTITY); }).toThrow(EcsError);
  expect(() => { scene.attach(0, a); }).toThrow(EcsError);
  expect(() => { scene.detach(-3); }).toThrow(EcsError);
  expect(() => { scene.removeEntity(0); }).toThrow(EcsError);
});

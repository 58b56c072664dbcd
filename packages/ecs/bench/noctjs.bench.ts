// The five cases of the noctjs ecs-benchmark suite, written the way each library is meant to
// be used: @cuttle/ecs systems are loops over one manager's typed arrays (a Join caches the
// rows of a second manager), bitECS systems loop over query() results into eid-indexed typed
// arrays, miniplex systems iterate archetype queries of plain objects.
import { defineSuite, type BenchCase, opsPerSecond } from '@cuttle/bench';
import { addComponent, addEntity, createWorld, query, removeComponent, removeEntity, type World as BitWorld } from 'bitecs';
import { World as MiniplexWorld } from 'miniplex';
import { ComponentLibrary, EntityGenerator, EntityLookup, Join, SchemaComponentManager } from '../src/index.ts';

const MIN_MS = 300;
/** The plain-typed-array systems: not a library, the fastest this layout goes (see floorDouble). */
const FLOOR = 'floor: plain typed arrays';
/** simple_iter only: our managers with the C/D and C/E joins left ungrouped (row maps), as before 2026-11-29. */
const UNGROUPED = 'ours, joins not grouped';
/** simple_iter only: the floor in that ungrouped layout. */
const FLOOR_UNGROUPED = 'floor, not grouped (row maps)';
const VALUE = { value: 'f32' } as const;
type ValueManager = SchemaComponentManager<typeof VALUE>;

/** A library with managers named A, B, ... holding one f32 `value`. */
function cuttleWorld(names: readonly string[]): { library: ComponentLibrary; m: Record<string, ValueManager> } {
  const library = new ComponentLibrary({ seed: 1 });
  const m: Record<string, ValueManager> = {};
  for (const name of names) m[name] = library.register(name, new SchemaComponentManager(VALUE));
  return { library, m };
}

function cuttleSpawn(library: ComponentLibrary, managers: readonly ValueManager[]): void {
  const e = library.createEntity();
  for (const manager of managers) {
    const row = manager.create(e);
    manager.fields.value[row] = 1;
  }
}

function double(manager: ValueManager): void {
  const value = manager.fields.value;
  for (let i = 0, n = manager.count; i < n; i++) value[i]! *= 2;
}

// The floor: the same systems over plain typed arrays in the same layout as ours (one array per
// component, a precomputed row map for the pairs that are not aligned), with no manager, join or
// query in between. No library keeping this layout can be faster; floor/bitECS bounds what any
// ratio to bitECS can be.
function floorDouble(value: Float32Array): void {
  for (let i = 0, n = value.length; i < n; i++) value[i]! *= 2;
}

function floorSwapAligned(a: Float32Array, b: Float32Array): void {
  for (let i = 0, n = a.length; i < n; i++) {
    const t = a[i]!;
    a[i] = b[i]!;
    b[i] = t;
  }
}

function floorSwapOffset(a: Float32Array, b: Float32Array, offset: number): void {
  for (let i = 0, n = a.length; i < n; i++) {
    const j = offset + i;
    const t = a[i]!;
    a[i] = b[j]!;
    b[j] = t;
  }
}

function floorSwapMapped(a: Float32Array, b: Float32Array, rows: Int32Array): void {
  for (let i = 0, n = a.length; i < n; i++) {
    const j = rows[i]!;
    const t = a[i]!;
    a[i] = b[j]!;
    b[j] = t;
  }
}

/** A component's values copied into a plain array of its own, for the floor. */
function plain(manager: ValueManager): Float32Array {
  return manager.fields.value.slice(0, manager.count);
}

/**
 * Swaps `from.value` with `to.value` for entities in both; iterates `from`, the smaller side.
 * Where `from`'s entities are a run of `to`'s rows (created in lockstep, or grouped), it indexes
 * `to` by offset instead of through the row map.
 */
function swap(from: ValueManager, to: ValueManager, join: Join): void {
  const rows = join.rows();
  const a = from.fields.value;
  const b = to.fields.value;
  const offset = join.offset;
  if (offset >= 0) {
    for (let i = 0, n = from.count; i < n; i++) {
      const j = offset + i;
      const t = a[i]!;
      a[i] = b[j]!;
      b[j] = t;
    }
    return;
  }
  for (let i = 0, n = from.count; i < n; i++) {
    const j = rows[i]!;
    if (j === -1) continue;
    const t = a[i]!;
    a[i] = b[j]!;
    b[j] = t;
  }
}

interface BitValue {
  value: Float32Array;
}
const CAPACITY = 1 << 16;

function bitComponents(names: readonly string[]): Record<string, BitValue> {
  const out: Record<string, BitValue> = {};
  for (const name of names) out[name] = { value: new Float32Array(CAPACITY) };
  return out;
}

function bitSpawn(world: BitWorld, components: readonly BitValue[]): void {
  const eid = addEntity(world);
  for (const c of components) {
    addComponent(world, eid, c);
    c.value[eid] = 1;
  }
}

function bitDouble(world: BitWorld, c: BitValue): void {
  const ents = query(world, [c]);
  const value = c.value;
  for (let i = 0; i < ents.length; i++) value[ents[i]!]! *= 2;
}

function bitSwap(world: BitWorld, a: BitValue, b: BitValue): void {
  const ents = query(world, [a, b]);
  for (let i = 0; i < ents.length; i++) {
    const eid = ents[i]!;
    const t = a.value[eid]!;
    a.value[eid] = b.value[eid]!;
    b.value[eid] = t;
  }
}

interface MiniEntity {
  A?: { value: number };
  B?: { value: number };
  C?: { value: number };
  D?: { value: number };
  E?: { value: number };
  Z?: { value: number };
  Data?: { value: number };
  tag?: string;
}

const ABCDE = ['A', 'B', 'C', 'D', 'E'] as const;

function packed5(): { ours: () => number; bitecs: () => number; miniplex: () => number; floor: () => number } {
  const { library, m } = cuttleWorld(ABCDE);
  const managers = ABCDE.map((n) => m[n]!);
  for (let i = 0; i < 1000; i++) cuttleSpawn(library, managers);

  const bw = createWorld();
  const bc = bitComponents(ABCDE);
  const bitList = ABCDE.map((n) => bc[n]!);
  for (let i = 0; i < 1000; i++) bitSpawn(bw, bitList);

  const mw = new MiniplexWorld<MiniEntity>();
  for (let i = 0; i < 1000; i++) mw.add({ A: { value: 1 }, B: { value: 1 }, C: { value: 1 }, D: { value: 1 }, E: { value: 1 } });
  const mq = ABCDE.map((n) => mw.with(n));
  const floors = managers.map(plain);

  return {
    ours: () => opsPerSecond(() => {
      for (const manager of managers) double(manager);
    }, { minMs: MIN_MS }),
    floor: () => opsPerSecond(() => {
      for (const value of floors) floorDouble(value);
    }, { minMs: MIN_MS }),
    bitecs: () => opsPerSecond(() => {
      for (const c of bitList) bitDouble(bw, c);
    }, { minMs: MIN_MS }),
    miniplex: () => opsPerSecond(() => {
      for (let k = 0; k < ABCDE.length; k++) {
        const name = ABCDE[k]!;
        for (const e of mq[k]!) e[name].value *= 2;
      }
    }, { minMs: MIN_MS }),
  };
}

/** simple_iter's world in our managers: A and B on every entity, C on three in four, D and E on one in four each. */
function simpleIterWorld(): { A: ValueManager; B: ValueManager; C: ValueManager; D: ValueManager; E: ValueManager; ab: Join; dc: Join; ec: Join } {
  const { library, m } = cuttleWorld(ABCDE);
  const [A, B, C, D, E] = ABCDE.map((n) => m[n]!) as [ValueManager, ValueManager, ValueManager, ValueManager, ValueManager];
  for (let i = 0; i < 1000; i++) {
    cuttleSpawn(library, [A, B]);
    cuttleSpawn(library, [A, B, C]);
    cuttleSpawn(library, [A, B, C, D]);
    cuttleSpawn(library, [A, B, C, E]);
  }
  return { A, B, C, D, E, ab: new Join(A, B), dc: new Join(D, C), ec: new Join(E, C) };
}

function simpleIter(): { ours: () => number; bitecs: () => number; miniplex: () => number; floor: () => number; ungrouped: () => number; floorUngrouped: () => number } {
  // Ours groups the C/D and C/E pairs (Join.group): C's rows start with D's entities, then E's.
  const { A, B, C, D, E, ab, dc, ec } = simpleIterWorld();
  dc.group(0);
  ec.group(D.count);
  const plainWorld = simpleIterWorld();

  const bw = createWorld();
  const bc = bitComponents(ABCDE);
  const [bA, bB, bC, bD, bE] = ABCDE.map((n) => bc[n]!) as [BitValue, BitValue, BitValue, BitValue, BitValue];
  for (let i = 0; i < 1000; i++) {
    bitSpawn(bw, [bA, bB]);
    bitSpawn(bw, [bA, bB, bC]);
    bitSpawn(bw, [bA, bB, bC, bD]);
    bitSpawn(bw, [bA, bB, bC, bE]);
  }

  const mw = new MiniplexWorld<MiniEntity>();
  const v = (): { value: number } => ({ value: 1 });
  for (let i = 0; i < 1000; i++) {
    mw.add({ A: v(), B: v() });
    mw.add({ A: v(), B: v(), C: v() });
    mw.add({ A: v(), B: v(), C: v(), D: v() });
    mw.add({ A: v(), B: v(), C: v(), E: v() });
  }
  const mAB = mw.with('A', 'B');
  const mCD = mw.with('C', 'D');
  const mCE = mw.with('C', 'E');
  const [fA, fB, fC, fD, fE] = [A, B, C, D, E].map(plain) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  const [uA, uB, uC, uD, uE] = [plainWorld.A, plainWorld.B, plainWorld.C, plainWorld.D, plainWorld.E].map(plain) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  const dRows = plainWorld.dc.rows().slice(0, D.count);
  const eRows = plainWorld.ec.rows().slice(0, E.count);
  for (const join of [ab, dc, ec, plainWorld.ab]) join.rows();
  if (!ab.aligned || !plainWorld.ab.aligned) throw new Error('simple_iter: A and B were created in lockstep and should be aligned');
  if (dc.offset !== 0 || ec.offset !== D.count) throw new Error('simple_iter: the grouped C/D and C/E joins should be runs at 0 and 1000');

  return {
    floor: () => opsPerSecond(() => {
      floorSwapAligned(fA, fB);
      floorSwapOffset(fD, fC, 0);
      floorSwapOffset(fE, fC, fD.length);
    }, { minMs: MIN_MS }),
    floorUngrouped: () => opsPerSecond(() => {
      floorSwapAligned(uA, uB);
      floorSwapMapped(uD, uC, dRows);
      floorSwapMapped(uE, uC, eRows);
    }, { minMs: MIN_MS }),
    ours: () => opsPerSecond(() => {
      swap(A, B, ab);
      swap(D, C, dc);
      swap(E, C, ec);
    }, { minMs: MIN_MS }),
    ungrouped: () => opsPerSecond(() => {
      swap(plainWorld.A, plainWorld.B, plainWorld.ab);
      swap(plainWorld.D, plainWorld.C, plainWorld.dc);
      swap(plainWorld.E, plainWorld.C, plainWorld.ec);
    }, { minMs: MIN_MS }),
    bitecs: () => opsPerSecond(() => {
      bitSwap(bw, bA, bB);
      bitSwap(bw, bC, bD);
      bitSwap(bw, bC, bE);
    }, { minMs: MIN_MS }),
    miniplex: () => opsPerSecond(() => {
      for (const e of mAB) [e.A.value, e.B.value] = [e.B.value, e.A.value];
      for (const e of mCD) [e.C.value, e.D.value] = [e.D.value, e.C.value];
      for (const e of mCE) [e.C.value, e.E.value] = [e.E.value, e.C.value];
    }, { minMs: MIN_MS }),
  };
}

const LETTERS = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));

function fragIter(): { ours: () => number; bitecs: () => number; miniplex: () => number; floor: () => number } {
  const { library, m } = cuttleWorld([...LETTERS, 'Data']);
  const data = m.Data!;
  const z = m.Z!;
  for (const letter of LETTERS) for (let i = 0; i < 100; i++) cuttleSpawn(library, [m[letter]!, data]);

  const bw = createWorld();
  const bc = bitComponents([...LETTERS, 'Data']);
  for (const letter of LETTERS) for (let i = 0; i < 100; i++) bitSpawn(bw, [bc[letter]!, bc.Data!]);

  const mw = new MiniplexWorld<Record<string, { value: number } | undefined>>();
  for (const letter of LETTERS) for (let i = 0; i < 100; i++) mw.add({ [letter]: { value: 1 }, Data: { value: 1 } });
  const withData = mw.with('Data');
  const withZ = mw.with('Z');
  const [fData, fZ] = [plain(data), plain(z)];

  return {
    ours: () => opsPerSecond(() => {
      double(data);
      double(z);
    }, { minMs: MIN_MS }),
    floor: () => opsPerSecond(() => {
      floorDouble(fData);
      floorDouble(fZ);
    }, { minMs: MIN_MS }),
    bitecs: () => opsPerSecond(() => {
      bitDouble(bw, bc.Data!);
      bitDouble(bw, bc.Z!);
    }, { minMs: MIN_MS }),
    miniplex: () => opsPerSecond(() => {
      for (const e of withData) e.Data!.value *= 2;
      for (const e of withZ) e.Z!.value *= 2;
    }, { minMs: MIN_MS }),
  };
}

/** The same start in all three libraries: 1000 entities with component A, and B unused. */
function thousandWithA() {
  const { library, m } = cuttleWorld(['A', 'B']);
  const A = m.A!;
  const B = m.B!;
  for (let i = 0; i < 1000; i++) cuttleSpawn(library, [A]);

  const bw = createWorld();
  const bc = bitComponents(['A', 'B']);
  for (let i = 0; i < 1000; i++) bitSpawn(bw, [bc.A!]);

  const mw = new MiniplexWorld<MiniEntity>();
  for (let i = 0; i < 1000; i++) mw.add({ A: { value: 1 } });
  const withA = mw.with('A');
  const withB = mw.with('B');
  return { library, A, B, bw, bc, mw, withA, withB };
}

function entityCycle(): { ours: () => number; bitecs: () => number; miniplex: () => number } {
  const { library, A, B, bw, bc, mw, withA, withB } = thousandWithA();

  return {
    ours: () => opsPerSecond(() => {
      for (let i = 0, n = A.count; i < n; i++) {
        const row = B.create(library.createEntity());
        B.fields.value[row] = 1;
      }
      const entities = B.entities;
      for (let i = B.count - 1; i >= 0; i--) library.removeEntity(entities[i]!);
    }, { minMs: MIN_MS }),
    bitecs: () => opsPerSecond(() => {
      const ents = query(bw, [bc.A!]);
      for (let i = 0; i < ents.length; i++) bitSpawn(bw, [bc.B!]);
      const withB = query(bw, [bc.B!]);
      for (let i = withB.length - 1; i >= 0; i--) removeEntity(bw, withB[i]!);
    }, { minMs: MIN_MS }),
    miniplex: () => opsPerSecond(() => {
      for (const _ of withA) mw.add({ B: { value: 1 } });
      for (let i = withB.entities.length - 1; i >= 0; i--) mw.remove(withB.entities[i]!);
    }, { minMs: MIN_MS }),
  };
}

function addRemove(): { ours: () => number; bitecs: () => number; miniplex: () => number } {
  const { A, B, bw, bc, mw, withA, withB } = thousandWithA();

  return {
    ours: () => opsPerSecond(() => {
      const entities = A.entities;
      for (let i = 0, n = A.count; i < n; i++) {
        const row = B.create(entities[i]!);
        B.fields.value[row] = 1;
      }
      for (let i = 0, n = A.count; i < n; i++) B.remove(entities[i]!);
    }, { minMs: MIN_MS }),
    bitecs: () => opsPerSecond(() => {
      const ents = query(bw, [bc.A!]);
      for (let i = 0; i < ents.length; i++) {
        addComponent(bw, ents[i]!, bc.B!);
        bc.B!.value[ents[i]!] = 1;
      }
      const withB = query(bw, [bc.B!]);
      for (let i = withB.length - 1; i >= 0; i--) removeComponent(bw, withB[i]!, bc.B!);
    }, { minMs: MIN_MS }),
    miniplex: () => opsPerSecond(() => {
      for (const e of withA) mw.addComponent(e, 'B', { value: 1 });
      for (let i = withB.entities.length - 1; i >= 0; i--) mw.removeComponent(withB.entities[i]!, 'B');
    }, { minMs: MIN_MS }),
  };
}

function lookupVsMap(): { ours: () => number; Map: () => number } {
  const n = 100_000;
  const generator = new EntityGenerator(9);
  const keys = new Uint32Array(n);
  const lookup = new EntityLookup();
  const map = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    keys[i] = generator.next();
    lookup.set(keys[i]!, i);
    map.set(keys[i]!, i);
  }
  // Probe in a shuffled order so neither side walks memory in insertion order.
  const probes = keys.slice();
  for (let i = n - 1; i > 0; i--) {
    const j = (generator.nextSeed() % (i + 1)) >>> 0;
    const t = probes[i]!;
    probes[i] = probes[j]!;
    probes[j] = t;
  }
  return {
    ours: () => opsPerSecond(() => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += lookup.get(probes[i]!);
      return sum;
    }, { minMs: MIN_MS, opsPerCall: n }),
    Map: () => opsPerSecond(() => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += map.get(probes[i]!)!;
      return sum;
    }, { minMs: MIN_MS, opsPerCall: n }),
  };
}

export const suite = defineSuite({
  package: '@cuttle/ecs',
  cases: (): BenchCase[] => {
    const p5 = packed5();
    const si = simpleIter();
    const fi = fragIter();
    const ec = entityCycle();
    const ar = addRemove();
    const lk = lookupVsMap();
    return [
      { name: 'packed_5', unit: 'ops/s', higherIsBetter: true, ours: p5.ours, peers: { 'bitecs 0.4.0': p5.bitecs, 'miniplex 2.0.0': p5.miniplex, [FLOOR]: p5.floor } },
      { name: 'simple_iter', unit: 'ops/s', higherIsBetter: true, ours: si.ours, peers: { 'bitecs 0.4.0': si.bitecs, 'miniplex 2.0.0': si.miniplex, [FLOOR]: si.floor, [UNGROUPED]: si.ungrouped, [FLOOR_UNGROUPED]: si.floorUngrouped } },
      { name: 'frag_iter', unit: 'ops/s', higherIsBetter: true, ours: fi.ours, peers: { 'bitecs 0.4.0': fi.bitecs, 'miniplex 2.0.0': fi.miniplex, [FLOOR]: fi.floor } },
      { name: 'entity_cycle', unit: 'ops/s', higherIsBetter: true, ours: ec.ours, peers: { 'bitecs 0.4.0': ec.bitecs, 'miniplex 2.0.0': ec.miniplex } },
      { name: 'add_remove', unit: 'ops/s', higherIsBetter: true, ours: ar.ours, peers: { 'bitecs 0.4.0': ar.bitecs, 'miniplex 2.0.0': ar.miniplex } },
      { name: 'entity lookup, 100k random ids', unit: 'lookups/s', higherIsBetter: true, ours: lk.ours, peers: { Map: lk.Map } },
    ];
  },
  notes: 'noctjs ecs-benchmark cases (1,000-entity worlds; one op = one run of all the case\'s systems). Ours: a system is a loop over a manager\'s typed arrays; simple_iter joins two managers through a cached Join, and groups the C/D and C/E pairs (Join.group: C\'s rows start with D\'s entities, then E\'s, so both joins are runs indexed by offset); its ungrouped columns are the row-map layout of before. bitECS components are Float32Arrays indexed by eid, iterated through query(). miniplex iterates archetype queries of objects. The floor column runs the same systems over plain typed arrays in our layout (one array per component; simple_iter\'s C/D and C/E pairs grouped into runs, or through a precomputed row map in its ungrouped column) with nothing in between: ours/floor is what our managers and joins cost, and floor/bitecs is the most any library keeping this layout could lead bitECS by. The lookup case compares EntityLookup (open addressing on typed arrays) with a Map<number, number> holding the same 100k random 31-bit ids.',
});

// Compiling a frame graph: plain data in, plain data out, no GPU. The passes run in the order
// they were added, except that passes added at one named point are ordered among themselves by
// their `after` lists. From the declarations the compile finds which pass needs which (a read
// needs the last writer before it; a write that does not discard needs it too), culls the
// passes nothing needed (the roots are passes with side effects and passes that write an
// imported resource), finds each transient resource's lifetime over the passes that run, and
// gives resources with one description and lifetimes that do not overlap one GPU object.
import { FrameGraphError } from './errors.ts';
import type { PassDecl, ResourceAccess } from './pass.ts';
import { descriptionProblem, descriptorKey, resourceBytes, type ResourceDesc } from './resources.ts';

export interface ImportDecl {
  /** The imported object's description (kind, size, format). */
  desc: ResourceDesc;
  /** The uses the user's object allows (its usage flags); any other use is a build-time error. */
  uses: ReadonlySet<string>;
  /** Passes may read it but not write it. */
  readOnly?: boolean;
  /** Imported without its GPU object: the graph orders passes by it, the passes get the object elsewhere. */
  external?: boolean;
}

/** What the compile found about one resource of the graph. */
export interface ResourceInfo {
  /** The resource's name. */
  name: string;
  /** Its description (kind, size, format). */
  desc: ResourceDesc;
  /** True for a resource imported into the graph (the caller's object), false for a transient one. */
  imported: boolean;
  /** The pass that created it (transient resources). */
  creator: string | undefined;
  /** Every use by the passes that run (the usage flags of a transient resource). */
  uses: Set<string>;
  /** First and last position in `order` of a pass that touches it; -1 when none runs. */
  first: number;
  /** Position in `order` of the last pass that touches it; -1 when none runs. */
  last: number;
  /** The GPU object it lives in (an index into `objects`), -1 for imported or unused ones. */
  object: number;
}

/** One GPU object of the compiled graph, shared by transient resources of one description whose lifetimes do not overlap. */
export interface GraphObject {
  /** Equal for objects of one description (the pool keeps objects by it, with the uses). */
  key: string;
  /** The description every resource it holds shares. */
  desc: ResourceDesc;
  /** The union of its resources' uses: its usage flags. */
  uses: Set<string>;
  /** The resources it holds, in lifetime order. */
  resources: string[];
  /** Estimated size of the object in bytes. */
  bytes: number;
}

/**
 * A compiled frame graph: passes in order, culled passes with reasons, resources with lifetimes, and the GPU objects they share. Plain data; no GPU involved.
 */
export interface CompiledGraph {
  /** The passes that run, in order. */
  order: PassDecl[];
  /** Passes left out, with why. */
  culled: { pass: PassDecl; reason: string }[];
  /** Every resource, by name. */
  resources: Map<string, ResourceInfo>;
  /** The GPU objects transient resources live in. */
  objects: GraphObject[];
  /** Transient bytes with each resource in its own object, and with objects shared. */
  transientBytes: { unshared: number; shared: number };
}

const TEXTURE_ONLY = new Set(['sampled', 'attachment']);
const BUFFER_ONLY = new Set(['uniform', 'vertex', 'index', 'indirect']);

/**
 * Orders passes: as added, with each point's passes sorted among themselves by `after`. Returns
 * the order and each point's passes in it.
 */
function orderPasses(passes: readonly PassDecl[]): { order: PassDecl[]; byPoint: Map<string, PassDecl[]> } {
  const byPoint = new Map<string, PassDecl[]>();
  for (const pass of passes) {
    if (pass.point === undefined) continue;
    const group = byPoint.get(pass.point);
    if (group) group.push(pass);
    else byPoint.set(pass.point, [pass]);
  }
  for (const pass of passes) {
    for (const name of pass.after ?? []) {
      if (pass.point === undefined) throw new FrameGraphError(`pass "${pass.name}" lists after: ["${name}"] but was added at no point; after orders passes of one point.`);
      if (!byPoint.get(pass.point)!.some((other) => other.name === name)) throw new FrameGraphError(`pass "${pass.name}" runs after "${name}", which is not a pass of point "${pass.point}"; after orders passes of one point.`);
    }
  }
  const sorted = new Map<string, PassDecl[]>();
  for (const [point, group] of byPoint) {
    const done: PassDecl[] = [];
    const placed = new Set<string>();
    while (done.length < group.length) {
      const next = group.find((pass) => !placed.has(pass.name) && (pass.after ?? []).every((name) => placed.has(name)));
      if (!next) throw new FrameGraphError(`the passes of point "${point}" order each other in a circle: ${group.filter((pass) => !placed.has(pass.name)).map((pass) => `"${pass.name}" after ${JSON.stringify(pass.after ?? [])}`).join(', ')}.`);
      placed.add(next.name);
      done.push(next);
    }
    sorted.set(point, done);
  }
  const taken = new Map<string, number>();
  const order = passes.map((pass) => {
    if (pass.point === undefined) return pass;
    const k = taken.get(pass.point) ?? 0;
    taken.set(pass.point, k + 1);
    return sorted.get(pass.point)![k]!;
  });
  return { order, byPoint: sorted };
}

/** Refuses two passes of one point (`byPoint`, in order) that write the same resource unless `after` orders them. */
function checkPointWriters(byPoint: ReadonlyMap<string, readonly PassDecl[]>): void {
  for (const [point, group] of byPoint) {
    const before = new Map<string, Set<string>>();
    const reach = (name: string): Set<string> => {
      let set = before.get(name);
      if (set) return set;
      set = new Set();
      before.set(name, set);
      for (const earlier of group.find((pass) => pass.name === name)?.after ?? []) {
        set.add(earlier);
        for (const further of reach(earlier)) set.add(further);
      }
      return set;
    };
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!, b = group[j]!;
        const shared = (a.writes ?? []).map((w) => w.resource).filter((name) => (b.writes ?? []).some((w) => w.resource === name) || Object.hasOwn(b.creates ?? {}, name));
        if (shared.length > 0 && !reach(b.name).has(a.name) && !reach(a.name).has(b.name)) {
          throw new FrameGraphError(`passes "${a.name}" and "${b.name}" of point "${point}" both write "${shared[0]}" and nothing orders them; add after: ["${a.name}"] to "${b.name}" (or the other way round).`);
        }
      }
    }
  }
}

function checkUse(pass: PassDecl, access: ResourceAccess, info: ResourceInfo, imports: ReadonlyMap<string, ImportDecl>): void {
  const { desc } = info;
  if (desc.kind === 'buffer' ? TEXTURE_ONLY.has(access.use) : BUFFER_ONLY.has(access.use)) {
    throw new FrameGraphError(`pass "${pass.name}" uses "${access.resource}" as ${access.use}, which a ${desc.kind} cannot be.`);
  }
  if (access.format !== undefined && (desc.kind !== 'texture' || desc.format !== access.format)) {
    const what = desc.kind === 'texture' ? desc.format : 'a buffer';
    const from = info.imported ? 'imported' : info.creator === undefined ? 'declared by the graph' : `created by "${info.creator}"`;
    throw new FrameGraphError(`pass "${pass.name}" uses "${access.resource}" as ${access.format}, but it is ${what} (${from}).`);
  }
  const imported = imports.get(access.resource);
  if (imported && !imported.uses.has(access.use)) {
    throw new FrameGraphError(`pass "${pass.name}" uses imported "${access.resource}" as ${access.use}, which its usage does not allow (it allows ${[...imported.uses].join(', ') || 'nothing'}).`);
  }
}

/**
 * Compiles `passes` (in the order added) over `imports`. `outputs`: transient resources the
 * caller reads after the frame (with the extra uses it reads them by): what writes them runs,
 * and they live to the end of the frame. `declared`: transient resources the graph itself
 * declares (no pass creates them; the first pass that writes one starts it). Throws a
 * FrameGraphError naming what is wrong.
 */
export function compileGraph(passes: readonly PassDecl[], imports: ReadonlyMap<string, ImportDecl>, outputs: ReadonlyMap<string, readonly string[]> = new Map(), declared: ReadonlyMap<string, ResourceDesc> = new Map()): CompiledGraph {
  const names = new Set<string>();
  for (const pass of passes) {
    if (names.has(pass.name)) throw new FrameGraphError(`two passes are named "${pass.name}"; pass names must be unique.`);
    names.add(pass.name);
  }
  const { order, byPoint } = orderPasses(passes);
  checkPointWriters(byPoint);

  // Walk the passes in order: who last wrote each resource, and whom each pass needs.
  const resources = new Map<string, ResourceInfo>();
  for (const [name, imported] of imports) resources.set(name, { name, desc: imported.desc, imported: true, creator: undefined, uses: new Set(), first: -1, last: -1, object: -1 });
  const written = new Set<string>();
  for (const [name, desc] of declared) {
    if (resources.has(name)) throw new FrameGraphError(`"${name}" is both imported and declared.`);
    const problem = descriptionProblem(desc);
    if (problem) throw new FrameGraphError(`"${name}": ${problem}.`);
    resources.set(name, { name, desc, imported: false, creator: undefined, uses: new Set(), first: -1, last: -1, object: -1 });
  }
  const lastWriter = new Map<string, number>();
  const needs: Set<number>[] = order.map(() => new Set());
  const writesLater = (from: number, name: string): string | undefined => order.slice(from + 1).find((pass) => (pass.writes ?? []).some((w) => w.resource === name) || Object.hasOwn(pass.creates ?? {}, name))?.name;
  order.forEach((pass, i) => {
    for (const [name, desc] of Object.entries(pass.creates ?? {})) {
      const existing = resources.get(name);
      if (existing) throw new FrameGraphError(`pass "${pass.name}" creates "${name}", which ${existing.imported ? 'was imported' : existing.creator === undefined ? 'the graph declares' : `"${existing.creator}" already creates`}; write it instead.`);
      const problem = descriptionProblem(desc);
      if (problem) throw new FrameGraphError(`pass "${pass.name}" creates "${name}": ${problem}.`);
      resources.set(name, { name, desc, imported: false, creator: pass.name, uses: new Set(), first: -1, last: -1, object: -1 });
      lastWriter.set(name, i);
      written.add(name);
    }
    for (const access of pass.reads ?? []) {
      const info = resources.get(access.resource);
      if (!info || (!info.imported && !written.has(access.resource))) {
        const later = writesLater(i, access.resource);
        throw new FrameGraphError(`pass "${pass.name}" reads "${access.resource}", which no pass before it writes${later ? ` ("${later}" writes it later)` : ' and which was not imported'}.`);
      }
      checkUse(pass, access, info, imports);
      const writer = lastWriter.get(access.resource);
      if (writer !== undefined) needs[i]!.add(writer);
    }
    for (const access of pass.writes ?? []) {
      const info = resources.get(access.resource);
      if (!info) throw new FrameGraphError(`pass "${pass.name}" writes "${access.resource}", which no pass before it creates and which was not imported; create it with creates.`);
      if (info.imported && imports.get(access.resource)!.readOnly) throw new FrameGraphError(`pass "${pass.name}" writes "${access.resource}", which was imported read-only.`);
      checkUse(pass, access, info, imports);
      const writer = lastWriter.get(access.resource);
      if (writer !== undefined && writer !== i && access.discard !== true) needs[i]!.add(writer);
      lastWriter.set(access.resource, i);
      written.add(access.resource);
    }
  });

  // Culling: keep what the roots need, transitively.
  const live = new Set<number>();
  const visit = (i: number): void => {
    if (live.has(i)) return;
    live.add(i);
    for (const j of needs[i]!) visit(j);
  };
  for (const name of outputs.keys()) {
    const info = resources.get(name);
    if (!info || info.imported) throw new FrameGraphError(`output "${name}" is ${info ? 'imported (imported resources outlive the frame anyway)' : 'created by no pass'}.`);
    const writer = lastWriter.get(name);
    if (writer === undefined) throw new FrameGraphError(`output "${name}" is written by no pass.`);
    visit(writer);
  }
  order.forEach((pass, i) => {
    if (pass.sideEffects === true || (pass.writes ?? []).some((w) => resources.get(w.resource)!.imported)) visit(i);
  });
  const running = order.filter((_, i) => live.has(i));
  const culled = order.filter((_, i) => !live.has(i)).map((pass) => ({ pass, reason: 'nothing that runs needs what it writes' }));

  // Lifetimes and uses over the passes that run.
  running.forEach((pass, position) => {
    const touch = (name: string, use: string | undefined): void => {
      const info = resources.get(name)!;
      if (use !== undefined) info.uses.add(use);
      if (info.first < 0) info.first = position;
      info.last = position;
    };
    for (const name of Object.keys(pass.creates ?? {})) touch(name, undefined);
    for (const access of [...(pass.reads ?? []), ...(pass.writes ?? [])]) touch(access.resource, access.use);
  });
  for (const [name, uses] of outputs) {
    const info = resources.get(name)!;
    for (const use of uses) info.uses.add(use);
    info.last = running.length;
  }

  // Sharing: in order of first use, each transient resource takes the first object of its
  // description whose last resource's lifetime ended before it starts; an object's usage is the
  // union of its resources' uses.
  const objects: GraphObject[] = [];
  const objectLast: number[] = [];
  let unshared = 0;
  const transients = [...resources.values()].filter((info) => !info.imported && info.first >= 0).sort((a, b) => a.first - b.first);
  for (const info of transients) {
    const key = descriptorKey(info.desc);
    unshared += resourceBytes(info.desc);
    let object = objects.findIndex((candidate, k) => candidate.key === key && objectLast[k]! < info.first);
    if (object < 0) {
      object = objects.length;
      objects.push({ key, desc: info.desc, uses: new Set(), resources: [], bytes: resourceBytes(info.desc) });
      objectLast.push(-1);
    }
    objects[object]!.resources.push(info.name);
    for (const use of info.uses) objects[object]!.uses.add(use);
    objectLast[object] = info.last;
    info.object = object;
  }
  const shared = objects.reduce((sum, object) => sum + object.bytes, 0);
  return { order: running, culled, resources, objects, transientBytes: { unshared, shared } };
}

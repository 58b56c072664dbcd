// Random task graphs (parents, one dependency each, empty join tasks, mixed priorities):
// every work item runs once, and no task starts before its dependency has completed, where a
// task completes when its work and all its children have (BitSquid's open work counter).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { JobSystem} from '../src/index.ts';
import { type Priority, type TaskId } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';

let jobs: JobSystem;
let k: Kernels;

beforeAll(async () => {
  ({ jobs, k } = await startJobs({ workerCount: 3 }));
});

afterAll(async () => {
  await jobs.shutdown();
});

interface Spec {
  empty: boolean;
  parent: number;
  dependency: number;
  priority: Priority;
}

const specs = fc.array(
  fc.record({
    empty: fc.integer({ min: 0, max: 3 }).map((v) => v === 0),
    parent: fc.nat(),
    dependency: fc.nat(),
    priority: fc.constantFrom<Priority>('high', 'low', 'streaming'),
    hasParent: fc.boolean(),
    hasDependency: fc.boolean(),
  }),
  { minLength: 1, maxLength: 40 },
);

/** Parents and dependencies point to earlier tasks; a dependency that would close a wait cycle is dropped. */
function normalise(
  raw: { empty: boolean; parent: number; dependency: number; priority: Priority; hasParent: boolean; hasDependency: boolean }[],
): Spec[] {
  const out: Spec[] = raw.map((r, i) => ({
    empty: r.empty,
    parent: r.hasParent && i > 0 ? r.parent % i : -1,
    dependency: -1,
    priority: r.priority,
  }));
  const children = out.map(() => [] as number[]);
  out.forEach((spec, i) => {
    if (spec.parent >= 0) children[spec.parent]!.push(i);
  });
  // Completion of x waits for x's dependency and x's children: keep that graph acyclic.
  const reaches = (from: number, target: number, seen = new Set<number>()): boolean => {
    if (from === target) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    const next = [...children[from]!, ...(out[from]!.dependency >= 0 ? [out[from]!.dependency] : [])];
    return next.some((n) => reaches(n, target, seen));
  };
  raw.forEach((r, i) => {
    if (!r.hasDependency || i === 0) return;
    const dependency = r.dependency % i;
    if (!reaches(dependency, i)) out[i]!.dependency = dependency;
  });
  return out;
}

test('random task graphs respect dependencies and the open work counter', () => {
  fc.assert(
    fc.property(specs, (raw) => {
      const graph = normalise(raw);
      const n = graph.length;
      const starts = new Int32Array(new SharedArrayBuffer(n * 4));
      const ends = new Int32Array(new SharedArrayBuffer(n * 4));
      const counter = new Int32Array(new SharedArrayBuffer(4));
      const ids: TaskId[] = [];
      graph.forEach((spec, i) => {
        const options = { priority: spec.priority, ...(spec.parent >= 0 ? { parent: ids[spec.parent]! } : {}) };
        ids.push(spec.empty ? jobs.tasks.addEmpty(options) : jobs.tasks.addWith(options, k.stampTask, starts, ends, counter, i));
      });
      graph.forEach((spec, i) => {
        if (spec.dependency >= 0) jobs.tasks.dependsOn(ids[i]!, ids[spec.dependency]!);
      });
      jobs.tasks.submit();
      jobs.wait();

      const children = graph.map(() => [] as number[]);
      graph.forEach((spec, i) => {
        if (spec.parent >= 0) children[spec.parent]!.push(i);
      });
      // When x completed, on the shared clock: after its own end and its children's completions.
      const done = new Map<number, number>();
      const completion = (x: number): number => {
        const known = done.get(x);
        if (known !== undefined) return known;
        let at = graph[x]!.empty ? 0 : ends[x]!;
        for (const child of children[x]!) at = Math.max(at, completion(child));
        done.set(x, at);
        return at;
      };
      return graph.every((spec, i) => {
        if (!jobs.tasks.isDone(ids[i]!)) return false;
        if (spec.empty) return true;
        if (starts[i]! <= 0 || ends[i]! <= starts[i]!) return false;
        return spec.dependency < 0 || starts[i]! > completion(spec.dependency);
      });
    }),
    { numRuns: 40 },
  );
  expect(jobs.isBusy()).toBe(false);
});

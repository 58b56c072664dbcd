// Before anything is timed on a GPU, its results are checked against the TypeScript references:
// a benchmark of a kernel that is wrong on that device would be worse than none.
import { exclusiveScanReference, type GpuRadixSort, type GpuScan, radixSortReference } from '../src/index.ts';

function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function expectSame(what: string, got: Uint32Array, expected: Uint32Array): void {
  const at = firstDifference(got, expected);
  if (at >= 0) throw new Error(`${what} differs from the TypeScript reference at index ${at}: ${got[at]} vs ${expected[at]}. Not timing a wrong kernel.`);
}

/** Sorts `keys` (values: their indices) with each sorter and compares with the reference. */
export async function verifySorts(sorters: readonly GpuRadixSort[], keys: Uint32Array<ArrayBuffer>): Promise<void> {
  const values = Uint32Array.from({ length: keys.length }, (_, i) => i);
  const expected = radixSortReference(keys, values);
  for (const sorter of sorters) {
    const got = await sorter.sort(keys.slice(), values.slice());
    const name = `GpuRadixSort (${sorter.plan.kind}, ${keys.length} pairs)`;
    expectSame(`${name} keys`, got.keys, expected.keys);
    expectSame(`${name} values`, got.values, expected.values);
  }
}

/** The same check for anything with a `sort(keys, values)` round trip (a benchmark-only variant). */
export async function verifySortsOf(name: string, sorter: { sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<{ keys: Uint32Array; values: Uint32Array }> }, keys: Uint32Array<ArrayBuffer>): Promise<void> {
  const values = Uint32Array.from({ length: keys.length }, (_, i) => i);
  const expected = radixSortReference(keys, values);
  const got = await sorter.sort(keys.slice(), values.slice());
  expectSame(`${name} keys (${keys.length} pairs)`, got.keys, expected.keys);
  expectSame(`${name} values (${keys.length} pairs)`, got.values, expected.values);
}

/** Sorts `keys` with a keysOnly sorter and compares with the reference's keys. */
export async function verifyKeySort(sorter: GpuRadixSort, keys: Uint32Array<ArrayBuffer>): Promise<void> {
  const expected = radixSortReference(keys, new Uint32Array(keys.length)).keys;
  expectSame(`GpuRadixSort (${sorter.plan.kind}, keys only, ${keys.length} keys)`, await sorter.sortKeys(keys.slice()), expected);
}

/** Scans `input` (holding `host`) into `output` with each scan and compares with the reference. */
export async function verifyScans(scans: readonly GpuScan[], input: GPUBuffer, output: GPUBuffer, host: Uint32Array): Promise<void> {
  const expected = exclusiveScanReference(host);
  for (const scan of scans) {
    const { prefix } = await scan.scan(input, output, host.length);
    expectSame(`GpuScan (${scan.variant}, ${host.length} words)`, prefix, expected);
  }
}

/** Scans the first `host.length` words of `input` with a benchmark-only scan build and compares with the reference. */
export async function verifyScanBuild(name: string, build: { scan(input: GPUBuffer, output: GPUBuffer, count: number): Promise<Uint32Array> }, input: GPUBuffer, output: GPUBuffer, host: Uint32Array): Promise<void> {
  expectSame(`${name} (${host.length} words)`, await build.scan(input, output, host.length), exclusiveScanReference(host));
}

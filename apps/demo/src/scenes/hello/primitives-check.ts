import { GpuRadixSort, GpuReduce, GpuScan, exclusiveScanReference, radixSortReference } from '@cuttle/gpu-primitives';

/** xorshift32 words, so the checks are the same on every run. */
function words(count: number, seed: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(count);
  let x = seed;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x >>> 0;
  }
  return out;
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** Sums 1..n on the GPU with @cuttle/gpu-primitives and reports whether it matches n(n+1)/2. */
export async function reduceCheck(device: GPUDevice): Promise<string> {
  const n = 100_000;
  const values = Uint32Array.from({ length: n }, (_, i) => i + 1);
  const input = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(input, 0, values);
  const reduce = new GpuReduce(device, { op: 'sum', type: 'u32' });
  try {
    const sum = await reduce.reduce(input, n);
    const expected = ((n * (n + 1)) / 2) % 2 ** 32;
    return sum === expected ? `ok (sum of 1..${n} mod 2³² = ${sum})` : `MISMATCH: ${sum}, expected ${expected}`;
  } finally {
    reduce.destroy();
    input.destroy();
  }
}

/** A scan of 100,003 words against the TypeScript reference; names the kernel variant that ran. */
export async function scanCheck(device: GPUDevice): Promise<string> {
  const values = words(100_003, 7);
  const input = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const output = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(input, 0, values);
  const scan = new GpuScan(device, { maxCount: values.length });
  try {
    const { prefix } = await scan.scan(input, output, values.length);
    return `${sameWords(prefix, exclusiveScanReference(values)) ? 'ok' : 'MISMATCH'} (${scan.variant} kernel)`;
  } finally {
    scan.destroy();
    input.destroy();
    output.destroy();
  }
}

/** A radix sort of 100,003 pairs against the TypeScript reference; names the kernel that ran. */
export async function sortCheck(device: GPUDevice): Promise<string> {
  const keys = words(100_003, 11);
  const values = Uint32Array.from({ length: keys.length }, (_, i) => i);
  const sort = new GpuRadixSort(device, { maxCount: keys.length });
  try {
    const got = await sort.sort(keys, values);
    const expected = radixSortReference(keys, values);
    const ok = sameWords(got.keys, expected.keys) && sameWords(got.values, expected.values);
    return `${ok ? 'ok' : 'MISMATCH'} (${sort.plan.kind} kernel, ${sort.plan.bits}-bit digits)`;
  } finally {
    sort.destroy();
  }
}

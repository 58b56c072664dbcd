// The key sets the sort benchmark feeds: fresh random keys (a user sorting new depths every
// frame), and the shapes users also have: already sorted, reverse sorted, few distinct keys.
// Each lives in a pristine GPU buffer that is copied into the sort's buffers before every timed
// sort, so no sort ever sees the previous sort's output.

export const SORT_INPUTS = ['random', 'sorted', 'reversed', 'few distinct (16)'] as const;
export type SortInput = (typeof SORT_INPUTS)[number];

/** `count` xorshift32 keys over all 32 bits. */
export function randomKeys(count: number, seed = 2463534242): Uint32Array<ArrayBuffer> {
  const keys = new Uint32Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    keys[i] = x >>> 0;
  }
  return keys;
}

/** The keys of `input` at `count`, built from the same random stream. */
export function keysFor(input: SortInput, count: number): Uint32Array<ArrayBuffer> {
  const keys = randomKeys(count);
  switch (input) {
    case 'random':
      return keys;
    case 'sorted':
      return keys.sort();
    case 'reversed':
      return keys.sort().reverse();
    case 'few distinct (16)':
      return keys.map((key) => key >>> 28);
  }
}

/** A key buffer and an index-value buffer that nothing writes after creation. */
export interface PristinePairs {
  keys: GPUBuffer;
  values: GPUBuffer;
  count: number;
  destroy(): void;
}

export function uploadPristine(device: GPUDevice, keys: Uint32Array<ArrayBuffer>): PristinePairs {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const keyBuffer = device.createBuffer({ size: keys.byteLength, usage });
  const valueBuffer = device.createBuffer({ size: keys.byteLength, usage });
  device.queue.writeBuffer(keyBuffer, 0, keys);
  device.queue.writeBuffer(valueBuffer, 0, Uint32Array.from({ length: keys.length }, (_, i) => i));
  return {
    keys: keyBuffer,
    values: valueBuffer,
    count: keys.length,
    destroy() {
      keyBuffer.destroy();
      valueBuffer.destroy();
    },
  };
}

/** Copies the first `count` pairs of `from` into the sort's buffers (outside any timed pass). */
export function refill(encoder: GPUCommandEncoder, from: PristinePairs, keys: GPUBuffer, values: GPUBuffer, count: number): void {
  encoder.copyBufferToBuffer(from.keys, 0, keys, 0, count * 4);
  encoder.copyBufferToBuffer(from.values, 0, values, 0, count * 4);
}

import { GpuPrimitivesError } from './errors.ts';

const WORD = 4;

/** The pairs a sort's convenience method returns. */
export interface SortedPairs {
  /** The sorted keys. */
  keys: Uint32Array;
  /** The values, moved with their keys. */
  values: Uint32Array;
}

/**
 * Uploads `keys` and `values`, lets `record` sort them in one encoder, and reads them back:
 * the body of the sorts' convenience `sort()` methods. One submit, one map.
 */
export async function sortRoundTrip(
  device: GPUDevice,
  label: string,
  keys: Uint32Array<ArrayBuffer>,
  values: Uint32Array<ArrayBuffer>,
  record: (encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number) => void,
): Promise<SortedPairs> {
  if (keys.length !== values.length) throw new GpuPrimitivesError(`keys (${keys.length}) and values (${values.length}) must have the same length.`);
  const count = keys.length;
  const bytes = Math.max(WORD, count * WORD);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const keyBuffer = device.createBuffer({ size: bytes, usage });
  const valueBuffer = device.createBuffer({ size: bytes, usage });
  const staging = device.createBuffer({ size: 2 * bytes, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  try {
    device.queue.writeBuffer(keyBuffer, 0, keys);
    device.queue.writeBuffer(valueBuffer, 0, values);
    const encoder = device.createCommandEncoder({ label });
    record(encoder, keyBuffer, valueBuffer, count);
    encoder.copyBufferToBuffer(keyBuffer, 0, staging, 0, bytes);
    encoder.copyBufferToBuffer(valueBuffer, 0, staging, bytes, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    return { keys: words.slice(0, count), values: words.slice(bytes / WORD, bytes / WORD + count) };
  } finally {
    keyBuffer.destroy();
    valueBuffer.destroy();
    staging.destroy();
  }
}

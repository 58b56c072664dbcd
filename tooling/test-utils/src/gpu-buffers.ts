// Small helpers GPU tests need again and again: upload a typed array, read a buffer back.

/** Creates a buffer holding `data` (size rounded up to 4 bytes), with the given usage. */
export function createBufferWithData(device: GPUDevice, data: ArrayBufferView, usage: GPUBufferUsageFlags): GPUBuffer {
  const size = Math.max(4, Math.ceil(data.byteLength / 4) * 4);
  const buffer = device.createBuffer({ size, usage, mappedAtCreation: true });
  new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  buffer.unmap();
  return buffer;
}

/** Copies `size` bytes of `source` (which needs COPY_SRC) into a fresh ArrayBuffer. */
export async function readBuffer(device: GPUDevice, source: GPUBuffer, offset = 0, size = source.size - offset): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  try {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(source, offset, staging, 0, size);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return staging.getMappedRange().slice(0);
  } finally {
    staging.destroy();
  }
}

/**
 * Copies a whole texture into a fresh array, rows packed tightly (`bytesPerPixel` per texel;
 * WebGPU pads rows to 256 bytes on the way). `aspect` picks depth-only for depth formats;
 * `mipLevel` another level than the first.
 */
export async function readTexture(device: GPUDevice, texture: GPUTexture, bytesPerPixel: number, aspect: GPUTextureAspect = 'all', mipLevel = 0): Promise<Uint8Array> {
  const width = Math.max(1, texture.width >> mipLevel);
  const height = Math.max(1, texture.height >> mipLevel);
  const rowBytes = width * bytesPerPixel;
  const bytesPerRow = Math.ceil(rowBytes / 256) * 256;
  const staging = device.createBuffer({ size: bytesPerRow * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  try {
    const encoder = device.createCommandEncoder();
    encoder.copyTextureToBuffer({ texture, aspect, mipLevel }, { buffer: staging, bytesPerRow }, [width, height]);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const rows = new Uint8Array(staging.getMappedRange());
    const out = new Uint8Array(rowBytes * height);
    for (let y = 0; y < height; y++) out.set(rows.subarray(y * bytesPerRow, y * bytesPerRow + rowBytes), y * rowBytes);
    return out;
  } finally {
    staging.destroy();
  }
}

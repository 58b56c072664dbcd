// zlib streams through the platform's CompressionStream / DecompressionStream ("deflate" is
// zlib-wrapped), which Node 18+ and every current browser have: no dependency, no native code.
// In Node, inflating uses zlib's synchronous call instead, which runs on the calling thread: the
// streams queue on libuv's one pool of four threads per process, so sixteen worker threads
// decoding PNGs (the engine's parallel compile) would wait on four.
import { GuiError } from './errors.ts';

interface NodeZlib {
  inflateSync(data: Uint8Array): Uint8Array;
  /** Node 20.15 and later. */
  crc32?(data: Uint8Array): number;
}

const nodeZlib = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;

/** zlib's own CRC-32 where the platform has it (Node), else undefined: a PNG's CRCs are checked over every byte, which native code does several times faster. */
export const nativeCrc32: ((data: Uint8Array) => number) | undefined = nodeZlib?.crc32?.bind(nodeZlib);

async function pipe(data: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const input = data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
  // A corrupt stream fails the reader below; the writer's copy of that failure is not news.
  const written = writer.write(input).then(() => writer.close()).catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
  }
  await written;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export function zlibCompress(data: Uint8Array): Promise<Uint8Array> {
  return pipe(data, new CompressionStream('deflate'));
}

export async function zlibDecompress(data: Uint8Array, what: string): Promise<Uint8Array> {
  try {
    if (nodeZlib) {
      const inflated = nodeZlib.inflateSync(data);
      return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
    }
    return await pipe(data, new DecompressionStream('deflate'));
  } catch (error) {
    throw new GuiError(`${what}: the compressed data is corrupt (${error instanceof Error ? error.message : String(error)}).`);
  }
}

// Reads and checks a KTX2 file's header and level index before the transcoder (C++ in
// WebAssembly) sees it: a file cut short or with a level index that points outside it is
// refused here with the reason, instead of failing inside the transcoder.
import { mipLevelCount } from './mip-chain.ts';

/** KTX 2.0's 12-byte identifier: «KTX 20» and CR LF, SUB, LF. */
const IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
const HEADER_BYTES = 80;
const LEVEL_ENTRY_BYTES = 24;

export class Ktx2Error extends Error {
  override name = 'Ktx2Error';
}

export interface Ktx2Header {
  vkFormat: number;
  width: number;
  height: number;
  levelCount: number;
  /** 0 none, 1 BasisLZ (ETC1S), 2 Zstandard, 3 ZLIB. */
  supercompression: number;
  /** Where each level's data lies in the file (largest level first). */
  levels: { byteOffset: number; byteLength: number }[];
}

/** The header and level index of `bytes`; throws Ktx2Error naming what is wrong. */
export function readKtx2Header(bytes: Uint8Array): Ktx2Header {
  if (bytes.length < HEADER_BYTES || IDENTIFIER.some((b, i) => bytes[i] !== b)) throw new Ktx2Error('is not a KTX2 file (no KTX 2.0 identifier)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => view.getUint32(at, true);
  // 64-bit fields: anything past 2^53 is past any file this reads.
  const u64 = (at: number): number => u32(at + 4) * 2 ** 32 + u32(at);
  const header = { vkFormat: u32(12), width: u32(20), height: u32(24), depth: u32(28), layers: u32(32), faces: u32(36), levelCount: u32(40), supercompression: u32(44) };
  if (header.width < 1 || header.height < 1 || header.depth > 0 || header.layers > 0 || header.faces !== 1) throw new Ktx2Error(`is a ${header.width}x${header.height}x${header.depth} texture with ${header.layers} layers and ${header.faces} faces; only 2D textures of one layer load here`);
  const fullChain = mipLevelCount(header.width, header.height);
  const levelCount = Math.max(1, header.levelCount);
  if (levelCount > fullChain) throw new Ktx2Error(`says it has ${header.levelCount} mip levels; a ${header.width}x${header.height} texture has at most ${fullChain}`);
  if (header.supercompression > 3) throw new Ktx2Error(`uses supercompression scheme ${header.supercompression}, which KTX2 does not define`);
  const indexEnd = HEADER_BYTES + levelCount * LEVEL_ENTRY_BYTES;
  if (bytes.length < indexEnd) throw new Ktx2Error(`ends at byte ${bytes.length}, inside its level index (which ends at ${indexEnd}): the file is truncated`);
  const levels: Ktx2Header['levels'] = [];
  for (let level = 0; level < levelCount; level++) {
    const at = HEADER_BYTES + level * LEVEL_ENTRY_BYTES;
    const byteOffset = u64(at);
    const byteLength = u64(at + 8);
    if (byteLength === 0) throw new Ktx2Error(`level ${level} has no data in the level index`);
    if (byteOffset < indexEnd || byteOffset + byteLength > bytes.length) throw new Ktx2Error(`level ${level}'s data (bytes ${byteOffset} to ${byteOffset + byteLength}) lies outside the file's ${bytes.length} bytes: the level index is wrong or the file is truncated`);
    levels.push({ byteOffset, byteLength });
  }
  return { vkFormat: header.vkFormat, width: header.width, height: header.height, levelCount, supercompression: header.supercompression, levels };
}

import { createHash } from 'node:crypto';

/** Content hash of a file or output (SHA-1, hex): what the manifest and the build state record. */
export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha1').update(bytes).digest('hex');
}

// A dropped file's bytes to a glTF document: binary glTF (.glb) by its magic number, or glTF
// JSON whose buffers and images are embedded as data: URIs (a dropped file brings nothing along).
import { WebIO, type Document, type GLTF } from '@gltf-transform/core';
import { CharacterLoadError } from './errors.ts';

const GLB_MAGIC = 0x46546c67; // 'glTF'
const HOW = 'Drop a binary glTF (.glb), or a .gltf whose buffers are embedded as data: URIs.';

interface GltfResource {
  uri?: unknown;
}

function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 && new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(0, true) === GLB_MAGIC;
}

function parseJson(bytes: Uint8Array, fileName: string): GLTF.IGLTF & Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new CharacterLoadError(`${fileName} is neither binary glTF nor glTF JSON. ${HOW}`);
  }
  if (typeof json !== 'object' || json === null || !('asset' in json)) throw new CharacterLoadError(`${fileName} is JSON but not glTF (no "asset"). ${HOW}`);
  // Checked this far only; the reader checks the rest.
  return json as GLTF.IGLTF & Record<string, unknown>;
}

function externalUri(json: Record<string, unknown>): string | undefined {
  for (const key of ['buffers', 'images']) {
    const list = json[key];
    if (!Array.isArray(list)) continue;
    for (const resource of list as GltfResource[]) {
      if (typeof resource.uri === 'string' && !resource.uri.startsWith('data:')) return resource.uri;
    }
  }
  return undefined;
}

/** Reads `bytes` (the file `fileName`) as glTF; throws CharacterLoadError saying what to drop instead. */
export async function readGltf(bytes: Uint8Array, fileName: string): Promise<Document> {
  const io = new WebIO();
  if (isGlb(bytes)) {
    try {
      return await io.readBinary(bytes);
    } catch (error) {
      throw new CharacterLoadError(`${fileName} could not be read as binary glTF (${error instanceof Error ? error.message : String(error)}). ${HOW}`);
    }
  }
  const json = parseJson(bytes, fileName);
  const external = externalUri(json);
  if (external !== undefined) throw new CharacterLoadError(`${fileName} refers to the external file "${external}", which a dropped .gltf cannot bring along. ${HOW}`);
  try {
    return await io.readJSON({ json, resources: {} });
  } catch (error) {
    throw new CharacterLoadError(`${fileName} could not be read as glTF (${error instanceof Error ? error.message : String(error)}). ${HOW}`);
  }
}

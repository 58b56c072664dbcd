// The runtime resource container: one file per compiled resource, read with one call and no
// parsing of bulk data. Layout (little-endian):
//   0  "CUTR"  magic
//   4  u32     format version
//   8  u32     byte length of the JSON header
//   12 ...     JSON header (UTF-8): { type, meta, sections: [{ name, offset, length, kind }] }
//   sections, each 8-byte aligned, viewed in place as typed arrays on load.
import { EngineError } from '../errors.ts';

export const CONTAINER_MAGIC = 0x52545543; // "CUTR"
export const CONTAINER_VERSION = 1;

export type SectionKind = 'u8' | 'u16' | 'u32' | 'i32' | 'f32';
export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array;

interface SectionEntry {
  name: string;
  offset: number;
  length: number;
  kind: SectionKind;
}

export interface ContainerInput<M> {
  type: string;
  meta: M;
  sections?: Record<string, SectionArray>;
}

export interface Container<M> {
  type: string;
  meta: M;
  sections: Map<string, SectionArray>;
}

function kindOf(array: SectionArray): SectionKind {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint32Array) return 'u32';
  if (array instanceof Int32Array) return 'i32';
  return 'f32';
}

const align8 = (n: number): number => (n + 7) & ~7;

export function writeContainer<M>(input: ContainerInput<M>): Uint8Array {
  const arrays = Object.entries(input.sections ?? {});
  // Offsets depend on the header length, which depends on the offsets' digits: settle it in two passes.
  let headerBytes = 0;
  let entries: SectionEntry[] = [];
  let header = new Uint8Array(0);
  for (let pass = 0; pass < 3; pass++) {
    let at = align8(12 + headerBytes);
    entries = arrays.map(([name, array]) => {
      const entry = { name, offset: at, length: array.length, kind: kindOf(array) };
      at = align8(at + array.byteLength);
      return entry;
    });
    header = new TextEncoder().encode(JSON.stringify({ type: input.type, meta: input.meta, sections: entries }));
    if (header.length === headerBytes) break;
    headerBytes = header.length;
  }
  const last = entries.at(-1);
  const total = last ? last.offset + arrays.at(-1)![1].byteLength : 12 + header.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, CONTAINER_MAGIC, true);
  view.setUint32(4, CONTAINER_VERSION, true);
  view.setUint32(8, header.length, true);
  out.set(header, 12);
  arrays.forEach(([, array], k) => { out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), entries[k]!.offset); });
  return out;
}

const CONSTRUCTORS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f32: Float32Array } as const;

export function readContainer<M>(bytes: Uint8Array, expectedType: string, file = 'resource'): Container<M> {
  if (bytes.byteLength < 12) throw new EngineError(`${file}: too short for a compiled resource; recompile it.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== CONTAINER_MAGIC) throw new EngineError(`${file}: not a compiled Cuttle resource (bad magic); recompile it.`);
  const version = view.getUint32(4, true);
  if (version !== CONTAINER_VERSION) throw new EngineError(`${file}: container version ${version}, this engine reads ${CONTAINER_VERSION}; recompile the data.`);
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > bytes.byteLength) throw new EngineError(`${file}: header runs past the end; the file is truncated, recompile it.`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as { type: string; meta: M; sections: SectionEntry[] };
  if (header.type !== expectedType) throw new EngineError(`${file}: holds a ${header.type}, expected a ${expectedType}.`);
  // Sections must be aligned to view them in place; copy the file once when it is not.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const sections = new Map<string, SectionArray>();
  for (const s of header.sections) {
    const Make = CONSTRUCTORS[s.kind];
    const byteLength = s.length * Make.BYTES_PER_ELEMENT;
    if (s.offset + byteLength > aligned.byteLength) throw new EngineError(`${file}: section ${s.name} runs past the end; the file is truncated, recompile it.`);
    sections.set(s.name, new Make(aligned.buffer as ArrayBuffer, aligned.byteOffset + s.offset, s.length));
  }
  return { type: header.type, meta: header.meta, sections };
}

export function section<T extends SectionArray>(container: Container<unknown>, name: string, kind: new (...args: never[]) => T): T {
  const array = container.sections.get(name);
  if (!(array instanceof kind)) throw new EngineError(`compiled ${container.type} lacks section ${name}; recompile it.`);
  return array;
}

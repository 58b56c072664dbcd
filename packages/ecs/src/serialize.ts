import { FIELD_TYPES, INVALID_ENTITY, type Entity, type TypedArray } from './api.ts';
import { ArchiveReader, ArchiveWriter, checksumWords } from './archive.ts';
import type { ArchivedComponents, ComponentLibrary, LibraryEntry } from './component-library.ts';
import type { ComponentManager } from './component-manager.ts';
import { EntityLookup } from './entity-lookup.ts';
import { remapEntity } from './entity.ts';
import { ArchiveError, EcsError, SeedMapsToZeroError } from './errors.ts';
import { ObjectComponentManager } from './object-component-manager.ts';
import { allocateField, sameLayout, SchemaComponentManager, viewField, type FieldLayout } from './schema-component-manager.ts';

/** 'CTLE' read as a little-endian u32. */
const MAGIC = 0x454c5443;
/** Version of the archive container itself (component types carry their own). */
export const ARCHIVE_FORMAT_VERSION = 1;
const HEADER_BYTES = 16;
const KIND_SCHEMA = 0;
const KIND_OBJECT = 1;
const MAX_SEED_TRIES = 8;


/** Options of {@link saveLibrary}. */
export interface SaveOptions {
  /** Save only these component types (by registered name). Default: every saveable type. */
  types?: readonly string[];
  /**
   * Save only these entities' components. References to entities outside the set are written
   * as INVALID_ENTITY, so the archive is self-contained (one entity with its children).
   */
  entities?: ArrayLike<Entity>;
  /** Stored in the archive and returned, remapped, by the load (the root of a saved tree). */
  root?: Entity;
}

/** Options of {@link loadLibrary} and {@link Scene.loadEntityTree}. */
export interface LoadOptions {
  /**
   * Remap seed: 0 keeps ids as saved. Left out, a fresh seed is drawn from the library's
   * generator, and redrawn if the remapped ids would collide with entities already there.
   */
  seed?: number;
}

/** What {@link loadLibrary} (or {@link Scene.loadEntityTree}) added. */
export interface LoadResult {
  /** The seed the ids went through. */
  seed: number;
  /** Component rows added, over all types. */
  components: number;
  /** The saved `root`, remapped (INVALID_ENTITY when none was saved). */
  root: Entity;
  /** Archived types with no registered manager (or no serializer), skipped. */
  skipped: string[];
}

/**
 * Saves a component library (or chosen types, or chosen entities) into a compact binary
 * archive: per type its name, version and rows; schema types as raw typed-array columns.
 */
export function saveLibrary(library: ComponentLibrary, options: SaveOptions = {}): ArrayBuffer {
  const entries = pickEntries(library, options.types);
  let keep: EntityLookup | null = null;
  if (options.entities !== undefined) {
    keep = new EntityLookup(options.entities.length);
    for (let i = 0; i < options.entities.length; i++) {
      const entity = options.entities[i]!;
      if ((entity >>> 0) !== entity || entity === INVALID_ENTITY) throw new EcsError(`saveLibrary entities must be valid entities, got ${String(entity)}.`);
      keep.set(entity, i);
    }
  }
  const root = options.root ?? INVALID_ENTITY;
  if ((root >>> 0) !== root) throw new EcsError(`saveLibrary root must be an entity, got ${String(root)}.`);

  const writer = new ArchiveWriter(keep);
  writer.reserve(HEADER_BYTES + 8 + entries.reduce((sum, entry) => sum + sectionBytes(entry, keep), 0));
  writer.u32(MAGIC);
  writer.u16(ARCHIVE_FORMAT_VERSION);
  writer.u16(0);
  writer.u32(0); // body length, patched below
  writer.u32(0); // checksum, patched below
  writer.u32(entries.length);
  writer.u32(root);
  for (const entry of entries) writeSection(writer, entry, keep);
  const bodyBytes = writer.offset - HEADER_BYTES;
  writer.patchU32(8, bodyBytes);
  const bytes = writer.bytes;
  writer.patchU32(12, checksumWords(new Uint32Array(bytes.buffer, HEADER_BYTES, bodyBytes >>> 2)));
  return writer.finish();
}

const padded = (bytes: number): number => (bytes + 7) & ~7;

/** Exact size of a schema section (object sections: a small guess; the writer grows). */
function sectionBytes(entry: LibraryEntry, keep: EntityLookup | null): number {
  const manager = entry.manager;
  const count = keep === null ? manager.count : (selectRows(manager, keep)?.length ?? 0);
  let bytes = padded(16 + new TextEncoder().encode(entry.name).length) + padded(count * 4);
  if (!(manager instanceof SchemaComponentManager)) return bytes + count * 16;
  const layout = (manager as SchemaComponentManager).layout;
  bytes += padded(layout.reduce((sum, field) => sum + 4 + new TextEncoder().encode(field.name).length, 0));
  for (const field of layout) bytes += padded(count * field.length * field.bytesPerElement);
  return bytes;
}

function pickEntries(library: ComponentLibrary, types: readonly string[] | undefined): LibraryEntry[] {
  if (types === undefined) return library.entries.filter((entry) => entry.manager.kind === 'schema' || entry.serializer !== undefined);
  return types.map((name) => {
    const entry = library.entry(name);
    if (entry === undefined) throw new EcsError(`saveLibrary: no component type "${name}"; registered: ${library.names.join(', ')}.`);
    if (entry.manager.kind === 'object' && entry.serializer === undefined) throw new EcsError(`saveLibrary: "${name}" is an object type without a serializer; register it with one.`);
    return entry;
  });
}

/** Rows to save: all of them, or those whose entity is in `keep`. */
function selectRows(manager: ComponentManager, keep: EntityLookup | null): Int32Array | null {
  if (keep === null) return null;
  const entities = manager.entities;
  const rows = new Int32Array(manager.count);
  let n = 0;
  for (let i = 0; i < manager.count; i++) if (keep.get(entities[i]!) !== -1) rows[n++] = i;
  return rows.subarray(0, n);
}

function writeSection(writer: ArchiveWriter, entry: LibraryEntry, keep: EntityLookup | null): void {
  const manager = entry.manager;
  const rows = selectRows(manager, keep);
  const count = rows === null ? manager.count : rows.length;
  const start = writer.offset;
  const name = new TextEncoder().encode(entry.name);
  writer.u32(0); // section length, patched below
  writer.u32(entry.version);
  writer.u8(manager instanceof SchemaComponentManager ? KIND_SCHEMA : KIND_OBJECT);
  writer.u8(name.length);
  writer.u16(manager instanceof SchemaComponentManager ? manager.layout.length : 0);
  writer.u32(count);
  writer.array(name);
  writer.align();
  writeEntityColumn(writer, manager.entities, 1, count, rows, null);
  if (manager instanceof SchemaComponentManager) {
    const layout = manager.layout;
    for (const field of layout) {
      writer.u8(FIELD_TYPES.indexOf(field.type));
      const fieldName = new TextEncoder().encode(field.name);
      writer.u8(fieldName.length);
      writer.u16(field.length);
      writer.array(fieldName);
    }
    writer.align();
    for (const field of layout) {
      const column = manager.column(field.name);
      if (field.type === 'entity') writeEntityColumn(writer, column as Uint32Array, field.length, count, rows, keep);
      else if (rows === null) writer.array(column.subarray(0, count * field.length));
      else writer.array(gather(column, field.length, rows));
      writer.align();
    }
  } else if (manager instanceof ObjectComponentManager) {
    const serializer = entry.serializer!;
    for (let k = 0; k < count; k++) serializer.write(manager.at(rows === null ? k : rows[k]!), writer);
    writer.align();
  }
  writer.patchU32(start, writer.offset - start);
}

function gather(column: TypedArray, length: number, rows: Int32Array): TypedArray {
  const result = column.slice(0, rows.length * length);
  for (let k = 0; k < rows.length; k++) {
    const from = rows[k]! * length;
    for (let e = 0; e < length; e++) result[k * length + e] = column[from + e]!;
  }
  return result;
}

function writeEntityColumn(writer: ArchiveWriter, column: Uint32Array, length: number, count: number, rows: Int32Array | null, keep: EntityLookup | null): void {
  if (rows === null && keep === null) {
    writer.array(column.subarray(0, count * length));
  } else {
    const out = new Uint32Array(count * length);
    for (let k = 0; k < count; k++) {
      const from = (rows === null ? k : rows[k]!) * length;
      for (let e = 0; e < length; e++) {
        const entity = column[from + e]!;
        out[k * length + e] = keep !== null && keep.get(entity) === -1 ? INVALID_ENTITY : entity;
      }
    }
    writer.array(out);
  }
  writer.align();
}

/** One parsed, validated section: its entities and how to add it once nothing can fail. */
interface StagedSection {
  entry: LibraryEntry;
  entities: Uint32Array;
  commit: () => void;
}

/**
 * Loads an archive into `library`. Everything is parsed, validated and staged first; the
 * managers change only once nothing can fail. On any problem an ArchiveError is thrown and
 * the library is exactly as it was.
 */
export function loadLibrary(library: ComponentLibrary, archive: ArrayBuffer | Uint8Array, options: LoadOptions = {}): LoadResult {
  const buffer = toAlignedBuffer(archive);
  const explicit = options.seed !== undefined;
  if (explicit && (!Number.isInteger(options.seed) || options.seed! < 0 || options.seed! > 0xffffffff)) {
    throw new EcsError(`loadLibrary seed must be a u32, got ${String(options.seed)}.`);
  }
  const body = checkHeader(buffer);
  for (let attempt = 0; ; attempt++) {
    const seed = explicit ? options.seed! : library.generator.nextSeed();
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parse(library, buffer, body, seed);
    } catch (error) {
      if (error instanceof SeedMapsToZeroError && !explicit && attempt + 1 < MAX_SEED_TRIES) continue;
      throw error;
    }
    let clash = findCollision(library, parsed.staged);
    if (clash === INVALID_ENTITY && commit(parsed.staged)) {
      let components = 0;
      for (const section of parsed.staged) components += section.entities.length;
      return { seed, components, root: remapEntity(parsed.root, seed), skipped: parsed.skipped };
    }
    // The commit failed and was undone: an id is repeated in the archive or already taken.
    for (const section of parsed.staged) checkDistinct(section.entry.name, section.entities);
    if (clash === INVALID_ENTITY) clash = findCollision(library, parsed.staged, true);
    if (explicit || attempt + 1 >= MAX_SEED_TRIES) {
      throw new ArchiveError(`entity ${clash} from the archive is already in the world (seed ${seed}); load with another seed, or remove it first.`);
    }
  }
}

function toAlignedBuffer(archive: ArrayBuffer | Uint8Array): ArrayBuffer {
  if (archive instanceof ArrayBuffer) return archive;
  if (archive instanceof Uint8Array) {
    if (archive.byteOffset % 8 === 0 && archive.buffer instanceof ArrayBuffer && archive.byteLength === archive.buffer.byteLength) return archive.buffer;
    return archive.slice().buffer;
  }
  throw new EcsError('loadLibrary needs an ArrayBuffer or a Uint8Array.');
}

/** Validates the container header and checksum; returns the body's end offset. */
function checkHeader(buffer: ArrayBuffer): number {
  if (buffer.byteLength < HEADER_BYTES + 8) throw new ArchiveError(`archive is truncated: ${buffer.byteLength} bytes is shorter than the header.`);
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== MAGIC) throw new ArchiveError('not a @cuttle/ecs archive (bad magic number).');
  const format = view.getUint16(4, true);
  if (format !== ARCHIVE_FORMAT_VERSION) throw new ArchiveError(`archive format version ${format} is not supported; this build reads version ${ARCHIVE_FORMAT_VERSION}.`);
  if (view.getUint16(6, true) !== 0) throw new ArchiveError('archive is corrupted: reserved header bits are set.');
  const bodyBytes = view.getUint32(8, true);
  if (bodyBytes !== buffer.byteLength - HEADER_BYTES || bodyBytes % 8 !== 0) {
    throw new ArchiveError(`archive is truncated or padded: header says ${bodyBytes} body bytes, found ${buffer.byteLength - HEADER_BYTES}.`);
  }
  const sum = checksumWords(new Uint32Array(buffer, HEADER_BYTES, bodyBytes >>> 2));
  if (sum !== view.getUint32(12, true)) throw new ArchiveError('archive is corrupted: checksum mismatch.');
  return buffer.byteLength;
}

function parse(library: ComponentLibrary, buffer: ArrayBuffer, end: number, seed: number): { staged: StagedSection[]; root: Entity; skipped: string[] } {
  const reader = new ArchiveReader(buffer, HEADER_BYTES, end, seed);
  const typeCount = reader.u32();
  const root = reader.u32();
  const staged: StagedSection[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (let t = 0; t < typeCount; t++) {
    const start = reader.offset;
    const length = reader.u32();
    if (length < 16 || length % 8 !== 0 || start + length > end) throw new ArchiveError(`archive is corrupted: section ${t} claims ${length} bytes at offset ${start}.`);
    const section = new ArchiveReader(buffer, start + 4, start + length, seed);
    reader.skip(length - 4);
    const version = section.u32();
    const kind = section.u8();
    const nameBytes = section.u8();
    const fieldCount = section.u16();
    const count = section.u32();
    const name = new TextDecoder().decode(new Uint8Array(buffer, section.region(nameBytes), nameBytes));
    section.align();
    if (seen.has(name)) throw new ArchiveError(`archive is corrupted: component type "${name}" appears twice.`);
    seen.add(name);
    const entry = library.entry(name);
    if (entry === undefined || (entry.manager.kind === 'object' && entry.serializer === undefined)) {
      skipped.push(name);
      continue;
    }
    if (kind !== (entry.manager.kind === 'schema' ? KIND_SCHEMA : KIND_OBJECT)) {
      throw new ArchiveError(`archived "${name}" is a ${kind === KIND_SCHEMA ? 'schema' : 'object'} type but the registered manager is not.`);
    }
    if (version > entry.version) throw new ArchiveError(`archived "${name}" has version ${version}, newer than the registered ${entry.version}; update the reader.`);
    if (version === 0) throw new ArchiveError(`archive is corrupted: "${name}" has version 0.`);
    if (count > (length >>> 2)) throw new ArchiveError(`archive is corrupted: "${name}" claims ${count} components in ${length} bytes.`);
    const entities = readEntityColumn(section, count, 1);
    for (let i = 0; i < count; i++) {
      if (entities[i] === INVALID_ENTITY) throw new ArchiveError(`archive is corrupted: "${name}" row ${i} has no entity.`);
    }
    const manager = entry.manager;
    let commit: () => void;
    if (manager instanceof SchemaComponentManager) commit = stageSchema(entry, manager as SchemaComponentManager, section, version, fieldCount, count, entities);
    else if (manager instanceof ObjectComponentManager) commit = stageObjects(entry, manager, section, version, count, entities);
    else throw new EcsError(`"${name}" has a manager of unknown kind.`);
    staged.push({ entry, entities, commit });
  }
  if (reader.offset !== end) throw new ArchiveError(`archive is corrupted: ${end - reader.offset} bytes after the last section.`);
  return { staged, root, skipped };
}

function readEntityColumn(reader: ArchiveReader, count: number, length: number): Uint32Array {
  const n = count * length;
  const source = new Uint32Array(reader.buffer, reader.region(n * 4), n);
  reader.align();
  return remapColumn(source, reader.seed);
}

/** remapEntity over a column, written out so the loop has no call and no seed test. */
function remapColumn(source: Uint32Array, seed: number): Uint32Array {
  if (seed === 0) return source.slice();
  const out = new Uint32Array(source.length);
  const key = seed >>> 1;
  for (let i = 0; i < source.length; i++) {
    const entity = source[i]!;
    if (entity === INVALID_ENTITY) continue;
    const remapped = ((entity & 0x7fffffff) ^ key) >>> 0;
    if (remapped === INVALID_ENTITY) throw new SeedMapsToZeroError(`seed ${seed} maps entity ${entity} to INVALID_ENTITY; load with another seed.`);
    out[i] = remapped;
  }
  return out;
}

function checkDistinct(name: string, entities: Uint32Array): void {
  const seen = new EntityLookup(entities.length);
  for (let i = 0; i < entities.length; i++) {
    if (seen.get(entities[i]!) !== -1) throw new ArchiveError(`archive is corrupted: entity ${entities[i]} appears twice in "${name}".`);
    seen.set(entities[i]!, i);
  }
}

function stageSchema(entry: LibraryEntry, manager: SchemaComponentManager, reader: ArchiveReader, version: number, fieldCount: number, count: number, entities: Uint32Array): () => void {
  const saved: FieldLayout[] = [];
  for (let f = 0; f < fieldCount; f++) {
    const typeId = reader.u8();
    const nameBytes = reader.u8();
    const length = reader.u16();
    const type = FIELD_TYPES[typeId];
    if (type === undefined || length === 0) throw new ArchiveError(`archive is corrupted: "${entry.name}" field ${f} has type id ${typeId} and length ${length}.`);
    const name = new TextDecoder().decode(new Uint8Array(reader.buffer, reader.region(nameBytes), nameBytes));
    saved.push({ name, type, length, bytesPerElement: allocateField(type, 0).BYTES_PER_ELEMENT, defaults: null });
  }
  reader.align();
  const columns: Record<string, TypedArray> = {};
  for (const field of saved) {
    const n = count * field.length;
    const at = reader.region(n * field.bytesPerElement);
    reader.align();
    if (field.type === 'entity') {
      columns[field.name] = remapColumn(new Uint32Array(reader.buffer, at, n), reader.seed);
    } else {
      columns[field.name] = viewField(field.type, reader.buffer, at, n);
    }
  }
  if (version === entry.version) {
    if (!sameLayout(saved, manager.layout)) {
      throw new ArchiveError(`archived "${entry.name}" v${version} has a different field layout than the registered one; bump the version and add a migrate function.`);
    }
    const ordered = saved.map((field) => columns[field.name]!);
    return () => manager.createFromColumns(entities, ordered);
  }
  if (entry.migrate === undefined) {
    throw new ArchiveError(`archived "${entry.name}" has version ${version} but the registered one is ${entry.version} with no migrate function; register one to read old archives.`);
  }
  checkDistinct(entry.name, entities);
  const staging = manager.emptyClone();
  for (let i = 0; i < entities.length; i++) staging.create(entities[i]!);
  for (const field of saved) {
    const current = manager.layout.find((f) => f.name === field.name);
    if (current?.type === field.type && current.length === field.length) staging.column(field.name).set(columns[field.name]!);
  }
  const archived: ArchivedComponents = { version, count, entities, fields: columns };
  try {
    entry.migrate(archived, staging);
  } catch (error) {
    throw new ArchiveError(`migrating "${entry.name}" from version ${version} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (staging.count !== count) throw new ArchiveError(`migrating "${entry.name}" must not add or remove rows (${count} before, ${staging.count} after).`);
  return () => { manager.merge(staging); };
}

function stageObjects<T extends object>(entry: LibraryEntry, manager: ObjectComponentManager<T>, reader: ArchiveReader, version: number, count: number, entities: Uint32Array): () => void {
  checkDistinct(entry.name, entities);
  const staging = manager.emptyClone();
  const serializer = entry.serializer!;
  staging.reserve(count);
  entities.forEach((entity) => {
    const component = staging.create(entity);
    try {
      serializer.read(component, reader, version);
    } catch (error) {
      if (error instanceof ArchiveError) throw error;
      throw new ArchiveError(`reading "${entry.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  reader.align();
  if (reader.offset !== reader.end) throw new ArchiveError(`archive is corrupted: "${entry.name}" has ${reader.end - reader.offset} unread bytes.`);
  return () => { manager.merge(staging); };
}

/**
 * The first staged entity that already has a component in another manager of the library, or
 * 0. Its own manager is checked by the commit itself (`all` checks that one too).
 */
function findCollision(library: ComponentLibrary, staged: readonly StagedSection[], all = false): Entity {
  const managers = library.entries.map((entry) => entry.manager);
  for (const { entry, entities } of staged) {
    // An empty manager cannot clash, so loading into a fresh world skips this pass entirely.
    const others = managers.filter((manager) => manager.count > 0 && (all || manager !== entry.manager));
    if (others.length === 0) continue;
    for (let i = 0; i < entities.length; i++) {
      const entity = entities[i]!;
      for (const manager of others) if (manager.contains(entity)) return entity;
    }
  }
  return INVALID_ENTITY;
}

/** Appends every section; if one fails, truncates the managers back and returns false. */
function commit(staged: readonly StagedSection[]): boolean {
  const counts = staged.map((section) => section.entry.manager.count);
  for (let s = 0; s < staged.length; s++) {
    try {
      staged[s]!.commit();
    } catch (error) {
      if (!(error instanceof EcsError)) throw error;
      for (let k = s; k >= 0; k--) staged[k]!.entry.manager.truncate(counts[k]!);
      return false;
    }
  }
  return true;
}

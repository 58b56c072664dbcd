import { INVALID_ENTITY, type Entity, type TypedArray } from './api.ts';
import type { ArchiveReader, ArchiveWriter } from './archive.ts';
import type { ComponentManager } from './component-manager.ts';
import { EntityGenerator } from './entity.ts';
import { EcsError } from './errors.ts';
import type { SchemaComponentManager } from './schema-component-manager.ts';

/** What a schema migration sees: the archived rows as they were saved. */
export interface ArchivedComponents {
  /** The version the archive was written with (older than the registered one). */
  readonly version: number;
  /** Archived rows. */
  readonly count: number;
  /** Entities of the archived rows, already remapped. */
  readonly entities: Uint32Array;
  /** Archived columns by field name, with the saved lengths; entity fields already remapped. */
  readonly fields: Readonly<Record<string, TypedArray>>;
}

/** How an object component type is written to and read from archives. */
export interface ObjectSerializer<T> {
  /** Writes `component`'s fields; `read` must read them back in the same order. */
  write(component: T, writer: ArchiveWriter): void;
  /** Fills a fresh component; `version` is the archived one, so old layouts can be read. */
  read(component: T, reader: ArchiveReader, version: number): void;
}

/** Options of {@link ComponentLibrary.register}. */
export interface RegisterOptions {
  /** Version of the component type, a positive integer; bump it when the layout changes. Default 1. */
  version?: number;
  /** Removal keeps row order (removeKeepSorted), as the hierarchy needs. Default false. */
  ordered?: boolean;
  /**
   * Schema managers: fills rows of `target` (already created at defaults, with fields whose
   * name, type and length match copied over) from rows saved under an older version.
   */
  migrate?: (archived: ArchivedComponents, target: SchemaComponentManager) => void;
  /** Object managers: how to save and load components. Without it the type is not saved. */
  serializer?: ObjectSerializer<never>;
  /** Replaces the default removal in `removeEntity` (the scene graph uses it to unlink). */
  remove?: (entity: Entity) => void;
}

/** One registered manager with its name and version. */
export interface LibraryEntry {
  /** The registered name (1 to 255 characters), as archives store it. */
  readonly name: string;
  /** The manager. */
  readonly manager: ComponentManager;
  /** The component type's version (a positive u32). */
  readonly version: number;
  /** Whether removal keeps row order. */
  readonly ordered: boolean;
  /** The schema migration, see {@link RegisterOptions.migrate}. */
  readonly migrate: RegisterOptions['migrate'] | undefined;
  /** The object serializer, see {@link RegisterOptions.serializer}. */
  readonly serializer: ObjectSerializer<unknown> | undefined;
  /** The replacement removal, see {@link RegisterOptions.remove}. */
  readonly remove: ((entity: Entity) => void) | undefined;
}

/**
 * The world: named, versioned component managers, an entity generator, and removal of an
 * entity from every manager. Serialization works on it. Systems stay plain functions over
 * the managers; the library only knows names.
 */
export class ComponentLibrary {
  /** Makes the library's entity ids (deterministic when the library was given a seed). */
  readonly generator: EntityGenerator;
  readonly #entries: LibraryEntry[] = [];
  readonly #byName = new Map<string, LibraryEntry>();

  /** `seed` makes entity ids deterministic (tests, replays); left out, ids are random. */
  constructor(options: { seed?: number } = {}) {
    this.generator = new EntityGenerator(options.seed);
  }

  /** A new unique entity. */
  createEntity(): Entity {
    return this.generator.next();
  }

  /** Adds `manager` under `name` and returns it. */
  register<M extends ComponentManager>(name: string, manager: M, options: RegisterOptions = {}): M {
    if (typeof name !== 'string' || name.length === 0 || name.length > 255) throw new EcsError(`a component type name must be 1 to 255 characters, got "${name}".`);
    if (this.#byName.has(name)) throw new EcsError(`component type "${name}" is already registered; pick another name.`);
    if (this.#entries.some((entry) => entry.manager === manager)) throw new EcsError(`this manager is already registered (as "${this.#entries.find((e) => e.manager === manager)?.name ?? ''}").`);
    const version = options.version ?? 1;
    if (!Number.isInteger(version) || version < 1 || version > 0xffffffff) throw new EcsError(`version of "${name}" must be a positive u32, got ${version}.`);
    if (options.serializer !== undefined && manager.kind !== 'object') throw new EcsError(`"${name}": a serializer is for object managers; schema managers serialize themselves.`);
    if (options.migrate !== undefined && manager.kind !== 'schema') throw new EcsError(`"${name}": migrate is for schema managers; an object serializer reads old versions itself.`);
    const entry: LibraryEntry = {
      name,
      manager,
      version,
      ordered: options.ordered ?? false,
      migrate: options.migrate,
      serializer: options.serializer,
      remove: options.remove,
    };
    this.#entries.push(entry);
    this.#byName.set(name, entry);
    return manager;
  }

  /** The manager registered as `name`. */
  get(name: string): ComponentManager {
    const entry = this.#byName.get(name);
    if (entry === undefined) throw new EcsError(`no component type "${name}"; registered: ${this.names.join(', ') || 'none'}.`);
    return entry.manager;
  }

  /** Whether a manager is registered as `name`. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The entry (manager, version, options) registered as `name`, or undefined. */
  entry(name: string): LibraryEntry | undefined {
    return this.#byName.get(name);
  }

  /** Registered names, in registration order. */
  get names(): string[] {
    return this.#entries.map((entry) => entry.name);
  }

  /** Registered entries, in registration order. */
  get entries(): readonly LibraryEntry[] {
    return this.#entries;
  }

  /** Removes `entity`'s components from every manager. */
  removeEntity(entity: Entity): void {
    if ((entity >>> 0) !== entity || entity === INVALID_ENTITY) throw new EcsError(`removeEntity needs a valid entity, got ${String(entity)}.`);
    for (const entry of this.#entries) {
      if (entry.remove !== undefined) entry.remove(entity);
      else if (entry.ordered) entry.manager.removeKeepSorted(entity);
      else entry.manager.remove(entity);
    }
  }

  /** Whether any manager holds a component of `entity`. */
  hasEntity(entity: Entity): boolean {
    for (const entry of this.#entries) if (entry.manager.contains(entity)) return true;
    return false;
  }
}

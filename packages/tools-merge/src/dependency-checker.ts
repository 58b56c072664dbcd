// "The Dependency Checker": resources are SJSON/JSON files that refer to each other by
// (type, name), where a file `units/chest.unit` is the resource of type `unit` named
// `units/chest`. From the files the checker builds the dependency graph, lists missing resources
// (referred to but absent) and dangling ones (present but referred to by nothing), shows what
// refers to a resource, and patches references to move, copy and replace resources. This core
// works on an in-memory map of files; the Node layer reads and writes a directory.
import type { JsonObject, JsonValue, Path } from './api.ts';
import { jsonClone, jsonEqual } from './equal.ts';
import { ToolsMergeError } from './errors.ts';
import { isObject, ownSet } from './own.ts';
import { parseSjson } from './sjson-parse.ts';
import { writeJson, writeSjson } from './sjson-write.ts';

/** A resource: its type and name, stored in the file `name.type`. */
export interface ResourceId {
  /** The resource type (the file's extension, e.g. `'material'`). */
  type: string;
  /** The resource name (the file's path without the extension, `/`-separated). */
  name: string;
}

/** How references are written in the files. */
export interface DependencyOptions {
  /**
   * Keys whose string values (or arrays of strings) name a resource of a type, e.g.
   * `{ material: 'material', textures: 'texture' }`. Objects `{ type, name }` whose type is a
   * resource type are references too, whatever their key.
   */
  keyTypes?: Record<string, string>;
  /** Types that are roots of the project (levels, boot packages): never reported as dangling. */
  rootTypes?: string[];
}

/** One reference: `from` refers to `to` at `path` inside `from`'s document. */
export interface Reference {
  /** The resource that refers. */
  from: ResourceId;
  /** The resource referred to. */
  to: ResourceId;
  /** Where in `from`'s document the reference is written. */
  path: Path;
}

/** Files to write and remove; `applyChanges` or the Node layer carries them out. */
export interface FileChanges {
  /** Files to write: path to new text. */
  write: Map<string, string>;
  /** Files to delete. */
  remove: string[];
}

/** The file path of a resource: `name.type`. */
export function resourcePath(id: ResourceId): string {
  return `${id.name}.${id.type}`;
}

/** The resource a file path names: `units/chest.unit` is `{ type: 'unit', name: 'units/chest' }`. */
export function resourceOf(path: string): ResourceId {
  const clean = path.replace(/\\/g, '/');
  const dot = clean.lastIndexOf('.');
  if (dot <= clean.lastIndexOf('/') + 1 || dot === clean.length - 1) {
    throw new ToolsMergeError(`${JSON.stringify(path)} is not a resource path; write it as name.type (units/chest.unit)`);
  }
  return { type: clean.slice(dot + 1), name: clean.slice(0, dot) };
}

function sameId(a: ResourceId, b: ResourceId): boolean {
  return a.type === b.type && a.name === b.name;
}

/** Calls `visit` for every reference in a document. */
function scanReferences(doc: JsonValue, types: ReadonlySet<string>, keyTypes: Record<string, string>, visit: (to: ResourceId, path: Path) => void): void {
  const path: Path = [];
  const walk = (node: JsonValue, keyType: string | undefined): void => {
    if (typeof node === 'string') {
      if (keyType !== undefined) visit({ type: keyType, name: node }, path);
      return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        walk(node[i]!, keyType);
        path.pop();
      }
      return;
    }
    if (!isObject(node)) return;
    const t = Object.hasOwn(node, 'type') ? node.type : undefined;
    const n = Object.hasOwn(node, 'name') ? node.name : undefined;
    if (typeof t === 'string' && typeof n === 'string' && types.has(t)) visit({ type: t, name: n }, path);
    for (const key of Object.keys(node)) {
      path.push(key);
      walk(node[key]!, Object.hasOwn(keyTypes, key) ? keyTypes[key] : undefined);
      path.pop();
    }
  };
  walk(doc, undefined);
}

function samePaths(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const path of a.keys()) if (!b.has(path)) return false;
  return true;
}

/** The dependency graph of a project. Build it with `DependencyGraph.build(files)`. */
export class DependencyGraph {
  /** Every reference, in file order. */
  readonly references: Reference[] = [];
  /** Files that are resources but not SJSON/JSON (textures, sounds): leaves of the graph. */
  readonly opaque: string[] = [];
  private existing = new Map<string, ResourceId>();
  /** The resource types of the files (and of the key types). */
  private types = new Set<string>();
  private readonly docs = new Map<string, JsonValue>();
  /** Per file, where its references lie in `references` (for a later build to copy them). */
  private readonly spans = new Map<string, [number, number]>();
  /** What a file's references depend on besides its text: the key types and the resource types. */
  private scanKey = '';

  private constructor(
    /** The project's files: path (relative to the root) to text. */
    readonly files: ReadonlyMap<string, string>,
    /** How references are written in the files. */
    readonly options: DependencyOptions,
  ) {}

  /**
   * Parses every file; files that do not parse are opaque leaf resources. With `previous` (the
   * graph of an earlier state of the same project), a file whose text is unchanged reuses its
   * parsed document (and, while the project's resource types are the same, its references)
   * instead of being parsed again: a tool that rebuilds the graph after every save parses only
   * what was saved.
   */
  static build(files: ReadonlyMap<string, string>, options: DependencyOptions = {}, previous?: DependencyGraph): DependencyGraph {
    const given: unknown = files;
    if (!(given instanceof Map)) throw new ToolsMergeError('build takes a Map from relative path to file text');
    const graph = new DependencyGraph(files, options);
    const keyTypes = options.keyTypes ?? {};
    const keyTypesKey = JSON.stringify(keyTypes);
    if (previous !== undefined && samePaths(files, previous.files) && previous.scanKey.startsWith(`${keyTypesKey}|`)) {
      // The same files and key types as the previous build (a save changed texts, not paths):
      // the same resources exist, of the same types. Never changed after a build, so shared.
      graph.existing = previous.existing;
      graph.types = previous.types;
      graph.scanKey = previous.scanKey;
    } else {
      for (const path of files.keys()) {
        const id = resourceOf(path);
        graph.existing.set(resourcePath(id), id);
      }
      for (const r of graph.existing.values()) graph.types.add(r.type);
      for (const t of Object.values(keyTypes)) graph.types.add(t);
      graph.scanKey = `${keyTypesKey}|${[...graph.types].sort().join(',')}`;
    }
    const types = graph.types;
    const sameScan = previous?.scanKey === graph.scanKey;
    for (const [path, text] of files) {
      let doc: JsonValue | undefined;
      const reused = previous?.files.get(path) === text ? previous : undefined;
      const reusable = reused !== undefined;
      if (reused) doc = reused.docs.get(path);
      const span = sameScan && doc !== undefined ? reused?.spans.get(path) : undefined;
      if (doc !== undefined && span) {
        const start = graph.references.length;
        for (let i = span[0]; i < span[1]; i++) graph.references.push(reused!.references[i]!);
        graph.docs.set(path, doc);
        graph.spans.set(path, [start, graph.references.length]);
        continue;
      }
      if (doc === undefined) {
        if (reusable) {
          // It did not parse before either.
          graph.opaque.push(path);
          continue;
        }
        try {
          doc = parseSjson(text, { source: path });
        } catch {
          graph.opaque.push(path);
          continue;
        }
      }
      graph.docs.set(path, doc);
      const start = graph.references.length;
      const from = resourceOf(path);
      scanReferences(doc, types, keyTypes, (to, at) => graph.references.push({ from, to, path: at.slice() }));
      graph.spans.set(path, [start, graph.references.length]);
    }
    return graph;
  }

  /** Every resource that exists, sorted by path. */
  resources(): ResourceId[] {
    return [...this.existing.keys()].sort().map((k) => this.existing.get(k)!);
  }

  /** Whether a file for resource `id` exists. */
  exists(id: ResourceId): boolean {
    return this.existing.has(resourcePath(id));
  }

  /** What `id` refers to (each once). */
  dependencies(id: ResourceId): ResourceId[] {
    return unique(this.references.filter((r) => sameId(r.from, id)).map((r) => r.to));
  }

  /** What refers to `id` (each once). */
  referrers(id: ResourceId): ResourceId[] {
    return unique(this.references.filter((r) => sameId(r.to, id)).map((r) => r.from));
  }

  /** Resources referred to that do not exist, each with its referrers. */
  missing(): { resource: ResourceId; referrers: ResourceId[] }[] {
    const out = new Map<string, { resource: ResourceId; referrers: ResourceId[] }>();
    for (const r of this.references) {
      if (this.exists(r.to)) continue;
      const key = resourcePath(r.to);
      let entry = out.get(key);
      if (entry === undefined) out.set(key, (entry = { resource: r.to, referrers: [] }));
      if (!entry.referrers.some((x) => sameId(x, r.from))) entry.referrers.push(r.from);
    }
    return [...out.keys()].sort().map((k) => out.get(k)!);
  }

  /** Resources nothing refers to (root types excepted): candidates for deletion. */
  dangling(): ResourceId[] {
    const referred = new Set(this.references.map((r) => resourcePath(r.to)));
    const roots = new Set(this.options.rootTypes ?? []);
    return this.resources().filter((id) => !roots.has(id.type) && !referred.has(resourcePath(id)));
  }

  /** Rewrites, in the chosen referrers (all by default), every reference to `from` into `to`. */
  redirect(from: ResourceId, to: ResourceId, referrers?: readonly ResourceId[]): Map<string, string> {
    const write = new Map<string, string>();
    const chosen = referrers ?? this.referrers(from);
    for (const referrer of chosen) {
      const path = resourcePath(referrer);
      const doc = this.docs.get(path);
      if (doc === undefined) throw new ToolsMergeError(`${path} is not a data file of this project; choose referrers from referrers(${resourcePath(from)})`);
      const refs = this.references.filter((r) => sameId(r.from, referrer) && sameId(r.to, from));
      if (refs.length === 0) throw new ToolsMergeError(`${path} does not refer to ${resourcePath(from)}`);
      const patched = patchDocument(doc, refs, to);
      write.set(path, patchText(this.files.get(path)!, from, to, patched) ?? (path.toLowerCase().endsWith('.json') ? writeJson(patched) : writeSjson(patched)));
    }
    return write;
  }

  private requireExisting(id: ResourceId, what: string): void {
    if (!this.exists(id)) throw new ToolsMergeError(`${what} ${resourcePath(id)} does not exist in the project`);
  }

  private requireFree(id: ResourceId): void {
    if (this.exists(id)) throw new ToolsMergeError(`${resourcePath(id)} already exists; pick a new name or use replace`);
  }

  /** Renames a resource and patches every reference to it. */
  move(from: ResourceId, to: ResourceId): FileChanges {
    this.requireExisting(from, 'the resource to move,');
    this.requireFree(to);
    if (from.type !== to.type) throw new ToolsMergeError(`move keeps the type: ${from.type} cannot become ${to.type}`);
    const write = this.redirect(from, to);
    const fromPath = resourcePath(from);
    // A resource that refers to itself is patched text, moved.
    const text = write.get(fromPath) ?? this.files.get(fromPath)!;
    write.delete(fromPath);
    write.set(resourcePath(to), text);
    return { write, remove: [fromPath] };
  }

  /** Copies a resource; only the chosen referrers (none by default) are redirected to the copy. */
  copy(from: ResourceId, to: ResourceId, referrers: readonly ResourceId[] = []): FileChanges {
    this.requireExisting(from, 'the resource to copy,');
    this.requireFree(to);
    if (from.type !== to.type) throw new ToolsMergeError(`copy keeps the type: ${from.type} cannot become ${to.type}`);
    const write = this.redirect(from, to, referrers);
    write.set(resourcePath(to), this.files.get(resourcePath(from))!);
    return { write, remove: [] };
  }

  /** Points every reference to `old` (which may be missing) at the existing `replacement`. */
  replace(old: ResourceId, replacement: ResourceId): FileChanges {
    this.requireExisting(replacement, 'the replacement');
    if (old.type !== replacement.type) throw new ToolsMergeError(`replace keeps the type: ${old.type} cannot become ${replacement.type}`);
    return { write: this.redirect(old, replacement), remove: [] };
  }
}

/**
 * The file's own text with the quoted old name replaced, when that gives exactly the patched
 * document (so layout and comments survive); undefined when the name also occurs as something
 * other than a reference, and the caller rewrites the file instead.
 */
function patchText(text: string, from: ResourceId, to: ResourceId, patched: JsonValue): string | undefined {
  const candidate = text.split(JSON.stringify(from.name)).join(JSON.stringify(to.name));
  try {
    return jsonEqual(parseSjson(candidate), patched) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

function unique(ids: ResourceId[]): ResourceId[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    const k = resourcePath(id);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A copy of `doc` with the references at `refs` pointing at `to`. */
function patchDocument(doc: JsonValue, refs: readonly Reference[], to: ResourceId): JsonValue {
  const copy = jsonClone(doc);
  for (const r of refs) {
    if (r.path.length === 0) {
      if (isObject(copy)) copy.name = to.name;
      continue;
    }
    let parent: JsonValue = copy;
    for (let i = 0; i < r.path.length - 1; i++) parent = (parent as Record<string, JsonValue>)[r.path[i] as string]!;
    const last = r.path[r.path.length - 1]!;
    const node = (parent as Record<string | number, JsonValue>)[last as string]!;
    if (typeof node === 'string') {
      if (Array.isArray(parent)) parent[last as number] = to.name;
      else ownSet(parent as JsonObject, last as string, to.name);
    } else if (isObject(node)) {
      node.name = to.name;
    }
  }
  return copy;
}

/** Applies `changes` to an in-memory project (returns a new map). */
export function applyChanges(files: ReadonlyMap<string, string>, changes: FileChanges): Map<string, string> {
  const out = new Map(files);
  for (const p of changes.remove) out.delete(p);
  for (const [p, text] of changes.write) out.set(p, text);
  return out;
}

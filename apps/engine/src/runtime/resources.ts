// Compiled data on disk, found through the manifest: containers are read on first use and
// cached by source path; `invalidate` drops the named ones so the next use reads them again
// (hot reload). A resource that is missing or unreadable fails with a message naming it; a
// manifest with an entry the compiler would not have written is refused (ManifestError) before
// any file it names is opened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, readManifest, type Manifest } from '../compiler/manifest.ts';
import { EngineError } from '../errors.ts';
import { readContainer, type Container } from './container.ts';

const RUNTIME_TYPE: Record<string, string> = { glb: 'mesh', png: 'texture' };

export class ResourceStore {
  #manifest: Manifest;
  readonly #cache = new Map<string, Container<unknown>>();

  constructor(readonly dir: string) {
    const manifest = readManifest(dir);
    if (!manifest) throw new EngineError(`${join(dir, MANIFEST_FILE)} is missing: compile the project first (cuttle-engine compile <source> ${dir}).`);
    this.#manifest = manifest;
  }

  get manifest(): Manifest {
    return this.#manifest;
  }

  /** The compiled resource `name` of source type `type` (e.g. 'material', 'materials/wood'). */
  get<M>(type: string, name: string): Container<M> {
    const path = `${name}.${type}`;
    let container = this.#cache.get(path);
    if (!container) {
      const entry = Object.hasOwn(this.#manifest.resources, path) ? this.#manifest.resources[path] : undefined;
      if (!entry) throw new EngineError(`${path} is not in the compiled data (${this.dir}); add the source and recompile.`);
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(join(this.dir, entry.file));
      } catch (error) {
        throw new EngineError(`${entry.file} could not be read (${error instanceof Error ? error.message : String(error)}); recompile.`);
      }
      container = readContainer<unknown>(bytes, RUNTIME_TYPE[type] ?? type, entry.file);
      this.#cache.set(path, container);
    }
    return container as Container<M>;
  }

  /**
   * Re-reads the manifest and forgets the given source paths (all when none are given).
   * Returns the previous cache entries so a failed reload can put them back.
   */
  invalidate(paths?: readonly string[]): { restore(): void } {
    const manifest = this.#manifest;
    const saved = new Map(this.#cache);
    const next = readManifest(this.dir);
    if (!next) throw new EngineError(`${join(this.dir, MANIFEST_FILE)} is missing; recompile.`);
    this.#manifest = next;
    if (paths) for (const path of paths) this.#cache.delete(path);
    else this.#cache.clear();
    return {
      restore: () => {
        this.#manifest = manifest;
        this.#cache.clear();
        for (const [k, v] of saved) this.#cache.set(k, v);
      },
    };
  }
}

// The project as the compile workers see it: every source file's bytes in one SharedArrayBuffer
// (written once, read by every worker without a copy per message), and a small header with the
// paths, where each file lies, what to compile and where to write it. Workers copy a file out
// of the shared bytes when a compiler reads it, so no library ever sees a shared view.
import { resourceOf, resourcePath, type ResourceId } from '@cuttle/tools-merge';
import type { ProjectResources } from '../context.ts';
import type { SourceFiles } from '../input-files.ts';
import { usagesToJson, type TextureUsages, type TextureUsagesJson } from '../../textures/texture-usage.ts';

export interface SharedProject {
  /** JSON of SharedProjectHeader, on a SharedArrayBuffer. */
  header: Uint8Array;
  /** Every file's bytes, back to back, on a SharedArrayBuffer. */
  sources: Uint8Array;
}

export interface SharedProjectHeader {
  out: string;
  fontDirs: string[];
  paths: string[];
  /** Per path: start and length in `sources`. */
  spans: number[];
  /** Per path: its content hash from the scan. */
  hashes: string[];
  /** Paths to compile, in task order. */
  todo: string[];
  /** What the materials use each texture for (TextureUsages as JSON). */
  textureUsages: TextureUsagesJson;
  /** Textures are written as drafts. */
  textureDrafts: boolean;
}

function sharedBytes(bytes: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(bytes, 1)));
}

/** Every file's bytes in shared memory, and where each lies: made once for a compile. */
export interface SharedSources {
  sources: Uint8Array;
  paths: string[];
  spans: number[];
  hashes: string[];
  textureUsages: TextureUsagesJson;
  textureDrafts: boolean;
}

export function shareSources(files: ReadonlyMap<string, Uint8Array>, hashes: ReadonlyMap<string, string>, usages: TextureUsages, textureDrafts: boolean): SharedSources {
  let total = 0;
  for (const bytes of files.values()) total += bytes.length;
  const sources = sharedBytes(total);
  const paths: string[] = [];
  const spans: number[] = [];
  const hashList: string[] = [];
  let at = 0;
  for (const [path, bytes] of files) {
    sources.set(bytes, at);
    paths.push(path);
    spans.push(at, bytes.length);
    hashList.push(hashes.get(path)!);
    at += bytes.length;
  }
  return { sources, paths, spans, hashes: hashList, textureUsages: usagesToJson(usages), textureDrafts };
}

/** The project for one batch of tasks: the shared sources and a header naming what to compile. */
export function shareProject(shared: SharedSources, todo: readonly string[], out: string, fontDirs: readonly string[]): SharedProject {
  const json = new TextEncoder().encode(JSON.stringify({ out, fontDirs: [...fontDirs], paths: shared.paths, spans: shared.spans, hashes: shared.hashes, todo: [...todo], textureUsages: shared.textureUsages, textureDrafts: shared.textureDrafts } satisfies SharedProjectHeader));
  const header = sharedBytes(json.length);
  header.set(json);
  return { header, sources: shared.sources };
}

/** A worker's read-only view of a shared project. */
export class SharedProjectView implements SourceFiles, ProjectResources {
  readonly header: SharedProjectHeader;
  readonly #sources: Uint8Array;
  readonly #spans = new Map<string, number>();
  readonly #existing = new Map<string, ResourceId>();
  #sorted: ResourceId[] | undefined;

  constructor(project: SharedProject) {
    // TextDecoder refuses views of shared memory: decode a private copy.
    this.header = JSON.parse(new TextDecoder().decode(project.header.slice())) as SharedProjectHeader;
    this.#sources = project.sources;
    this.header.paths.forEach((path, i) => {
      this.#spans.set(path, i);
      const id = resourceOf(path);
      this.#existing.set(resourcePath(id), id);
    });
  }

  /** A private copy of a file's bytes, or undefined when the project has no such file. */
  get(path: string): Uint8Array | undefined {
    const i = this.#spans.get(path);
    if (i === undefined) return undefined;
    const start = this.header.spans[i * 2]!;
    return this.#sources.slice(start, start + this.header.spans[i * 2 + 1]!);
  }

  hashOf(path: string): string | undefined {
    const i = this.#spans.get(path);
    return i === undefined ? undefined : this.header.hashes[i];
  }

  exists(id: ResourceId): boolean {
    return this.#existing.has(resourcePath(id));
  }

  resources(): ResourceId[] {
    this.#sorted ??= [...this.#existing.keys()].sort().map((key) => this.#existing.get(key)!);
    return this.#sorted;
  }
}

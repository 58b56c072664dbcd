// A frame graph after Frostbite's (GDC 2017), as Filament's and Bevy's render graphs have it:
// passes declare the resources they create, read and write by name; the graph orders them,
// culls the ones nothing needs, gives transient resources GPU objects (one object for several
// resources whose lifetimes do not overlap) and records the passes that run. Resources the
// caller owns (the canvas texture, a depth texture) come in with `importTexture`/`importBuffer`.
import { compileGraph, type CompiledGraph, type ImportDecl } from './compile.ts';
import { describeGraph } from './describe.ts';
import { FrameGraphError } from './errors.ts';
import type { PassContext, PassDecl } from './pass.ts';
import type { TransientPool } from './pool.ts';
import { usesAllowed, type BufferDesc, type BufferUse, type ResourceDesc, type TextureDesc, type TextureUse } from './resources.ts';

/** Options of importing a caller's texture or buffer into a {@link FrameGraph}. */
export interface ImportOptions {
  /** Passes may read it but not write it. */
  readOnly?: boolean;
}

/**
 * A frame graph after Frostbite's: passes declare the resources they create, read and write by name; the graph orders them, culls the ones nothing needs, gives transient resources GPU objects (one object for several resources whose lifetimes do not overlap) and records the passes that run. Invalid graphs throw {@link FrameGraphError} when compiled, before any GPU work.
 */
export class FrameGraph {
  readonly #passes: PassDecl[] = [];
  readonly #imports = new Map<string, ImportDecl>();
  readonly #imported = new Map<string, GPUTexture | GPUBuffer>();
  readonly #outputs = new Map<string, readonly string[]>();
  readonly #declared = new Map<string, ResourceDesc>();
  #compiled: CompiledGraph | undefined;
  readonly #lastObjects = new Map<string, GPUTexture | GPUBuffer>();
  #prepared: CompiledGraph | undefined;

  /** Brings a texture the caller owns into the graph as `name`; its usage flags say how passes may use it. */
  importTexture(name: string, texture: GPUTexture, options: ImportOptions = {}): this {
    const desc: TextureDesc = { kind: 'texture', width: texture.width, height: texture.height, layers: texture.depthOrArrayLayers, format: texture.format, mipLevelCount: texture.mipLevelCount };
    return this.#import(name, texture, { desc, uses: usesAllowed('texture', texture.usage), ...options });
  }

  /** Brings a buffer the caller owns into the graph as `name`. */
  importBuffer(name: string, buffer: GPUBuffer, options: ImportOptions = {}): this {
    const desc: BufferDesc = { kind: 'buffer', size: buffer.size };
    return this.#import(name, buffer, { desc, uses: usesAllowed('buffer', buffer.usage), ...options });
  }

  /**
   * Declares a transient resource no pass creates: the first pass that writes it starts it
   * (the frame's shared targets, written by whichever pass of a set-up comes first).
   */
  declare(name: string, desc: ResourceDesc): this {
    if (this.#declared.has(name)) throw new FrameGraphError(`"${name}" is declared twice.`);
    this.#declared.set(name, desc);
    this.#compiled = undefined;
    return this;
  }

  /**
   * Brings in a resource the graph orders passes by but whose GPU object the passes get
   * elsewhere: a render target the caller has only a view of, a buffer another library owns and
   * sizes (the culler's tiles). `texture(name)` and `buffer(name)` refuse it.
   */
  importExternal(name: string, desc: ResourceDesc, uses: readonly (TextureUse | BufferUse)[]): this {
    return this.#import(name, undefined, { desc, uses: new Set(uses), external: true });
  }

  /**
   * Marks a transient resource as read after the frame (motion vectors for the next frame's
   * reprojection, a depth a test reads back): what writes it runs, and it lives to the frame's
   * end. `uses`: how the caller reads it (e.g. 'copy-src'), added to its usage.
   */
  output(name: string, uses: readonly string[] = []): this {
    this.#outputs.set(name, uses);
    this.#compiled = undefined;
    return this;
  }

  /** The GPU object of a transient or imported resource after `execute` (undefined when it did not run). */
  objectOf(name: string): GPUTexture | GPUBuffer | undefined {
    return this.#lastObjects.get(name);
  }

  /** Adds a pass; passes run in the order added (a point's passes also by their `after`). */
  addPass(pass: PassDecl): this {
    this.#passes.push(pass);
    this.#compiled = undefined;
    return this;
  }

  /** Names of the passes added, in the order added. */
  get passNames(): string[] {
    return this.#passes.map((pass) => pass.name);
  }

  /** Orders, culls and allocates; throws a FrameGraphError before any GPU work when the declarations do not hold together. */
  compile(): CompiledGraph {
    this.#compiled ??= compileGraph(this.#passes, this.#imports, this.#outputs, this.#declared);
    return this.#compiled;
  }

  /** The compiled graph as text: passes, culled passes, resources, lifetimes, shared objects, bytes. */
  describe(): string {
    return describeGraph(this.compile(), new Set([...this.#imports].filter(([, decl]) => decl.external === true).map(([name]) => name)));
  }

  /** Compiles, takes the transient objects from `pool` and records every pass that runs into `encoder`. */
  execute(encoder: GPUCommandEncoder, pool: TransientPool): void {
    this.prepare(pool);
    this.record(encoder);
  }

  /** Compiles and takes the transient objects from `pool`; `objectOf` then answers for every resource. */
  prepare(pool: TransientPool): void {
    const graph = this.compile();
    const objects = pool.acquire(graph.objects);
    this.#lastObjects.clear();
    for (const info of graph.resources.values()) {
      const imported = this.#imported.get(info.name);
      if (info.imported) {
        if (imported) this.#lastObjects.set(info.name, imported);
      } else if (info.object >= 0) this.#lastObjects.set(info.name, objects[info.object]!);
    }
    this.#prepared = graph;
  }

  /** Records every pass that runs into `encoder` (after `prepare`). */
  record(encoder: GPUCommandEncoder): void {
    const graph = this.#prepared;
    if (!graph || graph !== this.#compiled) throw new FrameGraphError('prepare the graph (or call execute) after its last change, before recording it.');
    const objectOf = (pass: PassDecl, name: string): GPUTexture | GPUBuffer => {
      const declared = Object.hasOwn(pass.creates ?? {}, name) || (pass.reads ?? []).some((a) => a.resource === name) || (pass.writes ?? []).some((a) => a.resource === name);
      if (!declared) throw new FrameGraphError(`pass "${pass.name}" asked for "${name}", which it did not declare; add it to its reads or writes.`);
      const object = this.#lastObjects.get(name);
      if (!object) throw new FrameGraphError(`pass "${pass.name}" asked for "${name}", which was imported without its GPU object (importExternal); use the object you were given.`);
      return object;
    };
    for (const pass of graph.order) {
      const context: PassContext = {
        encoder,
        texture: (name) => {
          const object = objectOf(pass, name);
          if (!('format' in object)) throw new FrameGraphError(`pass "${pass.name}" asked for "${name}" as a texture; it is a buffer.`);
          return object;
        },
        buffer: (name) => {
          const object = objectOf(pass, name);
          if ('format' in object) throw new FrameGraphError(`pass "${pass.name}" asked for "${name}" as a buffer; it is a texture.`);
          return object;
        },
      };
      pass.execute(context);
    }
  }

  #import(name: string, object: GPUTexture | GPUBuffer | undefined, decl: ImportDecl): this {
    if (this.#imports.has(name)) throw new FrameGraphError(`"${name}" is imported twice.`);
    this.#imports.set(name, decl);
    if (object) this.#imported.set(name, object);
    this.#compiled = undefined;
    return this;
  }
}


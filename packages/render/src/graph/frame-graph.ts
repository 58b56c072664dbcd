// A frame graph after Frostbite's (GDC 2017), as Filament's and Bevy's render graphs have it:
// passes declare the resources they create, read and write by name; the graph orders them,
// culls the ones nothing needs, gives transient resources GPU objects (one object for several
// resources whose lifetimes do not overlap) and records the passes that run. Resources the
// caller owns (the canvas texture, a depth texture) come in with `importTexture`/`importBuffer`.
import { compileGraph, type CompiledGraph, type ImportDecl } from './compile.ts';
import { describeGraph } from './describe.ts';
import { FrameGraphError } from './errors.ts';
import type { PassContext, PassDecl } from './pass.ts';
import { TransientPool } from './pool.ts';
import { usesAllowed, type BufferDesc, type TextureDesc } from './resources.ts';

export interface ImportOptions {
  /** Passes may read it but not write it. */
  readOnly?: boolean;
}

export class FrameGraph {
  readonly #passes: PassDecl[] = [];
  readonly #imports = new Map<string, ImportDecl>();
  readonly #imported = new Map<string, GPUTexture | GPUBuffer>();
  #compiled: CompiledGraph | undefined;

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
    this.#compiled ??= compileGraph(this.#passes, this.#imports);
    return this.#compiled;
  }

  /** The compiled graph as text: passes, culled passes, resources, lifetimes, shared objects, bytes. */
  describe(): string {
    return describeGraph(this.compile());
  }

  /** Compiles, takes the transient objects from `pool` and records every pass that runs into `encoder`. */
  execute(encoder: GPUCommandEncoder, pool: TransientPool): void {
    const graph = this.compile();
    const objects = pool.acquire(graph.objects);
    const objectOf = (pass: PassDecl, name: string): GPUTexture | GPUBuffer => {
      const declared = Object.hasOwn(pass.creates ?? {}, name) || (pass.reads ?? []).some((a) => a.resource === name) || (pass.writes ?? []).some((a) => a.resource === name);
      if (!declared) throw new FrameGraphError(`pass "${pass.name}" asked for "${name}", which it did not declare; add it to its reads or writes.`);
      const info = graph.resources.get(name)!;
      return info.imported ? this.#imported.get(name)! : objects[info.object]!;
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

  #import(name: string, object: GPUTexture | GPUBuffer, decl: ImportDecl): this {
    if (this.#imports.has(name)) throw new FrameGraphError(`"${name}" is imported twice.`);
    this.#imports.set(name, decl);
    this.#imported.set(name, object);
    this.#compiled = undefined;
    return this;
  }
}

export { TransientPool };

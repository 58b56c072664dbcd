// A frame graph pass as its declaration: what it creates, reads and writes, by name. The graph
// orders, culls and allocates from these alone; `execute` records the pass's commands once the
// resources exist.
import type { BufferUse, ResourceDesc, TextureUse } from './resources.ts';

export interface ResourceAccess {
  resource: string;
  /** How the pass uses it; the union of a transient resource's uses becomes its usage flags. */
  use: TextureUse | BufferUse;
  /** The format the pass expects (textures): a resource of another format is a build-time error. */
  format?: GPUTextureFormat;
}

export interface WriteAccess extends ResourceAccess {
  /**
   * True when the pass overwrites every byte it owns (a clear, a full-screen compute write): the
   * content before does not matter, so the passes that wrote it are not needed for this one.
   * By default a write modifies what is there (a loadOp 'load', a read-modify-write).
   */
  discard?: boolean;
}

/** What a pass records its commands with. */
export interface PassContext {
  readonly encoder: GPUCommandEncoder;
  /** The GPU texture behind a resource this pass declared (a function property, so it destructures). */
  readonly texture: (name: string) => GPUTexture;
  /** The GPU buffer behind a resource this pass declared. */
  readonly buffer: (name: string) => GPUBuffer;
}

export interface PassDecl {
  /** Unique in the graph; names the pass in errors and in `describe`. */
  name: string;
  /** Transient resources this pass creates (and writes first), by name. */
  creates?: Readonly<Record<string, ResourceDesc>>;
  reads?: readonly ResourceAccess[];
  writes?: readonly WriteAccess[];
  /**
   * Named point in the frame the pass was added at (user passes). Two passes of one point that
   * write the same resource must be ordered with `after`, or the graph refuses to compile.
   */
  point?: string;
  /** Passes of the same point this one runs after. */
  after?: readonly string[];
  /** Kept even when nothing reads what it writes (readbacks, timings, side effects). */
  sideEffects?: boolean;
  execute(context: PassContext): void;
}

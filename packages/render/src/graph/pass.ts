// A frame graph pass as its declaration: what it creates, reads and writes, by name. The graph
// orders, culls and allocates from these alone; `execute` records the pass's commands once the
// resources exist.
import type { BufferUse, ResourceDesc, TextureUse } from './resources.ts';

/** A pass's read of a resource, by name. */
export interface ResourceAccess {
  /** Name of the resource (imported, or created by this or an earlier pass). */
  resource: string;
  /** How the pass uses it; the union of a transient resource's uses becomes its usage flags. */
  use: TextureUse | BufferUse;
  /** The format the pass expects (textures): a resource of another format is a build-time error. */
  format?: GPUTextureFormat;
}

/** A pass's write of a resource, by name. */
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
  /** The frame's command encoder: begin the pass's render or compute passes on it. */
  readonly encoder: GPUCommandEncoder;
  /** The GPU texture behind a resource this pass declared (a function property, so it destructures). */
  readonly texture: (name: string) => GPUTexture;
  /** The GPU buffer behind a resource this pass declared. */
  readonly buffer: (name: string) => GPUBuffer;
}

/** A frame graph pass as its declaration: what it creates, reads and writes, by name. The graph orders, culls and allocates from these alone. */
export interface PassDecl {
  /** Unique in the graph; names the pass in errors and in `describe`. */
  name: string;
  /** Transient resources this pass creates (and writes first), by name. */
  creates?: Readonly<Record<string, ResourceDesc>>;
  /** Resources the pass reads, with how. */
  reads?: readonly ResourceAccess[];
  /** Resources the pass writes, with how (and whether it overwrites them entirely). */
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
  /** Records the pass's commands once its resources exist; called only when the pass is not culled. */
  execute(context: PassContext): void;
}

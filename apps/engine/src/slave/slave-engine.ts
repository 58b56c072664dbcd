// What the slave server needs of the engine: the Engine class has it all; tests drive the
// server with a small fake (a render that fails, a world that counts ticks) through the same
// shape.
import type { CameraInput } from '../runtime/camera.ts';
import type { Engine, RenderedFrame } from '../runtime/engine.ts';
import type { FlowScripts } from '../runtime/flow-scripts.ts';
import type { MemoryNode } from '../runtime/memory-tree.ts';
import type { LogFn } from '../runtime/world.ts';

export interface SlaveEngine {
  log: LogFn;
  readonly level: string;
  readonly generation: number;
  /** `flow`: the running Flow graphs (the debugger's); a reload may replace the world and them. */
  readonly world: { readonly title: string; listUnits(): unknown[]; readonly flow?: FlowScripts };
  readonly renderer: { ssao: boolean };
  /** Setting it throws an EngineError for a camera that cannot be drawn; the old one stays. */
  camera: CameraInput;
  reload(paths: readonly string[]): ReturnType<Engine['reload']>;
  tick(): void;
  /** The memory overview for `memory` subscribers (an engine without one refuses them). */
  memoryTree?(): MemoryNode;
  renderFrame(width: number, height: number): Promise<RenderedFrame>;
}

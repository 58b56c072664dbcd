// One column of the courtyard benchmark: a renderer with the courtyard built in it. Another
// column (three.js with @cuttle/three's adapters, say) is one more object of this shape in
// courtyard.gpu.ts's CONTENDERS.
import type { NodeGpu } from '@cuttle/test-utils/node-gpu';
import type { CourtyardView } from '../src/index.ts';

/** What every column builds: the frame.gpu.ts courtyard at full size, or a lavapipe-sized one. */
export interface CourtyardContent {
  characters: number;
  lights: number;
  fluid: number;
  lightRange: readonly [number, number];
}

export interface Contender {
  /** The column's name in the table. */
  readonly name: string;
  /** Builds the renderer and the courtyard on `gpu`'s device (once, before any frame). */
  build(gpu: NodeGpu, content: CourtyardContent): Promise<void>;
  /**
   * The frame's JavaScript: animates the courtyard to `time` seconds and renders `view` (at its
   * size) into an offscreen target, submitting the GPU work. Does not wait for the GPU.
   */
  frame(time: number, view: CourtyardView): void;
  /** The last frame's pixels, RGBA8, rows top first (waits for the GPU). */
  read(): Promise<Uint8Array>;
  destroy(): Promise<void> | void;
}

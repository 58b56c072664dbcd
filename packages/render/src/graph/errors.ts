import { RenderError } from '../errors.ts';

/** A frame graph that cannot run: thrown when it is compiled, before any GPU work, naming the passes and resources. */
export class FrameGraphError extends RenderError {
  /** Always `'FrameGraphError'`. */
  override readonly name: string = 'FrameGraphError';
}

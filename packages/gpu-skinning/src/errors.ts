import type { VertexIssue } from './api.ts';

/** Thrown for bad arguments to a public function of `@cuttle/gpu-skinning`. */
export class GpuSkinningError extends Error {
  /** Always `'GpuSkinningError'`. */
  override readonly name = 'GpuSkinningError';
  /** What was refused, when the error comes from checking vertex data (empty otherwise). */
  readonly problems: readonly VertexIssue[];

  constructor(message: string, problems: readonly VertexIssue[] = []) {
    super(message);
    this.problems = problems;
  }
}

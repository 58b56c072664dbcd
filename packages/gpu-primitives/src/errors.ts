/** Thrown for bad arguments to a public function of `@cuttle/gpu-primitives`. */
export class GpuPrimitivesError extends Error {
  /** Always `'GpuPrimitivesError'`. */
  override readonly name = 'GpuPrimitivesError';
}

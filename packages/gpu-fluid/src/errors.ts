/** Thrown for bad arguments to a public function of `@cuttle/gpu-fluid`. */
export class GpuFluidError extends Error {
  /** Always `'GpuFluidError'`. */
  override readonly name = 'GpuFluidError';
}

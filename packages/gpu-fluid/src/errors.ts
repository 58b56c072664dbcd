/** Thrown for bad arguments to a public function of @cuttle/gpu-fluid. */
export class GpuFluidError extends Error {
  override readonly name = 'GpuFluidError';
}

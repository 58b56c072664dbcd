/** Thrown for bad arguments to a public function of @cuttle/gpu-primitives. */
export class GpuPrimitivesError extends Error {
  override readonly name = 'GpuPrimitivesError';
}

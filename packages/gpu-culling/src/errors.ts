/** Thrown for bad arguments to a public function of @cuttle/gpu-culling; nothing was changed or recorded. */
export class GpuCullingError extends Error {
  override readonly name = 'GpuCullingError';
}

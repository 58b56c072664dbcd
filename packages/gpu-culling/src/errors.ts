/** Thrown for bad arguments to a public function of `@cuttle/gpu-culling`; nothing was changed or recorded. */
export class GpuCullingError extends Error {
  /** Always `'GpuCullingError'`. */
  override readonly name = 'GpuCullingError';
}

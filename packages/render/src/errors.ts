/** Thrown for bad arguments to a public function of `@cuttle/render`; nothing was changed or recorded. */
export class RenderError extends Error {
  /** Always `'RenderError'`. */
  override readonly name: string = 'RenderError';
}

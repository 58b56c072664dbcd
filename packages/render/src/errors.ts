/** Thrown for bad arguments to a public function of @cuttle/render; nothing was changed or recorded. */
export class RenderError extends Error {
  override readonly name: string = 'RenderError';
}

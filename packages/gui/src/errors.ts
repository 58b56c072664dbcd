/**
 * Thrown for bad arguments to a public function of @cuttle/gui and for malformed font or image
 * files. File errors name where the problem is: `line` for the text and XML font formats,
 * `offset` (bytes) for binary ones.
 */
export class GuiError extends Error {
  override readonly name = 'GuiError';
  readonly line: number | undefined;
  readonly offset: number | undefined;

  constructor(message: string, where: { line?: number; offset?: number } = {}) {
    super(message);
    this.line = where.line;
    this.offset = where.offset;
  }
}

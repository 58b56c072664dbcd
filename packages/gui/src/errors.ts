/**
 * Thrown for bad arguments to a public function of @cuttle/gui and for malformed font or image
 * files. File errors name where the problem is: `line` and `column` (both from 1) for the text
 * and XML font formats, `offset` (bytes) for binary ones.
 */
export class GuiError extends Error {
  override readonly name = 'GuiError';
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly offset: number | undefined;

  constructor(message: string, where: { line?: number; column?: number; offset?: number } = {}) {
    super(message);
    this.line = where.line;
    this.column = where.column;
    this.offset = where.offset;
  }
}

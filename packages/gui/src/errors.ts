/**
 * Thrown for bad arguments to a public function of `@cuttle/gui` and for malformed font or image
 * files. File errors name where the problem is: `line` and `column` (both from 1) for the text
 * and XML font formats, `offset` (bytes) for binary ones.
 */
export class GuiError extends Error {
  /** Always `'GuiError'`. */
  override readonly name = 'GuiError';
  /** Line of the problem in a text or XML font file, from 1; undefined for other errors. */
  readonly line: number | undefined;
  /** Column of the problem in a text or XML font file, from 1; undefined for other errors. */
  readonly column: number | undefined;
  /** Byte offset of the problem in a binary file (binary `.fnt`, PNG, TGA); undefined for other errors. */
  readonly offset: number | undefined;

  constructor(message: string, where: { line?: number; column?: number; offset?: number } = {}) {
    super(message);
    this.line = where.line;
    this.column = where.column;
    this.offset = where.offset;
  }
}

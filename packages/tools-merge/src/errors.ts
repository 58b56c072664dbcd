/** Thrown for bad arguments to a public function of `@cuttle/tools-merge`. */
export class ToolsMergeError extends Error {
  /** Always `'ToolsMergeError'`. */
  override readonly name: string = 'ToolsMergeError';
}

/** Thrown by the SJSON/JSON parser: `line` and `column` are 1-based and point at the bad byte. */
export class SjsonParseError extends ToolsMergeError {
  /** Always `'SjsonParseError'`. */
  override readonly name = 'SjsonParseError';
  /** Line of the bad byte, from 1. */
  readonly line: number;
  /** Column of the bad byte, from 1. */
  readonly column: number;
  /** Offset of the bad byte in the text, in UTF-16 code units from 0. */
  readonly offset: number;
  constructor(what: string, line: number, column: number, offset: number, source?: string) {
    super(`${source === undefined ? '' : `${source}:`}${line}:${column}: ${what}`);
    this.line = line;
    this.column = column;
    this.offset = offset;
  }
}

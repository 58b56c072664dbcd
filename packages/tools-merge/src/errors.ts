/** Thrown for bad arguments to a public function of @cuttle/tools-merge. */
export class ToolsMergeError extends Error {
  override readonly name: string = 'ToolsMergeError';
}

/** Thrown by the SJSON/JSON parser: `line` and `column` are 1-based and point at the bad byte. */
export class SjsonParseError extends ToolsMergeError {
  override readonly name = 'SjsonParseError';
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  constructor(what: string, line: number, column: number, offset: number, source?: string) {
    super(`${source === undefined ? '' : `${source}:`}${line}:${column}: ${what}`);
    this.line = line;
    this.column = column;
    this.offset = offset;
  }
}

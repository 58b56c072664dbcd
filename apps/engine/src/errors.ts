// Typed errors of the engine. A CompileError names the source file, the line and column of the
// offending value and what to change; the compiler prints it and keeps the previous output.

export class EngineError extends Error {
  override readonly name: string = 'EngineError';
}

export class CompileError extends EngineError {
  override readonly name = 'CompileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}. ${fix}`);
  }
}

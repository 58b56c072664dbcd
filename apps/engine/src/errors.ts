// Typed errors of the engine. A CompileError names the source file, the line and column of the
// offending value and what to change; the compiler prints it and keeps the previous output.

export class EngineError extends Error {
  override readonly name: string = 'EngineError';
}

/**
 * Flow graphs whose update failed this frame (an event loop running into the step limit, say).
 * Every other instance was updated and the frame's other work done: a frame can still be shown.
 */
export class FlowUpdateError extends EngineError {
  override readonly name = 'FlowUpdateError';
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

/**
 * A manifest.json this compiler would not have written (an output outside the output folder,
 * or not named after its source): refused before any file it names is deleted or opened.
 */
export class ManifestError extends EngineError {
  override readonly name = 'ManifestError';
  constructor(
    readonly manifest: string,
    readonly entry: string,
    readonly problem: string,
  ) {
    super(`${manifest}: ${entry}: ${problem}. cuttle-engine compile does not write this; delete the output folder and compile again.`);
  }
}

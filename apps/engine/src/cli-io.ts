// Where the CLI's commands write: stdout, stderr, and how much stderr has not taken yet.

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Bytes written to stderr that it has not taken yet (a pipe whose reader is behind). */
  stderrQueued(): number;
  /** The terminal's width when stderr is one (a progress bar is drawn there), else undefined. */
  stderrColumns?(): number | undefined;
}

export const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  stderrQueued: () => process.stderr.writableLength,
  stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns || 80 : undefined),
};

/** Thrown for bad arguments to a public function of `@cuttle/flow` (runtime and registry). */
export class FlowError extends Error {
  /** Always `'FlowError'`. */
  override readonly name: string = 'FlowError';
}

/** What went wrong in a graph source; each issue carries one. */
export type FlowIssueCode =
  | 'parse'
  | 'bad-source'
  | 'unknown-type'
  | 'duplicate-node'
  | 'dangling-link'
  | 'wrong-socket-kind'
  | 'type-mismatch'
  | 'variable-cycle'
  | 'duplicate-link'
  | 'constant-and-link'
  | 'bad-constant'
  | 'unknown-variable'
  | 'bad-setting';

/** One problem in a graph, naming the node and socket it concerns where there is one. */
export interface FlowIssue {
  /** What kind of problem it is. */
  code: FlowIssueCode;
  /** The node id, or '' for graph-level problems. */
  node: string;
  /** The socket (or setting) name, or ''. */
  socket: string;
  /** The problem in words, naming the node and socket. */
  message: string;
}

/**
 * Thrown by the parser and the compiler. `issues` lists every problem found; `code`, `node`
 * and `socket` repeat the first, so a caller that only wants one can read them directly.
 */
export class FlowGraphError extends FlowError {
  /** Always `'FlowGraphError'`. */
  override readonly name: string = 'FlowGraphError';
  /** The first issue's code. */
  readonly code: FlowIssueCode;
  /** The first issue's node id, or `''`. */
  readonly node: string;
  /** The first issue's socket (or setting) name, or `''`. */
  readonly socket: string;
  /** Every problem found, at least one. */
  readonly issues: readonly FlowIssue[];

  constructor(issues: readonly FlowIssue[]) {
    const first = issues[0];
    if (!first) throw new FlowError('FlowGraphError needs at least one issue.');
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
    super(`${first.message}${more}`);
    this.code = first.code;
    this.node = first.node;
    this.socket = first.socket;
    this.issues = issues;
  }
}

/**
 * Thrown by a `FlowActionRecorder`'s action when its tape has no room for the record.
 * The update that called it is half done: restore the instance's state from before the update
 * and run it again where actions run for real (the host thread), or on a larger tape.
 */
export class FlowTapeFullError extends FlowError {
  /** Always `'FlowTapeFullError'`. */
  override readonly name: string = 'FlowTapeFullError';

  constructor(
    /** Floats left in the tape's range. */
    readonly left: number,
    /** Floats the record needed. */
    readonly needed: number,
  ) {
    super(`The action tape has ${left} floats left and the record needs ${needed}: give the tape more room, or run this instance's update where its actions run.`);
  }
}

/** Thrown for bad arguments to a public function of @cuttle/flow (runtime and registry). */
export class FlowError extends Error {
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
  code: FlowIssueCode;
  /** The node id, or '' for graph-level problems. */
  node: string;
  /** The socket (or setting) name, or ''. */
  socket: string;
  message: string;
}

/**
 * Thrown by the parser and the compiler. `issues` lists every problem found; `code`, `node`
 * and `socket` repeat the first, so a caller that only wants one can read them directly.
 */
export class FlowGraphError extends FlowError {
  override readonly name: string = 'FlowGraphError';
  readonly code: FlowIssueCode;
  readonly node: string;
  readonly socket: string;
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

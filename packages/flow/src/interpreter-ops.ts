// The node-record accessors and the pure-node evaluator for the instrumented interpreter
// (debug-interpreter.ts). flow-runtime.ts keeps its own module-private copies on purpose:
// imported (exported) functions are reached through module cells under tsx/Node's ESM, and the
// fast loop calling these ran 15% slower on the event-heavy benchmark (measured A/B against the
// loop with local copies). test/watch.test.ts and test/breakpoints.test.ts run random graphs
// through both interpreters and require identical logs, state and execution counts.
import { N, NODE_FIXED_WORDS, Op } from './blob-layout.ts';
import { FlowError } from './errors.ts';

/** Value of variable input `i` of node `p`: a dynamic slot, or an inline constant when the ref is negative. */
export function input(s: Int32Array, c: Float64Array, d: Float64Array, p: number, i: number): number {
  const ref = s[p + NODE_FIXED_WORDS + i]!;
  return ref >= 0 ? d[ref]! : c[~ref]!;
}

export function outputSlot(s: Int32Array, p: number, i: number): number {
  return s[p + NODE_FIXED_WORDS + s[p + N.inputs]! + i]!;
}

export function stateSlot(s: Int32Array, p: number, i: number): number {
  return s[p + NODE_FIXED_WORDS + s[p + N.inputs]! + s[p + N.outputs]! + i]!;
}

/** Word offset of the target list of event output `k` of node `p`, or 0 when it is unlinked. */
export function eventList(s: Int32Array, p: number, k: number): number {
  return s[s[p + N.events]! + k]!;
}

/**
 * Pushes the targets of a target list `[count, (node, input)*]`, last first so the first runs
 * first; returns the new stack pointer.
 */
export function pushTargets(stack: Int32Array, sp: number, s: Int32Array, list: number): number {
  if (list === 0) return sp;
  const count = s[list]!;
  if (sp + 2 * count > stack.length) {
    throw new FlowError(`Flow event stack overflow (${stack.length / 2} pending inputs): the graph fans out too deep; raise stackSize.`);
  }
  for (let t = count - 1; t >= 0; t--) {
    stack[sp] = s[list + 1 + 2 * t]!;
    stack[sp + 1] = s[list + 2 + 2 * t]!;
    sp += 2;
  }
  return sp;
}

/** Evaluates one pure node (math, and/or/not, compare) into its output slot. */
export function evaluatePure(s: Int32Array, c: Float64Array, d: Float64Array, q: number): void {
  const out = outputSlot(s, q, 0);
  const a = input(s, c, d, q, 0);
  switch (s[q]) {
    case Op.add: d[out] = a + input(s, c, d, q, 1); break;
    case Op.sub: d[out] = a - input(s, c, d, q, 1); break;
    case Op.mul: d[out] = a * input(s, c, d, q, 1); break;
    case Op.div: d[out] = a / input(s, c, d, q, 1); break;
    case Op.min: d[out] = Math.min(a, input(s, c, d, q, 1)); break;
    case Op.max: d[out] = Math.max(a, input(s, c, d, q, 1)); break;
    case Op.neg: d[out] = -a; break;
    case Op.abs: d[out] = Math.abs(a); break;
    case Op.sqrt: d[out] = Math.sqrt(a); break;
    case Op.floor: d[out] = Math.floor(a); break;
    case Op.sin: d[out] = Math.sin(a); break;
    case Op.cos: d[out] = Math.cos(a); break;
    case Op.lerp: {
      const b = input(s, c, d, q, 1);
      d[out] = a + (b - a) * input(s, c, d, q, 2);
      break;
    }
    case Op.clamp: d[out] = Math.min(Math.max(a, input(s, c, d, q, 1)), input(s, c, d, q, 2)); break;
    case Op.and: d[out] = a !== 0 && input(s, c, d, q, 1) !== 0 ? 1 : 0; break;
    case Op.or: d[out] = a !== 0 || input(s, c, d, q, 1) !== 0 ? 1 : 0; break;
    case Op.not: d[out] = a === 0 ? 1 : 0; break;
    case Op.compare: {
      const b = input(s, c, d, q, 1);
      const op = s[q + N.extra];
      d[out] = (op === 0 ? a < b : op === 1 ? a <= b : op === 2 ? a === b : op === 3 ? a !== b : op === 4 ? a >= b : a > b) ? 1 : 0;
      break;
    }
    default: throw new FlowError(`Node type id ${s[q]} at word ${q} is not a pure node: the flow file is damaged; recompile it.`);
  }
}

/** Evaluates the pure nodes of a prelude list `[count, node*]` in order; returns the count. */
export function evaluatePrelude(s: Int32Array, c: Float64Array, d: Float64Array, prelude: number): number {
  const count = s[prelude]!;
  for (let i = 1; i <= count; i++) evaluatePure(s, c, d, s[prelude + i]!);
  return count;
}

// Connecting pins: the checks a view runs while the user drags a link (refused at the pin, with
// both pins and types named), then the link itself. A data input reads one output, so linking
// it again replaces the old link (and its inline constant) in the same step.
import { assignable } from '@cuttle/flow';
import type { FlowPin, FlowPinDirection, FlowPinRef } from './api.ts';
import type { DocumentState } from './document-state.ts';
import { FlowConnectError, FlowEditorError, pinTypeName } from './errors.ts';
import { findPin } from './node-pins.ts';
import { withoutKey } from './own.ts';
import { linkKey, type LinkRecord } from './records.ts';
import type { Transaction } from './transaction.ts';

/** A connection the document would accept: the output, the input, and the link it would replace. */
export interface FlowConnection {
  /** The output pin, whichever order the pins were given in. */
  readonly from: FlowPin;
  /** The input pin. */
  readonly to: FlowPin;
  /** The data link now on the input, which connecting removes. */
  readonly replaces: LinkRecord | undefined;
}

function checkRef(ref: unknown, what: string): Readonly<FlowPinRef> {
  const r = ref as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null || typeof r.node !== 'string' || typeof r.pin !== 'string' || (r.kind !== undefined && r.kind !== 'event' && r.kind !== 'data')) {
    throw new FlowEditorError('bad-argument', `${what} must be { node, pin, kind? }, got ${JSON.stringify(ref)}.`);
  }
  return { node: r.node, pin: r.pin, kind: r.kind };
}

function lookup(state: DocumentState, ref: Readonly<FlowPinRef>, direction: FlowPinDirection): FlowPin | 'ambiguous' | undefined {
  const pins = state.pins(ref.node);
  return pins === undefined ? undefined : findPin(pins, direction, ref.pin, ref.kind);
}

/**
 * Whether `a` and `b` may be linked, in either order (the drag may start at the input). Throws a
 * FlowConnectError naming both pins and their types when not.
 */
export function checkConnection(state: DocumentState, aRef: unknown, bRef: unknown): FlowConnection {
  let a = checkRef(aRef, 'The first pin');
  let b = checkRef(bRef, 'The second pin');
  for (const ref of [a, b]) {
    if (!state.nodes.has(ref.node)) throw new FlowConnectError('unknown-node', a, undefined, b, undefined, `there is no node "${ref.node}".`);
  }
  let from = lookup(state, a, 'output');
  let to = lookup(state, b, 'input');
  if (from === undefined || to === undefined) {
    const swappedFrom = lookup(state, b, 'output');
    const swappedTo = lookup(state, a, 'input');
    if (swappedFrom !== undefined && swappedTo !== undefined) {
      [a, b, from, to] = [b, a, swappedFrom, swappedTo];
    }
  }
  if (from === 'ambiguous' || to === 'ambiguous') {
    throw new FlowConnectError('ambiguous-pin', a, undefined, b, undefined, 'a node has an event pin and a data pin of that name; say which with kind.');
  }
  const typeOf = (pin: FlowPin | undefined): ReturnType<typeof pinTypeName> => (pin === undefined ? undefined : pinTypeName(pin.kind, pin.valueType));
  if (from === undefined || to === undefined) {
    // Say what the pins are, so "both are inputs" reads as such.
    const aIn = lookup(state, a, 'input');
    const bOut = lookup(state, b, 'output');
    const aAny = from ?? (aIn === 'ambiguous' ? undefined : aIn);
    const bAny = to ?? (bOut === 'ambiguous' ? undefined : bOut);
    if (aAny === undefined || bAny === undefined) {
      const missing = aAny === undefined ? a : b;
      throw new FlowConnectError('unknown-pin', a, typeOf(aAny), b, typeOf(bAny), `node "${missing.node}" (${state.nodes.get(missing.node)!.type}) has no pin "${missing.pin}".`);
    }
    throw new FlowConnectError('wrong-direction', a, typeOf(aAny), b, typeOf(bAny), `both are ${aAny.direction}s; a link goes from an output to an input.`);
  }
  const fromType = typeOf(from);
  const toType = typeOf(to);
  if (!from.known || !to.known) {
    throw new FlowConnectError('unknown-type', a, fromType, b, toType, `the type of node "${(from.known ? to : from).node}" is not in the registry, so its pins cannot be checked.`);
  }
  if (from.kind !== to.kind) {
    throw new FlowConnectError('wrong-pin-kind', a, fromType, b, toType, `an ${from.kind === 'event' ? 'event output fires event inputs' : 'output value feeds data inputs'}; event and data pins do not link.`);
  }
  if (from.kind === 'data' && !assignable(from.valueType!, to.valueType!)) {
    throw new FlowConnectError('type-mismatch', a, fromType, b, toType, `${from.valueType} does not convert to ${to.valueType} (links need equal types, or int into float).`);
  }
  for (const link of state.linksOf(to.node)) {
    if (link.kind === from.kind && link.from.node === from.node && link.from.pin === from.name && link.to.node === to.node && link.to.pin === to.name) {
      throw new FlowConnectError('duplicate-link', a, fromType, b, toType, 'they are already linked.');
    }
  }
  return { from, to, replaces: from.kind === 'data' ? state.linkInto(to.node, to.name) : undefined };
}

export function connect(state: DocumentState, tx: Transaction, a: unknown, b: unknown): LinkRecord {
  const { from, to, replaces } = checkConnection(state, a, b);
  if (replaces !== undefined) state.removeLink(tx, replaces.id);
  const target = state.nodes.get(to.node)!;
  if (from.kind === 'data' && Object.hasOwn(target.inputs, to.name)) {
    // An input reads its link or its constant, not both: the constant goes, undo brings it back.
    state.replaceNode(tx, { ...target, inputs: withoutKey(target.inputs, to.name) }, true);
  }
  const fromText = `${from.node}.${from.name}`;
  const toText = `${to.node}.${to.name}`;
  let repeat = 1;
  while (state.links.has(linkKey(from.kind, fromText, toText, repeat))) repeat++;
  const link: LinkRecord = { id: linkKey(from.kind, fromText, toText, repeat), kind: from.kind, from: { node: from.node, pin: from.name }, to: { node: to.node, pin: to.name }, raw: undefined };
  state.insertLink(tx, link);
  return link;
}

export function disconnect(state: DocumentState, tx: Transaction, ids: readonly string[]): void {
  for (const id of ids) if (!state.links.has(id)) throw new FlowEditorError('unknown-link', `No link "${id}" in the graph.`);
  for (const id of ids) state.removeLink(tx, id);
}

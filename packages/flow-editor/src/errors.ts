import type { FlowValueType } from '@cuttle/flow';
import type { FlowPinKind, FlowPinRef } from './api.ts';

/** What an editor command or the source reader refused. */
export type FlowEditorErrorCode =
  | 'parse'
  | 'bad-source'
  | 'bad-argument'
  | 'unknown-node'
  | 'unknown-type'
  | 'unknown-pin'
  | 'ambiguous-pin'
  | 'wrong-direction'
  | 'wrong-pin-kind'
  | 'type-mismatch'
  | 'duplicate-link'
  | 'input-linked'
  | 'bad-value'
  | 'unknown-setting'
  | 'unknown-link'
  | 'unknown-comment'
  | 'unknown-group'
  | 'bad-id'
  | 'duplicate-id'
  | 'bad-clipboard';

/** Thrown by `@cuttle/flow-editor`; a command that throws leaves the document as it was. */
export class FlowEditorError extends Error {
  /** Always `'FlowEditorError'`. */
  override readonly name: string = 'FlowEditorError';
  /** What went wrong, for code to branch on (the message says it for people). */
  readonly code: FlowEditorErrorCode;

  constructor(code: FlowEditorErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The type of a pin end in a refused connection: a value type, 'event', or undefined when the pin does not exist. */
export type FlowPinTypeName = FlowValueType | 'event' | undefined;

/** A refused connection: names both pins and their types. */
export class FlowConnectError extends FlowEditorError {
  /** Always `'FlowConnectError'`. */
  override readonly name: string = 'FlowConnectError';
  /** The pin the connection was asked from. */
  readonly from: Readonly<FlowPinRef>;
  /** The pin the connection was asked to. */
  readonly to: Readonly<FlowPinRef>;
  /** Type of the `from` pin: a value type, `'event'`, or undefined when it does not exist. */
  readonly fromType: FlowPinTypeName;
  /** Type of the `to` pin: a value type, `'event'`, or undefined when it does not exist. */
  readonly toType: FlowPinTypeName;

  constructor(code: FlowEditorErrorCode, from: Readonly<FlowPinRef>, fromType: FlowPinTypeName, to: Readonly<FlowPinRef>, toType: FlowPinTypeName, why: string) {
    super(code, `Cannot connect "${from.node}.${from.pin}" (${fromType ?? 'no such pin'}) to "${to.node}.${to.pin}" (${toType ?? 'no such pin'}): ${why}`);
    this.from = { ...from };
    this.to = { ...to };
    this.fromType = fromType;
    this.toType = toType;
  }
}

/** The type name a connection error reports for a pin. */
export function pinTypeName(kind: FlowPinKind, valueType: FlowValueType | undefined): FlowPinTypeName {
  return kind === 'event' ? 'event' : valueType;
}

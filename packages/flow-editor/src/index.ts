export { FlowDocument } from './flow-document.ts';
export { FlowPalette, type FlowPaletteEntry, type FlowPalettePin } from './palette.ts';
export { FLOW_PIN_COLOURS, pinColour } from './pin-colours.ts';
export { FlowConnectError, FlowEditorError, type FlowEditorErrorCode, type FlowPinTypeName } from './errors.ts';
export type { FlowConnection } from './link-commands.ts';
export type { AddNodeOptions } from './node-commands.ts';
export type {
  FlowCommentEdit,
  FlowDocumentChange,
  FlowDocumentOptions,
  FlowEditorComment,
  FlowEditorGroup,
  FlowEditorLink,
  FlowEditorNode,
  FlowEditorVariable,
  FlowGraphHeader,
  FlowGroupEdit,
  FlowNodePins,
  FlowPasteOptions,
  FlowPin,
  FlowPinDirection,
  FlowPinKind,
  FlowPinRef,
  FlowPoint,
  FlowRect,
  FlowSelection,
  FlowValidation,
} from './api.ts';

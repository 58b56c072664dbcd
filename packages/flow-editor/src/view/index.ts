export { FlowEditorView, type FlowEditorViewOptions } from './flow-editor-view.ts';
export { GraphLayout, type PinHit } from './graph-layout.ts';
export { Viewport, clampZoom, wheelZoomFactor, MIN_ZOOM, MAX_ZOOM, type ViewportState } from './viewport.ts';
export { ViewSelection, type SelectionKind } from './selection.ts';
export {
  NODE_WIDTH,
  NODE_HEADER,
  PIN_ROW,
  NODE_PADDING,
  PIN_HIT_RADIUS,
  nodeRows,
  nodeHeight,
  nodeRect,
  pinAnchor,
  linkPath,
  rectFromCorners,
  rectsIntersect,
  rectContainsPoint,
  unionRect,
} from './geometry.ts';
export { type FlowBreakpointListener } from './debug-overlay.ts';
export { NodeActivity } from './node-activity.ts';
export { PinValueTable, compactNumber, formatPinValue, type FlowNodeCounts, type FlowPinValue, type FlowPinValues } from './pin-values.ts';

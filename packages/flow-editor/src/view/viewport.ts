// The camera of the view: a pan offset in screen pixels and a zoom, screen = graph * zoom + pan.
// Zooming keeps the graph point under the pointer where it is, as every node editor does.
import type { FlowPoint, FlowRect } from '../api.ts';
import { FlowEditorError } from '../errors.ts';

/** Smallest zoom (graph units to pixels) the view allows. */
export const MIN_ZOOM = 0.05;
/** Largest zoom (graph units to pixels) the view allows. */
export const MAX_ZOOM = 3;

/** The camera's pan and zoom, as saved and restored: screen = graph × zoom + (x, y). */
export interface ViewportState {
  /** Horizontal pan in the view's pixels. */
  readonly x: number;
  /** Vertical pan in the view's pixels. */
  readonly y: number;
  /** Pixels per graph unit, {@link MIN_ZOOM} to {@link MAX_ZOOM}. */
  readonly zoom: number;
}

function finite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new FlowEditorError('bad-argument', `${name} must be a finite number, got ${String(value)}.`);
  return value;
}

/** The view's camera: a pan offset in pixels and a zoom, screen = graph × zoom + pan. Zooming keeps the graph point under the pointer in place. */
export class Viewport {
  /** Horizontal pan in pixels. */
  x = 0;
  /** Vertical pan in pixels. */
  y = 0;
  /** Pixels per graph unit. */
  zoom = 1;

  /** A copy of the pan and zoom. */
  get state(): ViewportState {
    return { x: this.x, y: this.y, zoom: this.zoom };
  }

  /** Sets pan and zoom (zoom clamped to MIN_ZOOM..MAX_ZOOM). */
  set(state: ViewportState): void {
    this.x = finite(state.x, 'x');
    this.y = finite(state.y, 'y');
    this.zoom = clampZoom(finite(state.zoom, 'zoom'));
  }

  /** The graph point at a position in the view's pixels. */
  toGraph(screenX: number, screenY: number): FlowPoint {
    return { x: (screenX - this.x) / this.zoom, y: (screenY - this.y) / this.zoom };
  }

  /** The position in the view's pixels of a graph point. */
  toScreen(graphX: number, graphY: number): FlowPoint {
    return { x: graphX * this.zoom + this.x, y: graphY * this.zoom + this.y };
  }

  /** Pans by (dx, dy) pixels. Throws `FlowEditorError` (`'bad-argument'`) for a value that is not finite. */
  panBy(dx: number, dy: number): void {
    this.x += finite(dx, 'dx');
    this.y += finite(dy, 'dy');
  }

  /** Multiplies the zoom by `factor`, keeping the graph point under (screenX, screenY) in place. */
  zoomAt(screenX: number, screenY: number, factor: number): void {
    if (!(factor > 0) || !Number.isFinite(factor)) throw new FlowEditorError('bad-argument', `A zoom factor must be a positive number, got ${String(factor)}.`);
    const before = this.toGraph(screenX, screenY);
    this.zoom = clampZoom(this.zoom * factor);
    this.x = screenX - before.x * this.zoom;
    this.y = screenY - before.y * this.zoom;
  }

  /** The graph rectangle a screen of this size shows. */
  visibleRect(width: number, height: number): FlowRect {
    return { x: -this.x / this.zoom, y: -this.y / this.zoom, width: width / this.zoom, height: height / this.zoom };
  }

  /** Shows all of `bounds` in a screen of this size with a margin in pixels, zoomed no further in than 1. */
  fit(bounds: FlowRect, width: number, height: number, margin = 40): void {
    const zoom = clampZoom(Math.min(1, (width - 2 * margin) / Math.max(1, bounds.width), (height - 2 * margin) / Math.max(1, bounds.height)));
    this.zoom = zoom;
    this.x = (width - bounds.width * zoom) / 2 - bounds.x * zoom;
    this.y = (height - bounds.height * zoom) / 2 - bounds.y * zoom;
  }

  /** Puts graph point `p` at the centre of a screen of this size. */
  centreOn(p: FlowPoint, width: number, height: number): void {
    this.x = width / 2 - p.x * this.zoom;
    this.y = height / 2 - p.y * this.zoom;
  }
}

/** `zoom` clamped to {@link MIN_ZOOM} to {@link MAX_ZOOM}. */
export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Zoom factor for a wheel delta in pixels: smooth for trackpads, about 10% per mouse notch. */
export function wheelZoomFactor(deltaY: number): number {
  return Math.exp(-Math.max(-100, Math.min(100, deltaY)) * 0.001);
}

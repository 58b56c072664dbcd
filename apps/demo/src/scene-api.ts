// The contract between the demo shell and a showcase scene. A package's scene lives in
// src/scenes/<name>/index.ts and exports `scene`; the shell finds it by glob, so adding a
// scene touches no shared file.

export interface SceneContext {
  device: GPUDevice;
  canvas: HTMLCanvasElement;
  /** The canvas format: render pipelines drawing to the frame target use it. */
  format: GPUTextureFormat;
  /** An empty panel beside the canvas for the scene's controls and readouts. */
  panel: HTMLElement;
  /** Whether the device has timestamp-query (GPU timings on screen). */
  hasTimestamps: boolean;
}

export interface FrameInfo {
  /** Seconds since the scene started. */
  time: number;
  /** Seconds since the previous frame, clamped to 0.1 so a hidden tab does not explode. */
  dt: number;
  frame: number;
  width: number;
  height: number;
  /** The canvas texture for this frame: render into it. */
  target: GPUTextureView;
  encoder: GPUCommandEncoder;
}

export interface SceneInstance {
  /** Records this frame's GPU work into `info.encoder`; the shell submits it. */
  frame(info: FrameInfo): void;
  /** Short readouts (e.g. `{ particles: '1,000,000', step: '1.9 ms' }`) shown in the status bar. */
  stats?(): Record<string, string>;
  destroy(): void;
}

export interface SceneDefinition {
  /** URL-safe id: the shell opens it at #<id>. */
  id: string;
  title: string;
  /** Which package the scene shows off, e.g. '@cuttle/ecs'. */
  package: string;
  description: string;
  create(context: SceneContext): SceneInstance | Promise<SceneInstance>;
}

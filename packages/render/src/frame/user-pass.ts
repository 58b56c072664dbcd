// Passes a user adds to every frame, at named points, reading and writing the frame graph's
// named resources (RESOURCES) and creating their own.
import type { RenderCamera } from '../api.ts';
import type { PassContext, PassDecl } from '../graph/pass.ts';

/** Where in the frame a user pass runs. */
export const RENDER_POINTS = [
  /** The opaque surfaces are in the depth (and the deferred path's G-buffer and motion); before culling and SSAO. */
  'after-opaque',
  /** The opaque surfaces (and the fluid) are lit into 'hdr'; before the transparents. */
  'after-lighting',
  /** 'hdr' is complete (transparents too); before tone mapping. */
  'before-tonemap',
  /** The tone-mapped frame is in 'target'; before the GUI overlays. */
  'after-tonemap',
  /** Last, over the GUI overlays. */
  'overlay',
] as const;

/** A named point in the frame where user passes run: an element of {@link RENDER_POINTS}. */
export type RenderPoint = (typeof RENDER_POINTS)[number];

/** What a user pass records with: the graph's context and the frame's size and camera. */
export interface UserPassContext extends PassContext {
  /** Width of the frame in pixels. */
  readonly width: number;
  /** Height of the frame in pixels. */
  readonly height: number;
  /** The frame's camera. */
  readonly camera: RenderCamera;
  /** The view of the caller's target (draw here after tone mapping when the target came without its texture). */
  readonly targetView: GPUTextureView;
  /** The target's format. */
  readonly format: GPUTextureFormat;
}

/** A pass added to every frame at a named point, reading and writing the frame graph's named resources and creating its own. */
export interface UserPass extends Omit<PassDecl, 'execute' | 'point'> {
  /** Where in the frame the pass runs. */
  point: RenderPoint;
  /** Records the pass's commands; called each frame the pass is not culled. */
  execute(context: UserPassContext): void;
}

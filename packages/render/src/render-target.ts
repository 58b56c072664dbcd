// What a frame is drawn into: the caller's target, and GUI overlays drawn over it.
import type { Gui, GuiRenderer } from '@cuttle/gui';

/** What `Renderer.render` draws a frame into. */
export interface RenderTarget {
  /** The view the tone-mapped frame lands in (format = options.format). */
  view: GPUTextureView;
  /** Width of `view` in pixels. */
  width: number;
  /** Height of `view` in pixels. */
  height: number;
  /**
   * The texture of `view`, optional. When it has STORAGE_BINDING usage and a format storage
   * textures allow (rgba8unorm, rgba16float, rgba32float, or bgra8unorm on a device with
   * 'bgra8unorm-storage'), tone mapping runs as a compute pass writing it (1.4 ms faster at 4K
   * on an H100 than the full-screen draw); `view` must then show its whole first mip level.
   * User passes that read or write the target by texture need it.
   */
  texture?: GPUTexture;
}

/** A `@cuttle/gui` Gui drawn over the tone-mapped frame by its GuiRenderer (made for the same format). */
export interface GuiOverlay {
  /** The Gui to draw. */
  gui: Gui;
  /** The GuiRenderer that draws it, made for the target's format. */
  renderer: GuiRenderer;
}

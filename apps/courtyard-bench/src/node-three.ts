// three.js's WebGPURenderer in plain Node on Dawn, offscreen (the shims from @cuttle/test-utils),
// as packages/three/test/three-node.ts runs it, with one difference: frames go through three's
// output pass (tone mapping and the sRGB encoding) into the target, as they would to a canvas,
// because the target is the renderer's *output* target.
import { installBrowserShims, runAnimationFrames } from '@cuttle/test-utils/browser-shims';
import { RenderTarget, WebGPURenderer, type Camera, type Scene } from 'three/webgpu';

export interface NodeThree {
  renderer: WebGPURenderer;
  /** The target frames land in now (rgba8unorm, tone-mapped and sRGB-encoded by three's output pass). */
  readonly target: RenderTarget;
  /** Draws into a target of this size from now on (one target per size, kept). */
  resize(width: number, height: number): void;
  /** Runs three's animation-frame callbacks, then renders `scene` into the target. */
  render(scene: Scene, camera: Camera): void;
  /** The target's pixels, RGBA8, rows top first. */
  read(): Promise<Uint8Array>;
  dispose(): Promise<void>;
}

export async function nodeThree(device: GPUDevice, width: number, height: number): Promise<NodeThree> {
  installBrowserShims();
  const canvas = { width, height, style: {} } as unknown as HTMLCanvasElement;
  const renderer = new WebGPURenderer({ device, canvas, antialias: false });
  await renderer.init();
  const targets = new Map<string, RenderTarget>();
  let target = new RenderTarget(width, height);
  const use = (w: number, h: number): void => {
    const key = `${w}x${h}`;
    target = targets.get(key) ?? new RenderTarget(w, h);
    targets.set(key, target);
    // The drawing buffer's size too: ClusteredLighting fits its cluster grid to it when the
    // frame goes to the output target (the renderer's own render target is null then).
    renderer.setSize(w, h, false);
    renderer.setRenderTarget(null);
    renderer.setOutputRenderTarget(target);
  };
  use(width, height);
  return {
    renderer,
    get target() {
      return target;
    },
    resize: use,
    render: (scene, camera) => {
      runAnimationFrames();
      renderer.render(scene, camera);
    },
    read: async () => new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, target.width, target.height)).buffer),
    dispose: async () => {
      for (const each of targets.values()) each.dispose();
      await renderer.dispose();
    },
  };
}

// three.js's WebGPURenderer in plain Node on Dawn, for the tests: the shims it needs (no DOM),
// an offscreen RenderTarget, frames read back. The device comes from the caller (shared with
// our packages).
import { installBrowserShims, runAnimationFrames } from '@cuttle/test-utils/browser-shims';
import { DirectionalLight, PerspectiveCamera, RenderTarget, Scene, WebGPURenderer, type Camera } from 'three/webgpu';

export interface NodeThree {
  renderer: WebGPURenderer;
  target: RenderTarget;
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
  const target = new RenderTarget(width, height);
  renderer.setRenderTarget(target);
  return {
    renderer,
    target,
    render: (scene, camera) => {
      runAnimationFrames();
      renderer.render(scene, camera);
    },
    read: async () => new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, width, height)).buffer),
    dispose: async () => {
      target.dispose();
      await renderer.dispose();
    },
  };
}

export interface LitSceneOptions {
  /** Where the sun shines from (default 1, 2, 3). */
  sun?: [number, number, number];
  /** The camera: vertical field of view in degrees, aspect, position, the point it looks at. */
  fov: number;
  aspect: number;
  eye: [number, number, number];
  target?: [number, number, number];
}

/** A scene with one white sun (intensity 3) and a perspective camera: what each test draws into. */
export function litScene(options: LitSceneOptions): { scene: Scene; camera: PerspectiveCamera } {
  const scene = new Scene();
  const sun = new DirectionalLight(0xffffff, 3);
  sun.position.set(...(options.sun ?? [1, 2, 3]));
  scene.add(sun);
  const camera = new PerspectiveCamera(options.fov, options.aspect, 0.1, 100);
  camera.position.set(...options.eye);
  if (options.target) camera.lookAt(...options.target);
  return { scene, camera };
}

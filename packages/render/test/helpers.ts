// Shared by the renderer's tests: a small scene set up in a few lines, an offscreen target, and
// reading pixels where world points land.
import { readTexture } from '@cuttle/test-utils';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { boxMesh, planeMesh, Renderer, RenderScene, type RenderCamera, type RendererOptions } from '../src/index.ts';

export const WIDTH = 160;
export const HEIGHT = 120;

export function camera(eye: [number, number, number] = [0, 6, 10], target: [number, number, number] = [0, 0, 0]): RenderCamera {
  return { view: lookAt(eye, target), projection: perspective({ fovY: 0.9, aspect: WIDTH / HEIGHT, near: 0.1, far: Infinity, reversedZ: true }) };
}

export function translation(x: number, y: number, z: number): Float32Array {
  return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);
}

/** Pixel (x, y) where world point p lands. */
export function project(view: RenderCamera, p: [number, number, number]): [number, number] {
  const m = new Float64Array(16);
  const a = view.projection, b = view.view;
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) m[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
  const x = m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!;
  const y = m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!;
  const w = m[3]! * p[0] + m[7]! * p[1] + m[11]! * p[2] + m[15]!;
  return [Math.floor((x / w * 0.5 + 0.5) * WIDTH), Math.floor((0.5 - y / w * 0.5) * HEIGHT)];
}

/** A grey floor 20 units wide and a 1 x 2 x 1 box standing on it at the origin. */
export function floorAndBox(device: GPUDevice): { scene: RenderScene; floor: number; box: number; grey: number } {
  const scene = new RenderScene(device);
  const floor = scene.addMesh(planeMesh(20, 4));
  const box = scene.addMesh(boxMesh(0.5, 1, 0.5));
  const grey = scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 });
  scene.addInstance(floor, grey);
  scene.addInstance(box, grey, translation(0, 1, 0));
  return { scene, floor, box, grey };
}

export interface Frame {
  pixels: Uint8Array;
  at(p: [number, number, number]): [number, number, number];
}

/** Renders one frame offscreen (rgba8unorm) and reads it back. */
export async function renderFrame(device: GPUDevice, renderer: Renderer, scene: RenderScene, view: RenderCamera = camera()): Promise<Frame> {
  const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  renderer.render(encoder, scene, view, { view: target.createView(), width: WIDTH, height: HEIGHT });
  device.queue.submit([encoder.finish()]);
  const pixels = await readTexture(device, target, 4);
  return {
    pixels,
    at(p) {
      const [x, y] = project(view, p);
      const o = (y * WIDTH + x) * 4;
      return [pixels[o]!, pixels[o + 1]!, pixels[o + 2]!];
    },
  };
}

export function newRenderer(device: GPUDevice, options: Partial<RendererOptions> = {}): Renderer {
  return new Renderer(device, { format: 'rgba8unorm', shadowMapSize: 512, ...options });
}

export function brightness(rgb: readonly number[]): number {
  return (rgb[0]! + rgb[1]! + rgb[2]!) / 3;
}

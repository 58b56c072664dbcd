// The @cuttle/render column: the courtyard as packages/render/bench/frame.gpu.ts builds and draws
// it (buildCourtyard, the Renderer's default options, rgba8unorm targets with storage binding so
// the tone mapping runs in compute), one Renderer and target per frame size.
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { buildCourtyard, Renderer, RenderScene, type Courtyard } from '@cuttle/render';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import type { NodeGpu } from '@cuttle/test-utils/node-gpu';
import type { CourtyardView } from '../src/index.ts';
import type { Contender, CourtyardContent } from './contender.ts';

export class RenderContender implements Contender {
  readonly name = '@cuttle/render';
  #device: GPUDevice | undefined;
  #scene: RenderScene | undefined;
  #yard: Courtyard | undefined;
  #maxLights = 0;
  readonly #sizes = new Map<string, { renderer: Renderer; target: GPUTexture }>();
  #last: GPUTexture | undefined;

  build(gpu: NodeGpu, content: CourtyardContent): Promise<void> {
    this.#device = gpu.device;
    this.#scene = new RenderScene(gpu.device);
    this.#yard = buildCourtyard(this.#scene, content);
    this.#maxLights = content.lights + 64;
    return Promise.resolve();
  }

  #sized(width: number, height: number): { renderer: Renderer; target: GPUTexture } {
    const key = `${width}x${height}`;
    let entry = this.#sizes.get(key);
    if (!entry) {
      const device = this.#device!;
      entry = {
        renderer: new Renderer(device, { format: 'rgba8unorm', maxLights: this.#maxLights }),
        // COPY_SRC only for the saved first frame; storage as frame.gpu.ts (compute tone mapping).
        target: device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC }),
      };
      this.#sizes.set(key, entry);
    }
    return entry;
  }

  frame(time: number, view: CourtyardView): void {
    const device = this.#device!;
    const { renderer, target } = this.#sized(view.width, view.height);
    this.#yard!.animate(time);
    const camera = { view: lookAt(view.eye, view.target), projection: perspective({ fovY: view.fovY, aspect: view.width / view.height, near: view.near, far: Infinity, reversedZ: true }) };
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, this.#scene!, camera, { view: target.createView(), texture: target, width: view.width, height: view.height });
    device.queue.submit([encoder.finish()]);
    this.#last = target;
  }

  read(): Promise<Uint8Array> {
    if (!this.#last) throw new Error('no frame drawn yet');
    return readTexture(this.#device!, this.#last, 4);
  }

  destroy(): void {
    for (const { renderer, target } of this.#sizes.values()) {
      renderer.destroy();
      target.destroy();
    }
    this.#yard?.destroy();
    this.#scene?.destroy();
  }
}

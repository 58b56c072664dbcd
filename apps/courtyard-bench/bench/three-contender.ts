// The three.js columns: buildThreeCourtyard in one WebGPURenderer on the same device, its frames
// through three's output pass (ACES, sRGB) into an offscreen target per frame size; plain three,
// or three with @cuttle/three's adapters for the lights, the crowd and the fluid.
import type { NodeGpu } from '@cuttle/test-utils/node-gpu';
import { buildThreeCourtyard, nodeThree, type CourtyardView, type NodeThree, type ThreeCourtyard } from '../src/index.ts';
import type { Contender, CourtyardContent } from './contender.ts';

export class ThreeContender implements Contender {
  readonly name: string;
  readonly #adapters: boolean;
  #three: NodeThree | undefined;
  #yard: ThreeCourtyard | undefined;

  constructor(adapters = false) {
    this.#adapters = adapters;
    this.name = adapters ? 'three r187 + @cuttle/three' : 'three r187';
  }

  async build(gpu: NodeGpu, content: CourtyardContent): Promise<void> {
    this.#three = await nodeThree(gpu.device, 16, 16);
    this.#yard = buildThreeCourtyard(this.#three.renderer, { ...content, adapters: this.#adapters });
  }

  /** How many lights the lighting (three's ClusteredLighting, or the culled lights adapter) took in the last frame. */
  clusteredLights(): number {
    return this.#yard?.clusteredLightCount() ?? 0;
  }

  frame(time: number, view: CourtyardView): void {
    const three = this.#three!, yard = this.#yard!;
    if (three.target.width !== view.width || three.target.height !== view.height) three.resize(view.width, view.height);
    yard.animate(time);
    yard.setView(view);
    yard.beforeRender();
    three.render(yard.scene, yard.camera);
  }

  read(): Promise<Uint8Array> {
    return this.#three!.read();
  }

  async destroy(): Promise<void> {
    this.#yard?.destroy();
    await this.#three?.dispose();
  }
}

// The GPU objects behind a frame graph's transient resources, kept from frame to frame: a frame
// that compiles to the same objects gets the same textures and buffers (so bind groups made for
// them stay valid), and objects no frame asked for are destroyed after the next frame.
import type { GraphObject } from './compile.ts';
import { usageFlags } from './resources.ts';

interface Held {
  object: GPUTexture | GPUBuffer;
  usedIn: number;
}

/**
 * The GPU objects behind a frame graph's transient resources, kept from frame to frame: a frame that compiles to the same objects gets the same textures and buffers, and objects no frame asked for are destroyed after the next frame.
 */
export class TransientPool {
  readonly #device: GPUDevice;
  readonly #label: string;
  /** Objects by key; an object's place in its list is its index among the frame's objects of that key. */
  readonly #held = new Map<string, Held[]>();
  #frame = 0;

  constructor(device: GPUDevice, label = 'cuttle.frame-graph') {
    this.#device = device;
    this.#label = label;
  }

  /** The GPU objects for one frame's objects, in order (the same ones as last frame where the keys match). */
  acquire(objects: readonly GraphObject[]): (GPUTexture | GPUBuffer)[] {
    this.#frame++;
    const taken = new Map<string, number>();
    const result = objects.map((object) => {
      // Objects are kept by description and usage: a frame whose resources share differently
      // gets objects with the usage it needs.
      const key = `${object.key} ${usageFlags(object.desc, object.uses)}`;
      const k = taken.get(key) ?? 0;
      taken.set(key, k + 1);
      const list = this.#held.get(key) ?? [];
      this.#held.set(key, list);
      let held = list[k];
      if (!held) {
        held = { object: this.#create(object), usedIn: this.#frame };
        list.push(held);
      }
      held.usedIn = this.#frame;
      return held.object;
    });
    // What the previous frame used and this one did not is destroyed: the commands recorded for
    // the previous frame were submitted before this frame is recorded.
    for (const [key, list] of this.#held) {
      const kept = list.filter((held) => {
        if (held.usedIn >= this.#frame - 1) return true;
        held.object.destroy();
        return false;
      });
      if (kept.length === 0) this.#held.delete(key);
      else this.#held.set(key, kept);
    }
    return result;
  }

  /** Bytes held now. */
  get objectCount(): number {
    let count = 0;
    for (const list of this.#held.values()) count += list.length;
    return count;
  }

  /** Destroys every texture and buffer the pool holds. */
  destroy(): void {
    for (const list of this.#held.values()) for (const held of list) held.object.destroy();
    this.#held.clear();
  }

  #create(object: GraphObject): GPUTexture | GPUBuffer {
    const { desc } = object;
    const label = `${this.#label}.${object.resources.join('+')}`;
    if (desc.kind === 'buffer') return this.#device.createBuffer({ label, size: desc.size, usage: usageFlags(desc, object.uses) });
    return this.#device.createTexture({
      label,
      size: [desc.width, desc.height, desc.layers ?? 1],
      format: desc.format,
      mipLevelCount: desc.mipLevelCount ?? 1,
      usage: usageFlags(desc, object.uses),
    });
  }
}

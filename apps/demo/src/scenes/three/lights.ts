// A thousand small coloured PointLights drifting over the floor, shaded either by our
// CulledLighting (a depth prepass, @cuttle/gpu-culling's tiles, materials walking their tile's
// lights) or by three's own ClusteredLighting. Both are Lighting objects of the one renderer:
// three keys its render objects by the lights node, so setting renderer.lighting builds each
// material's pipeline for the new lighting on the next render, and the old ones stay cached
// for switching back.
import { CulledLighting } from '@cuttle/three';
import { ClusteredLighting } from 'three/addons/lighting/ClusteredLighting.js';
import { Color, Group, PointLight, type Camera, type Scene, type WebGPURenderer } from 'three/webgpu';

export type LightingKey = 'culled' | 'clustered';

export const LIGHTING_OPTIONS: Record<LightingKey, string> = {
  culled: 'CulledLighting (@cuttle/three)',
  clustered: "three's ClusteredLighting",
};

/** xorshift: the same lights every time the scene opens. */
function seeded(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

export class FloorLights {
  readonly group = new Group();
  readonly count: number;
  readonly #lights: PointLight[] = [];
  /** Per light: orbit centre x, height, z, orbit radius, angular speed, phase. */
  readonly #orbits: Float32Array;
  readonly #renderer: WebGPURenderer;
  readonly #culled: CulledLighting;
  readonly #clustered: ClusteredLighting;
  #current: LightingKey | undefined;

  /** `count` lights over a square floor of `half` metres each side of the centre. */
  constructor(renderer: WebGPURenderer, count: number, half: number) {
    const random = seeded(7);
    this.count = count;
    this.#renderer = renderer;
    this.#orbits = new Float32Array(count * 6);
    for (let i = 0; i < count; i++) {
      const range = 1 + random() * 2;
      const light = new PointLight(new Color().setHSL(random(), 0.85, 0.55), 0.8 + range * 0.5, range, 2);
      const o = i * 6;
      this.#orbits.set([(random() * 2 - 1) * half, 0.25 + random() * 0.6, (random() * 2 - 1) * half, 0.3 + random() * 1.2, (0.3 + random() * 0.7) * (random() < 0.5 ? -1 : 1), random() * Math.PI * 2], o);
      this.#lights.push(light);
      this.group.add(light);
    }
    this.#culled = new CulledLighting(renderer, { maxLights: 1024 });
    this.#clustered = new ClusteredLighting(1024);
  }

  /** Shades the lights with `key`'s lighting from the next render on. */
  use(key: LightingKey): void {
    if (key === this.#current) return;
    this.#current = key;
    this.#renderer.lighting = key === 'culled' ? this.#culled : this.#clustered;
  }

  /** Moves every light along its small orbit. */
  animate(time: number): void {
    const orbits = this.#orbits;
    for (let i = 0; i < this.count; i++) {
      const o = i * 6;
      const angle = orbits[o + 5]! + time * orbits[o + 4]!;
      this.#lights[i]!.position.set(orbits[o]! + Math.cos(angle) * orbits[o + 3]!, orbits[o + 1]! + Math.sin(angle * 1.7) * 0.15, orbits[o + 2]! + Math.sin(angle) * orbits[o + 3]!);
    }
  }

  /** Before `renderer.render(scene, camera)` into the target already set: our lighting culls against a depth prepass; three's clusters itself inside render. */
  beforeRender(scene: Scene, camera: Camera): void {
    if (this.#current === 'culled') this.#culled.update(scene, camera);
  }

  /** Tiles of the last culling (ours only). */
  get tiles(): string {
    const { tilesX, tilesY } = this.#culled.stats;
    return `${tilesX}×${tilesY}`;
  }

  /** Frees the lighting not in use; the renderer's dispose frees the one it holds. */
  dispose(): void {
    if (this.#current !== 'culled') this.#culled.dispose();
    if (this.#current !== 'clustered') this.#clustered.dispose();
  }
}

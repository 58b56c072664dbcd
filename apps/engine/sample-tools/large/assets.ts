// The binary files of the large project: GLB meshes (static ones of one to four primitives, and
// skinned walkers of varied density) and PNG textures (colour noise and normal maps) of the
// sizes real projects mix: mostly small, a few large.
import { encodePng } from '@cuttle/gui';
import { boxMesh, sphereMesh } from '@cuttle/render';
import { staticGlb, walkerGlb, type MeshPart } from '../gltf-writers.ts';
import type { Random } from './random.ts';

export async function staticMeshFile(random: Random): Promise<Uint8Array> {
  const parts: MeshPart[] = [];
  const count = random.int(1, 4);
  for (let i = 0; i < count; i++) {
    const mesh = random.next() < 0.5
      ? sphereMesh(random.range(0.2, 1.5), random.int(8, 40), random.int(16, 80))
      : boxMesh(random.range(0.2, 2), random.range(0.2, 2), random.range(0.2, 2));
    parts.push(i === 0 ? { mesh } : { mesh, translation: [random.range(-2, 2), random.range(0, 3), random.range(-2, 2)] });
  }
  return staticGlb(...parts);
}

export function skinnedMeshFile(random: Random): Promise<Uint8Array> {
  return walkerGlb({ rings: random.int(6, 24), sides: random.int(8, 32) });
}

const TEXTURE_SIZES = [128, 128, 128, 128, 256, 256, 256, 512, 512, 1024];

/** A tileable value-noise colour texture, or a normal map of ripples, as an RGBA PNG. */
export async function textureFile(random: Random, normalMap: boolean): Promise<Uint8Array> {
  const size = random.pick(TEXTURE_SIZES);
  const data = new Uint8Array(size * size * 4);
  const cells = random.int(2, 16);
  const lattice = new Float32Array(cells * cells);
  for (let i = 0; i < lattice.length; i++) lattice[i] = random.next();
  const tint = [random.range(0.3, 1), random.range(0.3, 1), random.range(0.3, 1)];
  const noise = (x: number, y: number): number => {
    const fx = (x / size) * cells, fy = (y / size) * cells;
    const x0 = Math.floor(fx), y0 = Math.floor(fy);
    const tx = fx - x0, ty = fy - y0;
    const at = (i: number, j: number): number => lattice[((j % cells) * cells + (i % cells))]!;
    const top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx;
    const bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx;
    return top * (1 - ty) + bottom * ty;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const o = (y * size + x) * 4;
      if (normalMap) {
        const dx = noise(x + 1, y) - noise(x, y), dy = noise(x, y + 1) - noise(x, y);
        const length = Math.hypot(dx * 8, dy * 8, 1);
        data[o] = ((dx * 8) / length) * 127.5 + 127.5;
        data[o + 1] = ((dy * 8) / length) * 127.5 + 127.5;
        data[o + 2] = (1 / length) * 127.5 + 127.5;
      } else {
        const v = noise(x, y) * 0.8 + 0.2 * (((x ^ y) & 7) / 7);
        data[o] = v * tint[0]! * 255;
        data[o + 1] = v * tint[1]! * 255;
        data[o + 2] = v * tint[2]! * 255;
      }
      data[o + 3] = 255;
    }
  }
  return encodePng({ width: size, height: size, channels: 4, data });
}

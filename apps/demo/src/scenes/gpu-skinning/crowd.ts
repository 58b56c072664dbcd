// Many walking copies of one character on the GPU: one GpuSkinning holding the mesh once and
// an instance (palette + output range) per walker, and the index buffer to draw them with.
import {
  GpuSkinning,
  MAX_LDS_BONES,
  buildSkinnedVertices,
  computePalette,
  createPaletteScratch,
  createPose,
  sampleClip,
  type PaletteScratch,
  type PassTimestamps,
  type Pose,
  type SkinnedInstance,
  type SkinningKernel,
  type VertexFormat,
} from '@cuttle/gpu-skinning';
import type { CrowdCharacter } from './crowd-character.ts';
import { CharacterLoadError } from './errors.ts';

export interface CrowdOptions {
  count: number;
  format: VertexFormat;
  kernel: SkinningKernel;
  lodInterval: number;
}

export class Crowd {
  readonly character: CrowdCharacter;
  readonly skinning: GpuSkinning;
  readonly instances: readonly SkinnedInstance[];
  readonly #indexBuffer: GPUBuffer;
  readonly #pose: Pose;
  readonly #scratch: PaletteScratch;
  readonly #palette: Float32Array;
  readonly #root: Float32Array;

  private constructor(character: CrowdCharacter, skinning: GpuSkinning, instances: SkinnedInstance[], indexBuffer: GPUBuffer) {
    this.character = character;
    this.skinning = skinning;
    this.instances = instances;
    this.#indexBuffer = indexBuffer;
    this.#pose = createPose(character.skeleton);
    this.#scratch = createPaletteScratch(character.skeleton);
    this.#palette = new Float32Array(character.skeleton.jointCount * 12);
    this.#root = new Float32Array(character.fit);
  }

  /** Uploads `count` walkers of `character`; throws CharacterLoadError (and leaves nothing allocated) when they do not fit. */
  static create(device: GPUDevice, character: CrowdCharacter, options: CrowdOptions): Crowd {
    const { count, format, kernel, lodInterval } = options;
    const bones = character.skeleton.jointCount;
    if (kernel === 'lds' && bones > MAX_LDS_BONES) {
      throw new CharacterLoadError(`${character.name} has ${bones} joints; the LDS kernel holds at most ${MAX_LDS_BONES} bones per palette. Set "bones from" to global and drop it again.`);
    }
    let vertices;
    try {
      ({ vertices } = buildSkinnedVertices(character.vertices, { format, paletteSize: bones, zeroWeights: 'first-joint' }));
    } catch (error) {
      throw new CharacterLoadError(`${character.name}'s skinned vertices were refused for the ${format} format: ${error instanceof Error ? error.message : String(error)}`);
    }
    let skinning: GpuSkinning | undefined;
    try {
      skinning = new GpuSkinning(device, { format, kernel, maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * count, maxBones: bones * count, maxInstances: count, lodInterval });
      const mesh = skinning.addMesh(vertices);
      const instances = Array.from({ length: count }, () => skinning!.addInstance({ mesh, palette: skinning!.createPalette(bones) }));
      const indexBuffer = device.createBuffer({ label: 'crowd indices', size: character.indices.byteLength, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(indexBuffer, 0, character.indices);
      return new Crowd(character, skinning, instances, indexBuffer);
    } catch (error) {
      skinning?.destroy();
      throw new CharacterLoadError(`${count.toLocaleString('en-US')} walkers of ${character.name} (${character.vertexCount.toLocaleString('en-US')} vertices, ${bones} joints each) do not fit: ${error instanceof Error ? error.message : String(error)} Choose fewer characters.`);
    }
  }

  /** Poses walker `index` at clip time `time`, standing at (x, 0, z) facing +z. */
  pose(index: number, time: number, x: number, z: number): void {
    const { character } = this;
    sampleClip(character.clip, time, this.#pose);
    this.#root[12] = character.fit[12]! + x;
    this.#root[14] = character.fit[14]! + z;
    this.skinning.writePalette(this.instances[index]!.palette, computePalette(character.skeleton, this.#pose, this.#palette, { rootTransform: this.#root, scratch: this.#scratch }));
  }

  skin(encoder: GPUCommandEncoder, timestamps?: PassTimestamps): void {
    this.skinning.skin(encoder, timestamps);
  }

  /** Draws every walker; the pipeline's vertex buffers follow skinnedVertexLayouts(format). */
  draw(pass: GPURenderPassEncoder): void {
    this.skinning.vertexBuffers.forEach((buffer, slot) => { pass.setVertexBuffer(slot, buffer); });
    pass.setIndexBuffer(this.#indexBuffer, 'uint32');
    const indexCount = this.character.indices.length;
    for (const instance of this.instances) pass.drawIndexed(indexCount, 1, 0, instance.outputVertex, instance.index);
  }

  destroy(): void {
    this.skinning.destroy();
    this.#indexBuffer.destroy();
  }
}

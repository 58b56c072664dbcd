// A crowd skinned once per frame by @cuttle/gpu-skinning, drawn by three.js: one instanced mesh
// whose vertex stage reads each vertex's skinned position and normal from the skinning's output
// buffer (adopted as a storage attribute: no copy), so three draws it with any node material in
// every pass (colour, shadow, depth) and never skins it again.
import type { GpuSkinning, SkinnedInstance } from '@cuttle/gpu-skinning';
import { Fn, instanceIndex, normalLocal, storage, vertexIndex } from 'three/tsl';
import { BufferAttribute, BufferGeometry, Mesh, MeshStandardNodeMaterial, StorageBufferAttribute, type WebGPURenderer } from 'three/webgpu';
import { adoptGpuBuffer, deviceOf } from './backend.ts';
import { ThreeError } from './errors.ts';

/** vec4s per output vertex in the 'f32' format: position (+ wind), normal (+ wind), tangent. */
const VEC4S_PER_VERTEX = 3;

/** Options of {@link SkinnedCrowd}'s constructor. */
export interface SkinnedCrowdOptions {
  /** The material (default a plain MeshStandardNodeMaterial); its positionNode is set to read the skinned vertices. */
  material?: MeshStandardNodeMaterial;
}

/** A crowd skinned once per frame by `@cuttle/gpu-skinning`, drawn by three.js as one instanced mesh whose vertex stage reads the skinned positions and normals from the skinning's output buffer (no copy), in every pass, with any node material. */
export class SkinnedCrowd extends Mesh<BufferGeometry, MeshStandardNodeMaterial> {
  /** The skinning whose output is drawn (format `'f32'`). */
  readonly skinning: GpuSkinning;
  /** The storage attribute whose GPU buffer is the skinning's output. */
  readonly skinned: StorageBufferAttribute;

  /**
   * `instances`: instances of one mesh, added one after another (their output ranges follow each
   * other); `indices`: that mesh's triangles. `skinning` must use the 'f32' format and live on
   * `renderer`'s device; skin it (`skinning.skin(encoder)`, submitted) before three renders.
   */
  constructor(renderer: WebGPURenderer, skinning: GpuSkinning, instances: readonly SkinnedInstance[], indices: Uint16Array | Uint32Array, options: SkinnedCrowdOptions = {}) {
    if (skinning.format !== 'f32') throw new ThreeError(`the skinning's format is '${skinning.format}'; SkinnedCrowd reads 'f32' output (new GpuSkinning(device, { format: 'f32', … })).`);
    const first = instances[0];
    if (!first) throw new ThreeError('instances is empty: give the crowd at least one instance.');
    const { vertexCount } = first;
    instances.forEach((instance, i) => {
      if (instance.mesh !== first.mesh) throw new ThreeError(`instance ${i} skins another mesh: a SkinnedCrowd draws copies of one mesh (make one crowd per mesh).`);
      if (instance.outputVertex !== first.outputVertex + i * vertexCount) throw new ThreeError(`instance ${i}'s output starts at vertex ${instance.outputVertex}, not ${first.outputVertex + i * vertexCount}: give the instances in the order they were added, with no other instance between them.`);
    });
    for (const index of indices) if (index >= vertexCount) throw new ThreeError(`index ${index} is past the mesh's ${vertexCount} vertices.`);
    // Refuses a renderer that is not initialized, or runs on WebGL, before anything is made.
    deviceOf(renderer);
    const output = skinning.vertexBuffers[0]!;
    const skinned = new StorageBufferAttribute(new Float32Array(4), 4);
    adoptGpuBuffer(renderer, skinned, output);
    const vertices = storage(skinned, 'vec4', output.size / 16);
    const material = options.material ?? new MeshStandardNodeMaterial({ color: 0xb0805a, roughness: 0.7 });
    // Each instance's copy of vertex v sits at first.outputVertex + instance * vertexCount + v.
    material.positionNode = Fn(() => {
      // instanceIndex and vertexIndex are TSL's shared node constants; @types/three types them as classes they were not constructed by.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
      const slot = instanceIndex.mul(vertexCount).add(vertexIndex).add(first.outputVertex).mul(VEC4S_PER_VERTEX);
      normalLocal.assign(vertices.element(slot.add(1)).xyz);
      return vertices.element(slot).xyz;
    })();
    // three wants a position attribute to size the draw; the positions come from the node.
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(vertexCount * 3), 3));
    geometry.setAttribute('normal', new BufferAttribute(new Float32Array(vertexCount * 3), 3));
    geometry.setIndex(new BufferAttribute(indices, 1));
    super(geometry, material);
    this.skinning = skinning;
    this.skinned = skinned;
    this.count = instances.length;
    // Where the characters are is known only on the GPU: no bounding sphere to cull by.
    this.frustumCulled = false;
  }
}

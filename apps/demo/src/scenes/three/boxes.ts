// A crowd of boxes walked round circles by an @cuttle/ecs system, their world matrices placed in
// an InstancedMesh by EcsInstances (a gather over the transform manager's flat arrays) or by
// three's own setMatrixAt(compose) per box, to compare what placing them costs.
import { Scene as EcsScene, updateTransforms, type Entity } from '@cuttle/ecs';
import { EcsInstances } from '@cuttle/three';
import { BoxGeometry, InstancedMesh, Matrix4, MeshStandardNodeMaterial, Quaternion, Vector3 } from 'three/webgpu';

export type BoxesKey = 'ecs-instances' | 'set-matrix';

export const BOXES_OPTIONS: Record<BoxesKey, string> = {
  'ecs-instances': 'EcsInstances (@cuttle/three)',
  'set-matrix': "three's setMatrixAt(compose)",
};

export class EcsBoxes {
  readonly mesh: InstancedMesh<BoxGeometry, MeshStandardNodeMaterial>;
  readonly count: number;
  /** Milliseconds the last placement took. */
  placeMs = 0;
  readonly #ecs = new EcsScene();
  readonly #instances: EcsInstances;
  readonly #entities: Entity[] = [];
  /** Per box: circle radius, starting angle, angular speed. */
  readonly #walks: Float32Array;
  readonly #scratch = { matrix: new Matrix4(), position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3(1, 1, 1) };

  /** `count` boxes on circles from `inner` to `outer` metres round the centre. */
  constructor(count: number, inner: number, outer: number) {
    this.count = count;
    this.mesh = new InstancedMesh(new BoxGeometry(0.5, 1.6, 0.5), new MeshStandardNodeMaterial({ color: 0xc06a3a, roughness: 0.6 }), count);
    this.#instances = new EcsInstances(this.mesh);
    this.#walks = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) {
      const entity = this.#ecs.createNode();
      this.#entities.push(entity);
      this.#instances.bind(entity, i);
      this.#walks.set([inner + (i % 25) * ((outer - inner) / 24), (i * 2.399) % (Math.PI * 2), 0.1 + (i % 7) * 0.02], i * 3);
    }
  }

  /** The ECS system walks the circles; then the boxes are placed the chosen way. */
  update(key: BoxesKey, time: number): void {
    const transforms = this.#ecs.transforms;
    const { position, rotation, dirty } = transforms.fields;
    const walks = this.#walks;
    for (let i = 0; i < this.count; i++) {
      const row = transforms.indexOf(this.#entities[i]!);
      const angle = walks[i * 3 + 1]! + time * walks[i * 3 + 2]!;
      position[row * 3] = Math.cos(angle) * walks[i * 3]!;
      position[row * 3 + 1] = 0.8;
      position[row * 3 + 2] = Math.sin(angle) * walks[i * 3]!;
      rotation[row * 4 + 1] = Math.sin(-angle / 2);
      rotation[row * 4 + 3] = Math.cos(-angle / 2);
      dirty[row] = 1;
    }
    updateTransforms(transforms);
    const t0 = performance.now();
    if (key === 'ecs-instances') this.#instances.sync(transforms);
    else {
      const { matrix, position: p, quaternion, scale } = this.#scratch;
      for (let i = 0; i < this.count; i++) {
        const row = transforms.indexOf(this.#entities[i]!);
        p.fromArray(position, row * 3);
        quaternion.fromArray(rotation, row * 4);
        this.mesh.setMatrixAt(i, matrix.compose(p, quaternion, scale));
      }
      this.mesh.instanceMatrix.needsUpdate = true;
    }
    this.placeMs = performance.now() - t0;
  }

  dispose(): void {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.dispose();
  }
}

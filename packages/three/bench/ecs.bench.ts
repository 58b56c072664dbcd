// 100,000 @cuttle/ecs entities placed in three.js each frame: EcsInstances / EcsObjects copying
// world matrices, against what a three.js user writes without them (setMatrixAt with a Matrix4
// composed from position, quaternion and scale; or from the world matrix; Object3Ds given
// position, quaternion and scale and composing their matrices). Every contender's result is
// checked equal to ours before anything is timed. Entities per second.
import { Scene as EcsScene, updateTransforms, type Entity } from '@cuttle/ecs';
import { defineSuite, opsPerSecond } from '@cuttle/bench';
import { BoxGeometry, InstancedMesh, Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { EcsInstances, EcsObjects } from '../src/index.ts';

const COUNT = 100_000;

function world(): { ecs: EcsScene; entities: Entity[] } {
  const ecs = new EcsScene();
  let x = 7;
  const random = (): number => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const entities: Entity[] = [];
  for (let i = 0; i < COUNT; i++) {
    const angle = random() * Math.PI;
    entities.push(ecs.createNode({ position: [random() * 100, random() * 10, random() * 100], rotation: [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)], scale: [1, 1 + random(), 1] }));
  }
  updateTransforms(ecs.transforms);
  return { ecs, entities };
}

const { ecs, entities } = world();
const transforms = ecs.transforms;
const geometry = new BoxGeometry();
const meshes = { ours: new InstancedMesh(geometry, undefined, COUNT), compose: new InstancedMesh(geometry, undefined, COUNT), world: new InstancedMesh(geometry, undefined, COUNT) };
const instances = new EcsInstances(meshes.ours);
entities.forEach((entity, i) => { instances.bind(entity, i); });
const objects = { ours: entities.map(() => new Object3D()), three: entities.map(() => new Object3D()) };
const objectBinding = new EcsObjects();
entities.forEach((entity, i) => { objectBinding.bind(entity, objects.ours[i]!); });

const scratch = { matrix: new Matrix4(), position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3() };

/** What a three.js user writes: the instance's matrix composed from the entity's local values. */
function composeInstances(): void {
  const { position, rotation, scale } = transforms.fields;
  const { matrix } = scratch;
  for (let i = 0; i < COUNT; i++) {
    const row = transforms.indexOf(entities[i]!);
    scratch.position.fromArray(position, row * 3);
    scratch.quaternion.fromArray(rotation, row * 4);
    scratch.scale.fromArray(scale, row * 3);
    meshes.compose.setMatrixAt(i, matrix.compose(scratch.position, scratch.quaternion, scratch.scale));
  }
  meshes.compose.instanceMatrix.needsUpdate = true;
}

/** Or from the world matrix, through a Matrix4. */
function worldInstances(): void {
  const { world: matrices } = transforms.fields;
  for (let i = 0; i < COUNT; i++) meshes.world.setMatrixAt(i, scratch.matrix.fromArray(matrices, transforms.indexOf(entities[i]!) * 16));
  meshes.world.instanceMatrix.needsUpdate = true;
}

/** Object3Ds placed the three way: position, quaternion and scale set, then their matrices composed. */
function threeObjects(): void {
  const { position, rotation, scale } = transforms.fields;
  for (let i = 0; i < COUNT; i++) {
    const row = transforms.indexOf(entities[i]!);
    const object = objects.three[i]!;
    object.position.fromArray(position, row * 3);
    object.quaternion.fromArray(rotation, row * 4);
    object.scale.fromArray(scale, row * 3);
    object.updateMatrix();
  }
}

function checkSame(): void {
  instances.sync(transforms);
  composeInstances();
  worldInstances();
  objectBinding.sync(transforms);
  threeObjects();
  const close = (a: ArrayLike<number>, b: ArrayLike<number>, what: string): void => {
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1e-4) throw new Error(`${what} differs from ours at ${i}: ${a[i]} against ${b[i]}`);
  };
  close(meshes.compose.instanceMatrix.array, meshes.ours.instanceMatrix.array, 'setMatrixAt(compose)');
  close(meshes.world.instanceMatrix.array, meshes.ours.instanceMatrix.array, 'setMatrixAt(world)');
  for (let i = 0; i < COUNT; i += 997) close(objects.three[i]!.matrix.elements, objects.ours[i]!.matrix.elements, `Object3D ${i}`);
}

export const suite = defineSuite({
  package: '@cuttle/three',
  setup: checkSame,
  cases: [
    {
      name: `${COUNT.toLocaleString('en')} entities' world matrices into an InstancedMesh`,
      unit: 'entities/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => instances.sync(transforms), { opsPerCall: COUNT }),
      peers: {
        'three: setMatrixAt(compose(position, quaternion, scale))': () => opsPerSecond(composeInstances, { opsPerCall: COUNT }),
        'three: setMatrixAt(Matrix4.fromArray(world))': () => opsPerSecond(worldInstances, { opsPerCall: COUNT }),
      },
    },
    {
      name: `${COUNT.toLocaleString('en')} entities into Object3D matrices`,
      unit: 'entities/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => objectBinding.sync(transforms), { opsPerCall: COUNT }),
      peers: { 'three: position, quaternion, scale, updateMatrix()': () => opsPerSecond(threeObjects, { opsPerCall: COUNT }) },
    },
  ],
});

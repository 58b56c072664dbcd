// @cuttle/ecs transforms into three.js: the copies on plain data, then the pixels of instances
// and objects placed by the binding against the same ones placed by three's own API.
import { Scene as EcsScene, updateTransforms, type Entity } from '@cuttle/ecs';
import { gpuTest } from '@cuttle/test-utils';
import { describe, expect, test } from 'vitest';
import { BoxGeometry, InstancedMesh, Matrix4, Mesh, MeshStandardNodeMaterial, Object3D, Quaternion, Vector3 } from 'three/webgpu';
import { EcsInstances, EcsObjects, ThreeError } from '../src/index.ts';
import { litScene, nodeThree } from './three-node.ts';

interface Placement {
  position: [number, number, number];
  rotation: [number, number, number, number];
  scale: [number, number, number];
}

const PLACEMENTS: Placement[] = [
  { position: [-1.5, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
  { position: [0, 0.3, -0.5], rotation: [0, Math.sin(0.4), 0, Math.cos(0.4)], scale: [0.6, 1.4, 0.6] },
  { position: [1.5, -0.2, 0.2], rotation: [Math.sin(0.3), 0, 0, Math.cos(0.3)], scale: [1, 0.5, 1] },
];

function ecsWorld(): { ecs: EcsScene; entities: Entity[] } {
  const ecs = new EcsScene();
  const entities = PLACEMENTS.map((p) => ecs.createNode({ position: p.position, rotation: p.rotation, scale: p.scale }));
  updateTransforms(ecs.transforms);
  return { ecs, entities };
}

function threeMatrix(p: Placement): Matrix4 {
  return new Matrix4().compose(new Vector3(...p.position), new Quaternion(...p.rotation), new Vector3(...p.scale));
}

describe('the copies', () => {
  test('instances take their entities\' world matrices; a destroyed entity is counted and left alone', () => {
    const { ecs, entities } = ecsWorld();
    const mesh = new InstancedMesh(new BoxGeometry(), undefined, 4);
    const binding = new EcsInstances(mesh);
    entities.forEach((entity, i) => { binding.bind(entity, 3 - i); });
    const version = mesh.instanceMatrix.version;
    expect(binding.sync(ecs.transforms)).toEqual({ moved: 3, missing: 0 });
    expect(mesh.instanceMatrix.version).toBeGreaterThan(version);
    PLACEMENTS.forEach((p, i) => {
      const matrix = new Matrix4();
      mesh.getMatrixAt(3 - i, matrix);
      expect(matrix.elements.map((v) => Math.round(v * 1e5))).toEqual(threeMatrix(p).elements.map((v) => Math.round(v * 1e5)));
    });
    // Removing an entity moves another into its row: the binding looks the rows up again.
    ecs.removeEntity(entities[0]!);
    const last = entities[2]!;
    ecs.transforms.fields.position[ecs.transforms.indexOf(last) * 3 + 1] = 5;
    ecs.transforms.fields.dirty[ecs.transforms.indexOf(last)] = 1;
    updateTransforms(ecs.transforms);
    expect(binding.sync(ecs.transforms)).toEqual({ moved: 2, missing: 1 });
    const moved = new Matrix4();
    mesh.getMatrixAt(1, moved);
    expect(moved.elements[13]).toBeCloseTo(5, 5);
    expect(() => { binding.bind(entities[1]!, 4); }).toThrow(ThreeError);
  });

  test('objects take them as their matrix and stop composing their own', () => {
    const { ecs, entities } = ecsWorld();
    const objects = entities.map(() => new Object3D());
    const binding = new EcsObjects();
    entities.forEach((entity, i) => { binding.bind(entity, objects[i]!); });
    expect(binding.sync(ecs.transforms)).toEqual({ moved: 3, missing: 0 });
    objects.forEach((object, i) => {
      expect(object.matrixAutoUpdate).toBe(false);
      expect(object.matrix.elements.map((v) => Math.round(v * 1e5))).toEqual(threeMatrix(PLACEMENTS[i]!).elements.map((v) => Math.round(v * 1e5)));
    });
  });
});

const lit = (): ReturnType<typeof litScene> => litScene({ fov: 50, aspect: 4 / 3, eye: [0, 1.5, 5], target: [0, 0, 0] });

describe('the pixels', () => {
  gpuTest('instances placed from the ECS draw exactly what setMatrixAt with three\'s compose draws', async ({ device }) => {
    const three = await nodeThree(device, 96, 72);
    const material = new MeshStandardNodeMaterial({ color: 0x80c0ff });
    const frames: Uint8Array[] = [];
    for (const byEcs of [false, true]) {
      const { scene, camera } = lit();
      const mesh = new InstancedMesh(new BoxGeometry(), material, PLACEMENTS.length);
      if (byEcs) {
        const { ecs, entities } = ecsWorld();
        const binding = new EcsInstances(mesh);
        entities.forEach((entity, i) => { binding.bind(entity, i); });
        binding.sync(ecs.transforms);
      } else PLACEMENTS.forEach((p, i) => { mesh.setMatrixAt(i, threeMatrix(p)); });
      scene.add(mesh);
      three.render(scene, camera);
      frames.push(await three.read());
    }
    let covered = 0, differing = 0;
    for (let i = 0; i < frames[0]!.length; i += 4) {
      if (frames[0]![i + 2]! > 40) covered++;
      if (Math.abs(frames[0]![i]! - frames[1]![i]!) > 1 || Math.abs(frames[0]![i + 2]! - frames[1]![i + 2]!) > 1) differing++;
    }
    expect(covered).toBeGreaterThan(300);
    expect(differing).toBe(0);
    await three.dispose();
  });

  gpuTest('meshes placed from the ECS draw what meshes placed by position, quaternion and scale draw', async ({ device }) => {
    const three = await nodeThree(device, 96, 72);
    const material = new MeshStandardNodeMaterial({ color: 0xffa060 });
    const frames: Uint8Array[] = [];
    for (const byEcs of [false, true]) {
      const { scene, camera } = lit();
      const meshes = PLACEMENTS.map(() => new Mesh(new BoxGeometry(), material));
      if (byEcs) {
        const { ecs, entities } = ecsWorld();
        const binding = new EcsObjects();
        entities.forEach((entity, i) => { binding.bind(entity, meshes[i]!); });
        binding.sync(ecs.transforms);
      } else {
        meshes.forEach((mesh, i) => {
          const p = PLACEMENTS[i]!;
          mesh.position.set(...p.position);
          mesh.quaternion.set(...p.rotation);
          mesh.scale.set(...p.scale);
        });
      }
      scene.add(...meshes);
      three.render(scene, camera);
      frames.push(await three.read());
    }
    let differing = 0;
    for (let i = 0; i < frames[0]!.length; i++) if (Math.abs(frames[0]![i]! - frames[1]![i]!) > 1) differing++;
    expect(differing).toBe(0);
    await three.dispose();
  });
});

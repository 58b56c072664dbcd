// The README's example, run as written.
import { expect, test } from 'vitest';
import { Scene as EcsScene, updateTransforms } from '@cuttle/ecs';
import { BoxGeometry, InstancedMesh, Matrix4, MeshStandardMaterial } from 'three';
import { EcsInstances } from '../src/index.ts';

test('README example', () => {
  const ecs = new EcsScene();
  const mesh = new InstancedMesh(new BoxGeometry(), new MeshStandardMaterial(), 1024);
  const instances = new EcsInstances(mesh);
  for (let i = 0; i < 1024; i++) instances.bind(ecs.createNode({ position: [i % 32, 0, Math.floor(i / 32)] }), i);

  // Every frame: your systems move entities in the ECS, then
  updateTransforms(ecs.transforms);
  instances.sync(ecs.transforms); // world matrices into mesh.instanceMatrix, marked for upload

  const matrix = new Matrix4();
  mesh.getMatrixAt(33, matrix);
  expect([matrix.elements[12], matrix.elements[13], matrix.elements[14]]).toEqual([1, 0, 1]);
});

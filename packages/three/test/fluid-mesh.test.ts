// A fluid drawn by three straight from the simulation's buffer, against the same spheres drawn
// by three its own way (an InstancedMesh placed with setMatrixAt): the same pixels.
import { FluidSimulation } from '@cuttle/gpu-fluid';
import { gpuTest } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { IcosahedronGeometry, InstancedMesh, Matrix4, MeshStandardNodeMaterial, Vector3 } from 'three/webgpu';
import { deviceOf, FluidMesh, gpuBufferOf, ThreeError } from '../src/index.ts';
import { litScene, nodeThree } from './three-node.ts';

const RADIUS = 0.3;
const POINTS = new Float32Array([1, 1, 1, 2, 1.2, 1, 1.5, 2, 1.4, 2.6, 1.6, 1.2, 1.2, 1.5, 1.8]);

const lit = (): ReturnType<typeof litScene> => litScene({ sun: [1, 3, 2], fov: 45, aspect: 4 / 3, eye: [1.8, 1.6, 6], target: [1.8, 1.4, 1.2] });

gpuTest('three draws the fluid from its own buffer: the pixels of the same spheres drawn by an InstancedMesh', async ({ device }) => {
  const three = await nodeThree(device, 96, 72);
  const fluid = new FluidSimulation(deviceOf(three.renderer), { capacity: 64, mode: 'nbody' });
  fluid.emit(POINTS);
  const material = (): MeshStandardNodeMaterial => new MeshStandardNodeMaterial({ color: 0x3f8fd0, roughness: 0.5 });
  const frames: Uint8Array[] = [];
  {
    const { scene, camera } = lit();
    const mesh = new FluidMesh(three.renderer, fluid, { radius: RADIUS, detail: 2, material: material() });
    expect(mesh.count).toBe(5);
    scene.add(mesh);
    three.render(scene, camera);
    frames.push(await three.read());
    // No copy: three draws from the simulation's own buffer.
    expect(gpuBufferOf(three.renderer, mesh.positions)).toBe(fluid.positionBuffer);
  }
  {
    const { scene, camera } = lit();
    const spheres = new InstancedMesh(new IcosahedronGeometry(1, 2), material(), 5);
    for (let i = 0; i < 5; i++) spheres.setMatrixAt(i, new Matrix4().makeTranslation(POINTS[i * 3]!, POINTS[i * 3 + 1]!, POINTS[i * 3 + 2]!).scale(new Vector3(RADIUS, RADIUS, RADIUS)));
    scene.add(spheres);
    three.render(scene, camera);
    frames.push(await three.read());
  }
  let covered = 0, differing = 0;
  for (let i = 0; i < frames[0]!.length; i += 4) {
    if (frames[1]![i + 2]! > 40) covered++;
    if ([0, 1, 2].some((c) => Math.abs(frames[0]![i + c]! - frames[1]![i + c]!) > 2)) differing++;
  }
  expect(covered).toBeGreaterThan(200);
  expect(differing).toBeLessThanOrEqual(covered * 0.01);
  fluid.destroy();
  await three.dispose();
});

gpuTest('sprites: discs where the spheres are, shaded as the spheres are', async ({ device }) => {
  const three = await nodeThree(device, 96, 72);
  const fluid = new FluidSimulation(deviceOf(three.renderer), { capacity: 64, mode: 'nbody' });
  fluid.emit(POINTS);
  const frames: Uint8Array[] = [];
  for (const shape of ['sphere', 'sprite'] as const) {
    const { scene, camera } = lit();
    scene.add(new FluidMesh(three.renderer, fluid, { radius: RADIUS, detail: 3, shape, material: new MeshStandardNodeMaterial({ color: 0x3f8fd0, roughness: 0.5 }) }));
    three.render(scene, camera);
    frames.push(await three.read());
  }
  const [spheres, sprites] = frames as [Uint8Array, Uint8Array];
  let both = 0, either = 0, shadeDifference = 0;
  for (let i = 0; i < spheres.length; i += 4) {
    const inSphere = spheres[i + 2]! > 40, inSprite = sprites[i + 2]! > 40;
    if (inSphere || inSprite) either++;
    if (inSphere && inSprite) {
      both++;
      shadeDifference += Math.abs(spheres[i]! - sprites[i]!) + Math.abs(spheres[i + 1]! - sprites[i + 1]!) + Math.abs(spheres[i + 2]! - sprites[i + 2]!);
    }
  }
  // A sphere's outline under perspective is a little wider than a disc facing the camera.
  expect(both / either).toBeGreaterThan(0.85);
  // Lit through the same normals (the sprite's are a sphere's seen head-on): a few levels apart.
  expect(shadeDifference / (both * 3)).toBeLessThan(12);
  fluid.destroy();
  await three.dispose();
});

gpuTest('stepping the simulation moves what three draws, with no upload between them', async ({ device }) => {
  const three = await nodeThree(device, 96, 72);
  const fluid = new FluidSimulation(deviceOf(three.renderer), { capacity: 64, mode: 'nbody' });
  fluid.emit(POINTS);
  const { scene, camera } = lit();
  const mesh = new FluidMesh(three.renderer, fluid, { radius: RADIUS });
  scene.add(mesh);
  const lowest = async (): Promise<number> => {
    three.render(scene, camera);
    const pixels = await three.read();
    let row = -1;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 2]! > 40) row = Math.max(row, Math.floor(i / 4 / 96));
    return row;
  };
  const before = await lowest();
  for (let s = 0; s < 20; s++) {
    const encoder = device.createCommandEncoder();
    fluid.step(encoder);
    device.queue.submit([encoder.finish()]);
  }
  // Gravity: the spheres' lowest covered row moves down the frame (rows count from the top).
  expect(await lowest()).toBeGreaterThan(before + 3);
  fluid.destroy();
  await three.dispose();
});

gpuTest('bad options are refused before anything is made', async ({ device }) => {
  const three = await nodeThree(device, 16, 16);
  const fluid = new FluidSimulation(deviceOf(three.renderer), { capacity: 8, mode: 'nbody' });
  expect(() => new FluidMesh(three.renderer, fluid, { radius: 0 })).toThrow(ThreeError);
  expect(() => new FluidMesh(three.renderer, fluid, { detail: 9 })).toThrow(/detail must be an integer in 0..5/);
  expect(() => new FluidMesh(three.renderer, fluid, { shape: 'cube' as 'sphere' })).toThrow(/shape must be 'sphere' or 'sprite'/);
  fluid.destroy();
  await three.dispose();
});

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
  fluid.destroy();
  await three.dispose();
});

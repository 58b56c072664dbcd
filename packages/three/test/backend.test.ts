// The backend wrapper against the pinned three.js: the shared device, the GPU buffer behind an
// attribute (written by us, drawn by three with no copy), a buffer of ours adopted before first
// use, and the revision check.
import { gpuTest } from '@cuttle/test-utils';
import { describe, expect, test } from 'vitest';
import type { PerspectiveCamera, Scene } from 'three/webgpu';
import { BoxGeometry, InstancedMesh, Matrix4, MeshStandardNodeMaterial } from 'three/webgpu';
import { adoptGpuBuffer, checkThreeRevision, deviceOf, gpuBufferOf, ThreeError } from '../src/index.ts';
import { litScene, nodeThree, type NodeThree } from './three-node.ts';

function boxes(count: number): { scene: Scene; camera: PerspectiveCamera; mesh: InstancedMesh } {
  const { scene, camera } = litScene({ fov: 50, aspect: 1, eye: [0, 0, 6] });
  const mesh = new InstancedMesh(new BoxGeometry(), new MeshStandardNodeMaterial({ color: 0xffffff }), count);
  scene.add(mesh);
  return { scene, camera, mesh };
}

/** Whether the pixel at (x, y) of a 64x64 frame is covered (lit box, not the black background). */
async function covered(three: NodeThree, x: number, y: number): Promise<boolean> {
  const pixels = await three.read();
  return pixels[(y * 64 + x) * 4]! > 30;
}

describe('backend', () => {
  test('a three.js revision other than the one supported is refused by name', () => {
    expect(() => { checkThreeRevision('186'); }).toThrow(ThreeError);
    expect(() => { checkThreeRevision('188dev'); }).toThrow(/three.js r188dev is not supported.*install three@0.187/);
    expect(() => { checkThreeRevision('187'); }).not.toThrow();
  });

  gpuTest('three runs on our device; a matrix we write into the GPU buffer behind instanceMatrix moves what three draws', async ({ device }) => {
    const three = await nodeThree(device, 64, 64);
    expect(deviceOf(three.renderer)).toBe(device);
    const { scene, camera, mesh } = boxes(1);
    expect(gpuBufferOf(three.renderer, mesh.instanceMatrix)).toBeUndefined();
    mesh.setMatrixAt(0, new Matrix4().makeTranslation(-1.5, 0, 0));
    three.render(scene, camera);
    expect(await covered(three, 16, 32)).toBe(true);
    expect(await covered(three, 48, 32)).toBe(false);
    // Ours: straight into three's buffer on the shared device, no needsUpdate, no copy from the CPU array.
    const buffer = gpuBufferOf(three.renderer, mesh.instanceMatrix)!;
    device.queue.writeBuffer(buffer, 0, new Matrix4().makeTranslation(1.5, 0, 0).toArray(new Float32Array(16)));
    three.render(scene, camera);
    expect(await covered(three, 16, 32)).toBe(false);
    expect(await covered(three, 48, 32)).toBe(true);
    await three.dispose();
  });

  gpuTest('a buffer of ours adopted before first use is the one three draws from; too late is refused', async ({ device }) => {
    const three = await nodeThree(device, 64, 64);
    const { scene, camera, mesh } = boxes(1);
    const ours = device.createBuffer({ size: 64, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    device.queue.writeBuffer(ours, 0, new Matrix4().makeTranslation(0, 1.5, 0).toArray(new Float32Array(16)));
    adoptGpuBuffer(three.renderer, mesh.instanceMatrix, ours);
    three.render(scene, camera);
    expect(gpuBufferOf(three.renderer, mesh.instanceMatrix)).toBe(ours);
    expect(await covered(three, 32, 16)).toBe(true);
    expect(await covered(three, 32, 32)).toBe(false);
    const other = boxes(1).mesh;
    three.render(scene.add(other), camera);
    expect(() => { adoptGpuBuffer(three.renderer, other.instanceMatrix, ours); }).toThrow(/adopt yours before its first use/);
    await three.dispose();
    ours.destroy();
  });
});

// A scene whose buffers are ranges of @cuttle/allocators' GpuBufferAllocators draws exactly the
// pixels of the same scene with a GPUBuffer per resource; destroying it gives every range back;
// allocators that cannot serve a use are refused before anything is made.
import { describe, expect } from 'vitest';
import { GpuBufferAllocator, HeapAllocator, ProxyAllocator, type Allocator } from '@cuttle/allocators';
import { gpuTest } from '@cuttle/test-utils';
import { boxMesh, planeMesh, RenderError, RenderScene, sphereMesh, type MeshInput, type RenderSceneOptions } from '../src/index.ts';
import { newRenderer, renderFrame, translation } from './helpers.ts';

/** uint16 indices with an odd count (a 2-byte tail the uploads pad to 4). */
function triangleFan(): MeshInput {
  const box = boxMesh(0.3, 0.3, 0.3);
  const indices = new Uint16Array(33);
  indices.set(Array.from(box.indices).slice(0, 33));
  return { ...box, indices };
}

/** Enough of everything to cross the allocators' alignments and the scene's instance growth (64). */
function build(scene: RenderScene): void {
  const meshes = [scene.addMesh(planeMesh(20, 4)), scene.addMesh(boxMesh(0.4, 0.8, 0.4)), scene.addMesh(sphereMesh(0.5, 8, 16)), scene.addMesh(triangleFan())];
  const materials = [
    scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 }),
    scene.addMaterial({ baseColor: [0.8, 0.2, 0.1, 1], roughness: 0.5, metallic: 0.3 }),
    scene.addMaterial({ baseColor: [0.1, 0.3, 0.9, 0.5], alphaMode: 'blend' }),
    scene.addMaterial({ baseColor: [0.2, 0.2, 0.2, 1], emissive: [0, 0.6, 0.2] }),
  ];
  scene.addInstance(meshes[0]!, materials[0]!);
  for (let i = 0; i < 90; i++) {
    const x = (i % 10) - 4.5, z = Math.floor(i / 10) - 4.5;
    scene.addInstance(meshes[1 + (i % 3)]!, materials[1 + (i % 3)]!, translation(x * 1.6, 0.8, z * 1.6));
  }
  scene.setSun({ direction: [-0.3, -1, -0.6], color: [1, 1, 1], intensity: 2 });
  scene.updateMaterial(materials[1]!, { baseColor: [0.9, 0.7, 0.1, 1], roughness: 0.4 });
}

function allocators(device: GPUDevice): { vertices: GpuBufferAllocator; indices: GpuBufferAllocator; uniforms: GpuBufferAllocator; instances: GpuBufferAllocator; all: GpuBufferAllocator[] } {
  const make = (name: string, usage: GPUBufferUsageFlags): GpuBufferAllocator => new GpuBufferAllocator(device, { name, usage, bufferSize: 1 << 20 });
  const vertices = make('vertices', GPUBufferUsage.VERTEX);
  const indices = make('indices', GPUBufferUsage.INDEX);
  const uniforms = make('uniforms', GPUBufferUsage.UNIFORM);
  const instances = make('instances', GPUBufferUsage.STORAGE);
  return { vertices, indices, uniforms, instances, all: [vertices, indices, uniforms, instances] };
}

describe('RenderScene buffers from allocators', () => {
  gpuTest('draws the same pixels as a GPUBuffer per resource, with ranges at non-zero offsets', async ({ device }) => {
    const renderer = newRenderer(device);
    const plain = new RenderScene(device);
    build(plain);
    const expected = await renderFrame(device, renderer, plain);
    // A real picture (lit floor, boxes, spheres, glass), not a cleared target.
    expect(new Set(expected.pixels).size).toBeGreaterThan(100);

    const gpu = allocators(device);
    // Something allocated first, so no range of the scene starts at offset 0.
    const before = gpu.all.map((a) => a.allocate(16, 256));
    const pooled = new RenderScene(device, { buffers: { vertices: gpu.vertices, indices: gpu.indices, uniforms: gpu.uniforms, instances: gpu.instances } });
    build(pooled);
    expect(pooled.mesh(1).positions.offset).toBeGreaterThan(0);
    expect(pooled.mesh(1).positions.buffer).toBe(pooled.mesh(2).normals.buffer);
    expect(pooled.material(1).uniform.offset % device.limits.minUniformBufferOffsetAlignment).toBe(0);
    expect(pooled.instanceBuffer!.size).toBeGreaterThanOrEqual(91 * 44 * 4);
    const actual = await renderFrame(device, renderer, pooled);
    expect(actual.pixels.length).toBe(expected.pixels.length);
    expect(Buffer.from(actual.pixels).equals(Buffer.from(expected.pixels))).toBe(true);
    // The renderer rebinds its own instance buffer for a scene without an allocator.
    expect(Buffer.from((await renderFrame(device, renderer, plain)).pixels).equals(Buffer.from(expected.pixels))).toBe(true);

    // 4 attributes + indices per mesh, one uniform block per material, one instance range.
    expect(gpu.vertices.allocationCount).toBe(1 + 4 * 4);
    expect(gpu.indices.allocationCount).toBe(1 + 4);
    expect(gpu.uniforms.allocationCount).toBe(1 + 4);
    expect(gpu.instances.allocationCount).toBe(1 + 1);
    pooled.destroy();
    plain.destroy();
    renderer.destroy();
    expect(gpu.all.map((a) => a.allocationCount)).toEqual([1, 1, 1, 1]);
    gpu.all.forEach((a, i) => { a.deallocate(before[i]!); a.destroy(); });
  });

  gpuTest('a ProxyAllocator over a shared allocator counts one scene; rebuilding reuses the same bytes', async ({ device }) => {
    const gpu = allocators(device);
    const usage = (): number[] => gpu.all.map((a) => a.allocatedBytes);
    const scene = (): { scene: RenderScene; proxies: Allocator[] } => {
      const proxies = gpu.all.map((a) => new ProxyAllocator(`world/${a.name}`, a));
      const [vertices, indices, uniforms, instances] = proxies;
      const made = new RenderScene(device, { buffers: { vertices, indices, uniforms, instances } });
      build(made);
      return { scene: made, proxies };
    };
    const first = scene();
    const bytes = usage();
    expect(first.proxies[0]!.allocatedBytes).toBe(bytes[0]);
    for (let i = 0; i < 20; i++) {
      const { scene: s, proxies } = scene();
      s.destroy();
      for (const proxy of proxies) proxy.destroy(); // throws MemoryLeakError if the scene kept a range
    }
    expect(usage()).toEqual(bytes);
    // The first scene still draws after its neighbours came and went.
    const renderer = newRenderer(device);
    expect(new Set((await renderFrame(device, renderer, first.scene)).pixels).size).toBeGreaterThan(100);
    renderer.destroy();
    first.scene.destroy();
    for (const proxy of first.proxies) proxy.destroy();
    expect(usage()).toEqual([0, 0, 0, 0]);
    expect(gpu.all.map((a) => a.gpuBuffers.length)).toEqual([1, 1, 1, 1]);
    for (const a of gpu.all) a.destroy();
  });

  gpuTest('an allocator that cannot serve a use is refused with what to do', async ({ device }) => {
    const gpu = allocators(device);
    const refused = (options: RenderSceneOptions): unknown => {
      try {
        new RenderScene(device, options).destroy();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused({ buffers: { vertices: gpu.indices } })).toBeInstanceOf(RenderError);
    expect(String(refused({ buffers: { uniforms: gpu.vertices } }))).toMatch(/usage UNIFORM/);
    expect(String(refused({ buffers: { instances: gpu.uniforms } }))).toMatch(/STORAGE/);
    const cpu = new HeapAllocator({ name: 'cpu', size: 4096 });
    expect(String(refused({ buffers: { indices: cpu } }))).toMatch(/not backed by a GpuBufferAllocator/);
    expect(gpu.all.map((a) => a.allocationCount)).toEqual([0, 0, 0, 0]);
    cpu.destroy();
    for (const a of gpu.all) a.destroy();
    await Promise.resolve();
  });
});

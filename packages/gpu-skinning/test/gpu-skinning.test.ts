// Both kernels in both formats against the TypeScript reference on lavapipe: several meshes and
// skeletons in one dispatch, palettes of 1 and 256 bones, previous positions, skinning LOD,
// teleport resets, and the errors.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import {
  createSkinnedOutput,
  GpuSkinning,
  GpuSkinningError,
  identityPalette,
  skinInstanceReference,
  type SkinMode,
  type SkinnedInstance,
  type SkinnedOutput,
  type SkinnedVertices,
  type SkinningKernel,
  type SkinPalette,
  type VertexFormat,
} from '../src/index.ts';
import { expectMatches, randomBones, randomMesh } from './helpers.ts';

/** A GpuSkinning and the reference's copy of everything it holds, kept in step. */
class Mirror {
  readonly palette: Float32Array;
  readonly output: SkinnedOutput;
  readonly #vertices = new Map<number, SkinnedVertices>();

  constructor(readonly skinning: GpuSkinning) {
    this.palette = new Float32Array(skinning.maxBones * 12);
    this.output = createSkinnedOutput(skinning.format, skinning.maxOutputVertices);
  }

  addMesh(vertices: SkinnedVertices) {
    const mesh = this.skinning.addMesh(vertices);
    this.#vertices.set(mesh.index, vertices);
    return mesh;
  }

  createPalette(boneCount: number): SkinPalette {
    const palette = this.skinning.createPalette(boneCount);
    this.palette.set(identityPalette(boneCount), palette.offset * 12);
    return palette;
  }

  writePalette(palette: SkinPalette, bones: Float32Array): void {
    this.skinning.writePalette(palette, bones);
    this.palette.set(bones, palette.offset * 12);
  }

  /** Runs the reference for one frame with the given mode per instance (null: untouched). */
  referenceFrame(modes: (SkinMode | null)[]): void {
    this.skinning.instances.forEach((instance, i) => {
      const mode = modes[i];
      if (mode === null || mode === undefined) return;
      const range = { sourceVertex: 0, vertexCount: instance.vertexCount, paletteOffset: instance.palette.offset, outputVertex: instance.outputVertex };
      skinInstanceReference(this.#vertices.get(instance.mesh.index)!, this.palette, range, this.output, mode);
    });
  }

  /** Skins one frame on the GPU (its own submit) and checks the whole output against the reference. */
  async frame(device: GPUDevice, modes: (SkinMode | null)[], what: string): Promise<void> {
    const encoder = device.createCommandEncoder();
    this.skinning.skin(encoder);
    device.queue.submit([encoder.finish()]);
    this.referenceFrame(modes);
    expectMatches(await this.skinning.read(), this.output, this.skinning.outputVertexCount, what);
  }
}

gpuTest('writePalettes writes a run of palettes in one copy, as writePalette on each would', async ({ device }) => {
  const skinning = new GpuSkinning(device, { format: 'packed', kernel: 'global', maxVertices: 400, maxOutputVertices: 1600, maxBones: 100, maxInstances: 4 });
  const mirror = new Mirror(skinning);
  const mesh = mirror.addMesh(randomMesh('packed', 400, 20, 31));
  const lone = mirror.createPalette(12);
  const crowd = [mirror.createPalette(20), mirror.createPalette(20), mirror.createPalette(20)];
  skinning.addInstance({ mesh, palette: crowd[0]! });
  skinning.addInstance({ mesh, palette: crowd[1]! });
  skinning.addInstance({ mesh, palette: crowd[2]! });
  const bones = new Float32Array(3 * 20 * 12);
  crowd.forEach((palette, i) => { bones.set(randomBones(20, 40 + i), i * 20 * 12); });
  skinning.writePalettes(crowd[0]!, 3, bones);
  mirror.palette.set(bones, crowd[0]!.offset * 12);
  await mirror.frame(device, ['reset', 'reset', 'reset'], 'three palettes in one write');
  // The run may start anywhere and hold palettes of different sizes.
  const mixed = new Float32Array((12 + 20) * 12);
  mixed.set(randomBones(12, 50));
  mixed.set(randomBones(20, 51), 12 * 12);
  skinning.writePalettes(lone, 2, mixed);
  mirror.palette.set(mixed, lone.offset * 12);
  await mirror.frame(device, ['skin', 'skin', 'skin'], 'a run of two sizes');
  expect(() => { skinning.writePalettes(crowd[1]!, 3, bones); }).toThrow(/only 2 were created from it/);
  expect(() => { skinning.writePalettes(crowd[0]!, 3, bones.subarray(12)); }).toThrow(/hold 60 bones \(720 floats\); got 708/);
  expect(() => { skinning.writePalettes(crowd[0]!, 0, bones); }).toThrow(GpuSkinningError);
  const other = new GpuSkinning(device, { maxVertices: 10, maxOutputVertices: 10, maxBones: 20 });
  expect(() => { other.writePalettes(crowd[0]!, 1, bones.subarray(0, 240)); }).toThrow(/belongs to another GpuSkinning/);
  other.destroy();
  skinning.destroy();
});

const CASES: [VertexFormat, SkinningKernel][] = [
  ['packed', 'lds'],
  ['packed', 'global'],
  ['f32', 'lds'],
  ['f32', 'global'],
];

describe.each(CASES)('%s vertices, %s bones', (format, kernel) => {
  gpuTest('several meshes and skeletons in one dispatch, palettes of 1, 37 and 256 bones, two frames', async ({ device }) => {
    const skinning = new GpuSkinning(device, { format, kernel, maxVertices: 4000, maxOutputVertices: 6000, maxBones: 600, maxInstances: 8 });
    const mirror = new Mirror(skinning);
    const single = mirror.addMesh(randomMesh(format, 300, 1, 11));
    const body = mirror.addMesh(randomMesh(format, 1000, 37, 12));
    const big = mirror.addMesh(randomMesh(format, 2051, 256, 13));
    const armour = mirror.addMesh(randomMesh(format, 129, 256, 14));
    const palettes = [mirror.createPalette(1), mirror.createPalette(37), mirror.createPalette(37), mirror.createPalette(256)];
    skinning.addInstance({ mesh: single, palette: palettes[0]! });
    skinning.addInstance({ mesh: body, palette: palettes[1]! });
    skinning.addInstance({ mesh: body, palette: palettes[2]! });
    // One skeleton, two meshes: the body and its armour skin with the same palette.
    skinning.addInstance({ mesh: big, palette: palettes[3]! });
    skinning.addInstance({ mesh: armour, palette: palettes[3]! });
    // The LDS array holds the largest palette.
    expect(skinning.ldsCapacity).toBe(256);
    for (let frame = 0; frame < 2; frame++) {
      palettes.forEach((palette, i) => { mirror.writePalette(palette, randomBones(palette.boneCount, 100 * frame + i + 1)); });
      await mirror.frame(device, Array<SkinMode>(5).fill(frame === 0 ? 'reset' : 'skin'), `frame ${frame}`);
      expect(skinning.lastFrame).toMatchObject({ skinned: 5, held: 0, skipped: 0, vertices: 300 + 1000 + 1000 + 2051 + 129 });
    }
  });

  gpuTest('skinning LOD: far instances every third frame, previous = current on the frames they skip', async ({ device }) => {
    const skinning = new GpuSkinning(device, { format, kernel, maxVertices: 700, maxOutputVertices: 2100, maxBones: 64, lodInterval: 3 });
    const mirror = new Mirror(skinning);
    const mesh = mirror.addMesh(randomMesh(format, 700, 20, 21));
    const palettes = [mirror.createPalette(20), mirror.createPalette(20), mirror.createPalette(20)];
    const instances = palettes.map((palette, i) => skinning.addInstance({ mesh, palette, far: i > 0 }));
    expect(skinning.ldsCapacity).toBe(32);
    const held = [false, false, false];
    for (let frame = 0; frame < 8; frame++) {
      palettes.forEach((palette, i) => { mirror.writePalette(palette, randomBones(20, 1000 + frame * 3 + i)); });
      // The rule the table follows, written out independently: far instance i is due when (frame + i) % 3 == 0.
      const modes = instances.map((instance, i): SkinMode | null => {
        if (frame === 0) return 'reset';
        if (!skinning.isFar(instance) || (frame + i) % 3 === 0) { held[i] = false; return 'skin'; }
        if (held[i]) return null;
        held[i] = true;
        return 'hold';
      });
      await mirror.frame(device, modes, `frame ${frame}`);
      expect(skinning.lastFrame.held).toBe(modes.filter((m) => m === 'hold').length);
      expect(skinning.lastFrame.skipped).toBe(modes.filter((m) => m === null).length);
      // On a frame a far instance is not skinned, its previous positions equal its current ones.
      const out = await skinning.read();
      instances.forEach((instance, i) => {
        if (modes[i] === 'skin' || modes[i] === 'reset') return;
        for (let v = instance.outputVertex; v < instance.outputVertex + instance.vertexCount; v++) {
          const current = out.format === 'packed' ? [0, 1, 2].map((c) => new Float32Array(out.positionNormal.buffer, v * 16 + c * 4, 1)[0]) : Array.from(out.vertices.subarray(v * 12, v * 12 + 3));
          expect(Array.from(out.previous.subarray(v * 3, v * 3 + 3))).toEqual(current);
        }
      });
    }
    // Coming near: skinned every frame from the next one.
    skinning.setFar(instances[1]!, false);
    palettes.forEach((palette, i) => { mirror.writePalette(palette, randomBones(20, 5000 + i)); });
    await mirror.frame(device, ['skin', 'skin', held[2] ? null : 'hold'], 'after setFar(false)');
  });

  gpuTest('a teleport reset leaves no false motion, even for a far instance that is not due', async ({ device }) => {
    const skinning = new GpuSkinning(device, { format, kernel, maxVertices: 500, maxOutputVertices: 1000, maxBones: 32, lodInterval: 100 });
    const mirror = new Mirror(skinning);
    const mesh = mirror.addMesh(randomMesh(format, 500, 16, 31));
    const a = mirror.createPalette(16);
    const b = mirror.createPalette(16);
    skinning.addInstance({ mesh, palette: a });
    const far = skinning.addInstance({ mesh, palette: b, far: true });
    mirror.writePalette(a, randomBones(16, 1));
    mirror.writePalette(b, randomBones(16, 2));
    await mirror.frame(device, ['reset', 'reset'], 'first frame');
    // Both jump 1000 units; only the far one is reset (it is not due for 99 frames).
    mirror.writePalette(a, randomBones(16, 1, 1000));
    mirror.writePalette(b, randomBones(16, 2, 1000));
    skinning.reset(far);
    await mirror.frame(device, ['skin', 'reset'], 'teleport');
    const out = await skinning.read();
    const x = (v: number): number => (out.format === 'packed' ? new Float32Array(out.positionNormal.buffer)[v * 4]! : out.vertices[v * 12]!);
    expect(Math.abs(out.previous[0]! - x(0))).toBeGreaterThan(100);
    expect(out.previous[far.outputVertex * 3]).toBe(x(far.outputVertex));
  });
});

gpuTest('a second frame in the same encoder is refused and changes nothing', async ({ device }) => {
  const skinning = new GpuSkinning(device, { maxVertices: 200, maxOutputVertices: 200, maxBones: 8 });
  const mirror = new Mirror(skinning);
  const mesh = mirror.addMesh(randomMesh('packed', 200, 8, 41));
  const palette = mirror.createPalette(8);
  skinning.addInstance({ mesh, palette });
  mirror.writePalette(palette, randomBones(8, 1));
  const encoder = device.createCommandEncoder();
  skinning.skin(encoder);
  mirror.referenceFrame(['reset']);
  mirror.writePalette(palette, randomBones(8, 2));
  expect(() => skinning.skin(encoder)).toThrow(/submit that encoder first/);
  device.queue.submit([encoder.finish()]);
  // The refused frame's reset-to-skin change was undone; the new palette is still pending.
  await mirror.frame(device, ['skin'], 'after the refusal');
  // The same work again (a benchmark's repeats) is fine in one encoder.
  const repeat = device.createCommandEncoder();
  skinning.skin(repeat);
  skinning.skin(repeat);
  device.queue.submit([repeat.finish()]);
});

gpuTest('the global kernel takes palettes past 256 bones; the LDS kernel refuses them', async ({ device }) => {
  const skinning = new GpuSkinning(device, { format: 'packed', kernel: 'global', maxVertices: 600, maxOutputVertices: 600, maxBones: 300 });
  const mirror = new Mirror(skinning);
  const mesh = mirror.addMesh(randomMesh('packed', 600, 300, 51));
  const palette = mirror.createPalette(300);
  skinning.addInstance({ mesh, palette });
  mirror.writePalette(palette, randomBones(300, 3));
  await mirror.frame(device, ['reset'], '300 bones');
  expect(() => { skinning.kernel = 'lds'; }).toThrow(/at most 256/);
  expect(skinning.kernel).toBe('global');
});

gpuTest('bad arguments get a GpuSkinningError and change nothing', ({ device }) => {
  expect(() => new GpuSkinning(device, { maxVertices: 0, maxOutputVertices: 1, maxBones: 1 })).toThrow(/maxVertices/);
  expect(() => new GpuSkinning(device, { maxVertices: 1, maxOutputVertices: 1, maxBones: 1, format: 'f16' as 'f32' })).toThrow(GpuSkinningError);
  expect(() => new GpuSkinning(device, { maxVertices: 1, maxOutputVertices: 1, maxBones: 1, tuning: { lds: { workgroupSize: 100_000 } } })).toThrow(/workgroupSize/);
  expect(() => new GpuSkinning(device, { maxVertices: 2 ** 40, maxOutputVertices: 1, maxBones: 1 })).toThrow(/maxStorageBufferBindingSize/);
  const skinning = new GpuSkinning(device, { maxVertices: 100, maxOutputVertices: 150, maxBones: 300, maxInstances: 2 });
  const other = new GpuSkinning(device, { maxVertices: 100, maxOutputVertices: 100, maxBones: 8 });
  expect(() => skinning.addMesh(randomMesh('f32', 10, 4, 1))).toThrow(/build it with format: 'packed'/);
  expect(() => skinning.addMesh(randomMesh('packed', 101, 4, 1))).toThrow(/maxVertices/);
  const mesh = skinning.addMesh(randomMesh('packed', 100, 12, 1));
  expect(() => skinning.createPalette(257)).toThrow(/LDS kernel/);
  const small = skinning.createPalette(4);
  const palette = skinning.createPalette(12);
  expect(() => skinning.createPalette(300)).toThrow(/LDS|maxBones/);
  expect(() => { skinning.writePalette(palette, new Float32Array(5)); }).toThrow(/12 bones/);
  expect(() => skinning.addInstance({ mesh, palette: small })).toThrow(/palette has 4/);
  expect(() => skinning.addInstance({ mesh: other.addMesh(randomMesh('packed', 10, 4, 2)), palette })).toThrow(/another GpuSkinning/);
  const instance: SkinnedInstance = skinning.addInstance({ mesh, palette });
  expect(() => skinning.addInstance({ mesh, palette })).toThrow(/maxOutputVertices/);
  expect(() => { other.setFar(instance, true); }).toThrow(/another GpuSkinning/);
  expect(() => { skinning.lodInterval = 0; }).toThrow(/lodInterval/);
  expect(skinning.instances).toHaveLength(1);
  skinning.destroy();
  expect(() => skinning.skin(device.createCommandEncoder())).toThrow(/destroyed/);
  other.destroy();
  return Promise.resolve();
});

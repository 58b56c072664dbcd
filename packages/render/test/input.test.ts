// Scene input: a glTF document (built with @gltf-transform/core, written as GLB, read back,
// textures included) and transforms from @cuttle/ecs.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { Document, WebIO, type Material, type Primitive } from '@gltf-transform/core';
import { encodePng } from '@cuttle/gui';
import { Scene, updateHierarchy, updateTransforms } from '@cuttle/ecs';
import { boxMesh, EcsBinding, INSTANCE_FLOATS, loadGlb, RenderError, RenderScene } from '../src/index.ts';
import { camera, floorAndBox, newRenderer, renderFrame } from './helpers.ts';

/** A half-unit box as a glTF primitive of `document` (positions, normals, uvs, indices) drawn with `material`. */
function boxPrimitive(document: Document, material: Material): Primitive {
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer();
  const box = boxMesh(0.5, 0.5, 0.5);
  const accessor = (array: Float32Array | Uint32Array, type: 'VEC3' | 'VEC2' | 'SCALAR') => document.createAccessor().setArray(array).setType(type).setBuffer(buffer);
  return document.createPrimitive()
    .setAttribute('POSITION', accessor(box.positions, 'VEC3'))
    .setAttribute('NORMAL', accessor(box.normals, 'VEC3'))
    .setAttribute('TEXCOORD_0', accessor(box.uvs!, 'VEC2'))
    .setIndices(accessor(box.indices as Uint32Array, 'SCALAR'))
    .setMaterial(material);
}

async function greenBoxGlb(): Promise<Uint8Array> {
  const document = new Document();
  const buffer = document.createBuffer();
  const accessor = (array: Float32Array | Uint32Array, type: 'VEC3' | 'VEC2' | 'SCALAR') => document.createAccessor().setArray(array).setType(type).setBuffer(buffer);
  const pixels = new Uint8Array(2 * 2 * 4);
  for (let i = 0; i < 4; i++) pixels.set([20, 230, 40, 255], i * 4);
  const texture = document.createTexture('green').setImage(await encodePng({ width: 2, height: 2, channels: 4, data: pixels })).setMimeType('image/png');
  const material = document.createMaterial('green').setBaseColorFactor([1, 1, 1, 1]).setBaseColorTexture(texture).setRoughnessFactor(0.7).setMetallicFactor(0);
  const primitive = boxPrimitive(document, material);
  const mesh = document.createMesh('box').addPrimitive(primitive);
  const points = document.createMesh('points').addPrimitive(document.createPrimitive().setMode(0).setAttribute('POSITION', accessor(new Float32Array([0, 0, 0]), 'VEC3')));
  const parent = document.createNode('parent').setMesh(mesh).setTranslation([2, 1, 0]);
  const child = document.createNode('child').setMesh(mesh).setTranslation([0, 2, 0]);
  parent.addChild(child);
  const dots = document.createNode('dots').setMesh(points);
  document.createScene().addChild(parent).addChild(dots);
  return new WebIO().writeBinary(document);
}

describe('glTF', () => {
  gpuTest('a GLB with a textured material and a node hierarchy is placed and drawn', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.3, -1, -0.4], color: [1, 1, 1], intensity: 2 });
    const result = await loadGlb(scene, await greenBoxGlb());
    expect(result.instances).toHaveLength(2);
    expect([result.meshes, result.materials, result.textures]).toEqual([1, 1, 1]);
    expect(result.skipped.join('\n')).toMatch(/mode 0/);
    const renderer = newRenderer(device);
    const frame = await renderFrame(device, renderer, scene, camera([2, 2.5, 6], [2, 2, 0]));
    for (const p of [[2, 1, 0.5], [2, 3, 0.5]] as [number, number, number][]) {
      const [r, g, b] = frame.at(p);
      expect(g, `green at ${p.join(',')}`).toBeGreaterThan(r + 60);
      expect(g).toBeGreaterThan(b + 60);
    }
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('emissive and occlusion textures come along; an ORM texture is one texture in both slots', async ({ device }) => {
    const document = new Document();
    document.createBuffer();
    const png = async (rgba: number[]) => encodePng({ width: 1, height: 1, channels: 4, data: new Uint8Array(rgba) });
    const glow = document.createTexture('glow').setImage(await png([255, 128, 0, 255])).setMimeType('image/png');
    const orm = document.createTexture('orm').setImage(await png([100, 200, 0, 255])).setMimeType('image/png');
    const material = document.createMaterial('lamp').setEmissiveFactor([1, 1, 1]).setEmissiveTexture(glow)
      .setMetallicRoughnessTexture(orm).setOcclusionTexture(orm).setOcclusionStrength(0.75);
    const primitive = boxPrimitive(document, material);
    document.createScene().addChild(document.createNode('lamp').setMesh(document.createMesh('box').addPrimitive(primitive)));
    const scene = new RenderScene(device);
    const result = await loadGlb(scene, await new WebIO().writeBinary(document));
    expect([result.materials, result.textures]).toEqual([1, 2]);
    const input = scene.material(0).input;
    expect(input.emissive).toEqual([1, 1, 1]);
    expect(input.emissiveTexture).toBeDefined();
    expect(input.occlusionTexture).toBe(input.metallicRoughnessTexture);
    expect(input.occlusionTexture).not.toBe(input.emissiveTexture);
    expect(input.occlusionStrength).toBe(0.75);
    // The emissive texture is colour (sRGB), the ORM one data (linear).
    expect(scene.texture(input.emissiveTexture!).format).toBe('rgba8unorm-srgb');
    expect(scene.texture(input.occlusionTexture!).format).toBe('rgba8unorm');
    scene.destroy();
  });

  gpuTest('a file that is not GLB is refused', async ({ device }) => {
    const scene = new RenderScene(device);
    await expect(loadGlb(scene, new Uint8Array([1, 2, 3, 4]))).rejects.toThrow(RenderError);
    scene.destroy();
  });
});

describe('@cuttle/ecs transforms', () => {
  gpuTest('bound entities move their instances, children with their parents', async ({ device }) => {
    const { scene, box, grey } = floorAndBox(device);
    const ecs = new Scene();
    const parent = ecs.createNode({ position: [1, 0, 0] });
    const child = ecs.createNode({ position: [0, 2, 0] });
    ecs.attach(child, parent);
    const binding = new EcsBinding();
    const a = scene.addInstance(box, grey);
    const b = scene.addInstance(box, grey);
    binding.bind(parent, a);
    binding.bind(child, b);
    const apply = (): { moved: number; missing: number } => {
      updateTransforms(ecs.transforms);
      updateHierarchy(ecs.hierarchy, ecs.transforms);
      return binding.sync(scene, ecs.transforms);
    };
    expect(apply()).toEqual({ moved: 2, missing: 0 });
    const translationOf = (i: number): number[] => Array.from(scene.instanceData.subarray(i * INSTANCE_FLOATS + 12, i * INSTANCE_FLOATS + 15));
    expect(translationOf(a)).toEqual([1, 0, 0]);
    ecs.transforms.fields.position.set([5, 0, 0], ecs.transforms.indexOf(parent) * 3);
    ecs.transforms.fields.dirty[ecs.transforms.indexOf(parent)] = 1;
    apply();
    expect(translationOf(a)).toEqual([5, 0, 0]);
    expect(translationOf(b)[0]).toBeCloseTo(5);
    expect(translationOf(b)[1]).toBeCloseTo(2);
    scene.destroy();
    await device.queue.onSubmittedWorkDone();
  });
});

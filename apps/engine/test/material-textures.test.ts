// Emissive and occlusion textures, in a GLB's own materials and in `.material` files: the
// emissive texture compiles as colour, the occlusion texture as data (one texture with the
// metallic-roughness map when a glTF ORM image or one png names both), carried to the render
// material; a missing texture, a strength out of range or a second uv set fails the compile.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodePng } from '@cuttle/gui';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readContainer, type Container } from '../src/runtime/container.ts';
import type { MaterialMeta, MeshMeta, StaticMeshMeta, TextureMeta } from '../src/runtime/formats.ts';
import { meshMaterialInput } from '../src/runtime/mesh-groups.ts';

let dir: string;
let source: string;
let out: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-material-textures-'));
  source = join(dir, 'source');
  out = join(dir, 'out');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(source, path)), { recursive: true });
  writeFileSync(join(source, path), data);
}

function output<T>(path: string, type: string): Container<T> {
  return readContainer<T>(readFileSync(join(out, `${path}.cr`)), type, path);
}

/** An 8x8 PNG of one colour. */
async function png(rgba: [number, number, number, number]): Promise<Uint8Array> {
  const data = new Uint8Array(8 * 8 * 4);
  for (let i = 0; i < 64; i++) data.set(rgba, i * 4);
  return encodePng({ width: 8, height: 8, channels: 4, data });
}

/**
 * A GLB of two quads: "lamp" with an emissive texture, an occlusion texture (strength 0.6) and a
 * metallic-roughness texture of its own; "orm" with one image as occlusion and metallic-roughness.
 * `occlusionTexCoord` sets the lamp's occlusion texture's uv set.
 */
async function lampGlb(occlusionTexCoord = 0): Promise<Uint8Array> {
  const document = new Document();
  const buffer = document.createBuffer();
  const accessor = (array: Float32Array | Uint32Array, type: 'VEC3' | 'VEC2' | 'SCALAR') => document.createAccessor().setArray(array).setType(type).setBuffer(buffer);
  const image = async (name: string, rgba: [number, number, number, number]) => document.createTexture(name).setImage(await png(rgba)).setMimeType('image/png');
  const glow = await image('glow', [255, 160, 40, 255]);
  const occlusion = await image('occlusion', [90, 255, 255, 255]);
  const roughness = await image('roughness', [0, 200, 30, 255]);
  const orm = await image('orm', [120, 180, 0, 255]);
  const lamp = document.createMaterial('lamp').setEmissiveFactor([1, 0.5, 0]).setEmissiveTexture(glow)
    .setOcclusionTexture(occlusion).setOcclusionStrength(0.6).setMetallicRoughnessTexture(roughness);
  lamp.getOcclusionTextureInfo()!.setTexCoord(occlusionTexCoord);
  const packed = document.createMaterial('orm').setMetallicRoughnessTexture(orm).setOcclusionTexture(orm);
  const scene = document.createScene();
  [lamp, packed].forEach((material, i) => {
    const primitive = document.createPrimitive()
      .setAttribute('POSITION', accessor(new Float32Array([i, 0, 0, i + 1, 0, 0, i + 1, 1, 0, i, 1, 0]), 'VEC3'))
      .setAttribute('NORMAL', accessor(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]), 'VEC3'))
      .setAttribute('TEXCOORD_0', accessor(new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]), 'VEC2'))
      .setIndices(accessor(new Uint32Array([0, 1, 2, 0, 2, 3]), 'SCALAR'))
      .setMaterial(material);
    scene.addChild(document.createNode(material.getName()).setMesh(document.createMesh(material.getName()).addPrimitive(primitive)));
  });
  return new WebIO().writeBinary(document);
}

describe('GLB materials', () => {
  test('an emissive texture compiles as colour, an occlusion texture as data with its strength; an ORM image is one texture', async () => {
    write('meshes/lamp.glb', await lampGlb());
    expect((await compileProject(source, out)).failed).toEqual([]);
    const mesh = output<MeshMeta>('meshes/lamp.glb', 'mesh') as Container<StaticMeshMeta>;
    expect(mesh.meta.kind).toBe('static');
    const { materials, textures } = mesh.meta;
    const usage = (index: number | undefined): string | undefined => (index === undefined ? undefined : textures[index]!.usage);
    const [lamp, orm] = materials as [StaticMeshMeta['materials'][number], StaticMeshMeta['materials'][number]];
    expect(lamp).toMatchObject({ name: 'lamp', emissive: [1, 0.5, 0], occlusionStrength: expect.closeTo(0.6, 6) as number });
    expect(usage(lamp.emissiveTexture)).toBe('color');
    expect(usage(lamp.occlusionTexture)).toBe('data');
    expect(usage(lamp.metallicRoughnessTexture)).toBe('data');
    expect(lamp.occlusionTexture).not.toBe(lamp.metallicRoughnessTexture);
    // ORM: the one image, as data, is the one texture both slots name.
    expect(orm.occlusionTexture).toBeDefined();
    expect(orm.occlusionTexture).toBe(orm.metallicRoughnessTexture);
    expect(orm.occlusionStrength).toBe(1);
    expect(orm.emissiveTexture).toBeUndefined();
    expect(textures).toHaveLength(4);
    // What the runtime hands to @cuttle/render.
    const input = meshMaterialInput({ groups: [], container: mesh }, 0, (index) => 100 + index);
    expect(input).toMatchObject({ emissive: [1, 0.5, 0], emissiveTexture: 100 + lamp.emissiveTexture!, occlusionTexture: 100 + lamp.occlusionTexture!, occlusionStrength: lamp.occlusionStrength });
    const packed = meshMaterialInput({ groups: [], container: mesh }, 1, (index) => 100 + index);
    expect(packed.occlusionTexture).toBe(packed.metallicRoughnessTexture);
  });

  test('an occlusion texture read through TEXCOORD_1 is refused naming the material, and the previous output stays', async () => {
    write('meshes/lamp.glb', await lampGlb());
    expect((await compileProject(source, out)).failed).toEqual([]);
    const before = readFileSync(join(out, 'meshes/lamp.glb.cr'));
    write('meshes/lamp.glb', await lampGlb(1));
    const report = await compileProject(source, out);
    expect(report.failed.map((f) => f.path)).toEqual(['meshes/lamp.glb']);
    expect(report.failed[0]!.error.message).toMatch(/material "lamp" \(glTF material 0\): its occlusion texture \(image 1 "occlusion"\) is read through TEXCOORD_1/);
    expect(readFileSync(join(out, 'meshes/lamp.glb.cr'))).toEqual(before);
  });
});

describe('.material files', () => {
  beforeEach(async () => {
    write('textures/glow.png', await png([255, 120, 0, 255]));
    write('textures/orm.png', await png([100, 200, 0, 255]));
    write('textures/ripple.png', await png([128, 128, 255, 255]));
  });

  test('emissive_texture compiles as colour, occlusion_texture as data, the same png as metallic_roughness_texture too', async () => {
    write('materials/lamp.material', 'base_color = [1 1 1 1]\nemissive = [2 1 0]\nemissive_texture = "textures/glow"\nmetallic_roughness_texture = "textures/orm"\nocclusion_texture = "textures/orm"\nocclusion_strength = 0.5\n');
    write('materials/plain.material', 'base_color = [1 1 1 1]\nocclusion_texture = "textures/orm"\n');
    expect((await compileProject(source, out)).failed).toEqual([]);
    expect(output<MaterialMeta>('materials/lamp.material', 'material').meta).toMatchObject({
      emissive: [2, 1, 0], emissiveTexture: 'textures/glow', metallicRoughnessTexture: 'textures/orm', occlusionTexture: 'textures/orm', occlusionStrength: 0.5,
    });
    expect(output<MaterialMeta>('materials/plain.material', 'material').meta).toMatchObject({ occlusionTexture: 'textures/orm', occlusionStrength: 1 });
    expect(output<TextureMeta>('textures/glow.png', 'texture').meta.usage).toBe('color');
    expect(output<TextureMeta>('textures/orm.png', 'texture').meta.usage).toBe('data');
  });

  test('a missing texture, a strength out of 0..1 or without a texture fail at the key; a normal map as occlusion is refused naming both', async () => {
    const failure = async (text: string): Promise<string> => {
      write('materials/lamp.material', text);
      const report = await compileProject(source, out);
      expect(report.failed.map((f) => f.path)).toEqual(['materials/lamp.material']);
      return report.failed[0]!.error.message;
    };
    expect(await failure('base_color = [1 1 1 1]\nemissive_texture = "textures/glo"\n')).toBe('materials/lamp.material:2:20: refers to textures/glo.png, which does not exist. Create textures/glo.png, or use one of: textures/glow, textures/orm, textures/ripple');
    expect(await failure('base_color = [1 1 1 1]\nocclusion_texture = "textures/missing"\n')).toMatch(/^materials\/lamp\.material:2:21: refers to textures\/missing\.png, which does not exist/);
    expect(await failure('base_color = [1 1 1 1]\nocclusion_texture = "textures/orm"\nocclusion_strength = 1.5\n')).toMatch(/^materials\/lamp\.material:3:22: occlusion_strength: .*Expected <=1 but received 1\.5/);
    expect(await failure('base_color = [1 1 1 1]\nocclusion_strength = 0.5\n')).toMatch(/occlusion_strength is set on a material without an occlusion_texture/);

    write('materials/lamp.material', 'base_color = [1 1 1 1]\nocclusion_texture = "textures/ripple"\n');
    write('materials/waves.material', 'base_color = [1 1 1 1]\nnormal_texture = "textures/ripple"\n');
    const report = await compileProject(source, out);
    expect(report.failed.map((f) => f.path)).toEqual(['textures/ripple.png']);
    const message = report.failed[0]!.error.message;
    expect(message).toContain('occlusion data for materials/lamp.material (occlusion_texture)');
    expect(message).toContain('a normal map for materials/waves.material (normal_texture)');
  });
});

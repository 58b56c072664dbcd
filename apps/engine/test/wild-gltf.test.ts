// Real-world GLBs (test/fixtures/wild: the Khronos sample models CesiumMilkTruck and
// NormalTangentTest) compiled with their own materials and embedded textures: the groups and
// materials the glTF says, its factors, its images as KTX2 close to the source, the cache
// (an unchanged GLB is not encoded again), and bad files refused while the previous output stays.
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadLibrary } from '@cuttle/ecs';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { createLevelLibrary } from '../src/compiler/resources/level.ts';
import { readContainer, section, type Container } from '../src/runtime/container.ts';
import { DATA_FORMAT_VERSION, resourceHash, type LevelMeta, type MeshMeta, type StaticMeshMeta } from '../src/runtime/formats.ts';
import { basisModule, TranscodeTarget } from '../src/textures/basis-module.ts';
import { psnrChannel, psnrRgb } from '../src/textures/quality.ts';
import { meshMaterialInput } from '../src/runtime/mesh-groups.ts';
import { transcodeKtx2 } from '../src/textures/transcode-ktx2.ts';
import { ktx2EncodeCount } from '../src/textures/encode-ktx2.ts';
import sharp from 'sharp';
import { replaceImages } from './fixtures/wild/glb-images.ts';
import { fixtureImage, glbChunks, WILD, wildProject, withGlbJson, type WildProject } from './wild-project.ts';

let project: WildProject;
beforeEach(() => {
  project = wildProject();
});
afterEach(() => {
  project.dispose();
});

function mesh(name: string): Container<StaticMeshMeta> {
  const c = readContainer<MeshMeta>(readFileSync(join(project.out, `meshes/${name}.glb.cr`)), 'mesh');
  if (c.meta.kind !== 'static') throw new Error(`${name} is not static`);
  return c as Container<StaticMeshMeta>;
}

/** Embedded image `index` of a fixture, decoded to RGBA8 by sharp. */
async function sourceImage(file: string, index: number): Promise<Uint8Array> {
  return (await fixtureImage(file, index)).rgba;
}

async function decoded(c: Container<StaticMeshMeta>, texture: number): Promise<Uint8Array> {
  const { width, height, levels } = c.meta.textures[texture]!;
  return transcodeKtx2(await basisModule(), section(c, `texture${texture}`, Uint8Array), { target: TranscodeTarget.rgba32, format: 'rgba8unorm' }, { width, height, levels }).levels[0]!;
}

describe('wild GLBs', () => {
  test('CesiumMilkTruck: four materials from the glTF, one group each, their shared image compiled once', async () => {
    const report = await compileProject(project.source, project.out);
    expect(report.failed).toEqual([]);
    const truck = mesh('truck');
    const gltf = glbChunks(readFileSync(join(WILD, 'CesiumMilkTruck.glb'))).json;
    // Three primitives of the body (truck, glass, window trim) and the wheels, two nodes placing them.
    expect(truck.meta.materials.map((m) => m.name)).toEqual(['truck', 'glass', 'window_trim', 'wheels']);
    expect(truck.meta.groups.map((g) => g.material)).toEqual([0, 1, 2, 3]);
    gltf.materials.forEach((source, i) => {
      const pbr = source.pbrMetallicRoughness as { baseColorFactor?: number[]; metallicFactor?: number };
      const m = truck.meta.materials[i]!;
      expect(m.baseColor).toEqual(pbr.baseColorFactor ?? [1, 1, 1, 1]);
      expect(m.metallic).toBe(pbr.metallicFactor ?? 1);
      expect(m.roughness).toBe(1);
      expect(m.alphaMode).toBe('opaque');
    });
    // truck and wheels name two glTF textures of one image: one compiled texture, colour.
    expect(truck.meta.materials.map((m) => m.baseColorTexture)).toEqual([0, undefined, undefined, 0]);
    expect(truck.meta.textures).toEqual([{ width: 512, height: 512, levels: 10, usage: 'color', alpha: false, codec: 'basis', source: expect.stringMatching(new RegExp(`^[0-9a-f]{40}:color:final:v${DATA_FORMAT_VERSION}$`)) as unknown }]);
    expect(psnrRgb(await decoded(truck, 0), await sourceImage('CesiumMilkTruck.glb', 0))).toBeGreaterThan(28);
    // Groups tile the vertex and index sections; their indices stay inside their own vertices.
    const indices = section(truck, 'indices', Uint32Array);
    let vertex = 0, index = 0;
    for (const g of truck.meta.groups) {
      expect([g.firstVertex, g.firstIndex]).toEqual([vertex, index]);
      expect(Math.max(...indices.subarray(g.firstIndex, g.firstIndex + g.indexCount))).toBeLessThan(g.vertexCount);
      vertex += g.vertexCount;
      index += g.indexCount;
    }
    expect([vertex, index]).toEqual([truck.meta.vertexCount, indices.length]);
    // Quantised as render stores them: unorm16 xyzw positions and u16 uv pairs, snorm8 normals.
    expect(section(truck, 'positions', Uint16Array).length).toBe(vertex * 4);
    expect(section(truck, 'uvs', Uint16Array).length).toBe(vertex * 2);
    expect(section(truck, 'normals', Uint8Array).length).toBe(vertex * 4);
    for (const g of truck.meta.groups) {
      expect(g.positionRange[3], "a group's position scale").toBeGreaterThan(0);
      // The box of the group's vertices fits its range: the largest extent is the scale.
      expect(g.positionRange.every(Number.isFinite)).toBe(true);
    }
    // The wheels (two nodes, 2 x 1,152 triangles) get levels of detail; the glass (56 triangles) none.
    expect(truck.meta.groups[3]!.lods.length).toBeGreaterThan(0);
    expect(truck.meta.groups[1]!.lods).toEqual([]);
  });

  test('NormalTangentTest: a double-sided material with a colour texture (ETC1S), a normal map and an ORM map (UASTC, occlusion and metallic-roughness: one texture), carried to the runtime material', async () => {
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const tangents = mesh('tangents');
    expect(tangents.meta.groups.length).toBe(1);
    expect(tangents.meta.materials).toEqual([{ name: 'material 0', baseColor: [1, 1, 1, 1], metallic: 1, roughness: 1, emissive: [0, 0, 0], alphaMode: 'opaque', alphaCutoff: 0.5, normalScale: 1, doubleSided: true, baseColorTexture: 0, normalTexture: 1, metallicRoughnessTexture: 2, occlusionTexture: 2, occlusionStrength: 1 }]);
    expect(tangents.meta.textures.map((t) => [t.usage, t.width, t.height])).toEqual([['color', 256, 256], ['normal', 256, 256], ['data', 256, 256]]);
    // glTF image 0 is the colour, image 2 the normal map, image 1 the metallic-roughness (and occlusion) map.
    expect(psnrRgb(await decoded(tangents, 0), await sourceImage('NormalTangentTest.glb', 0))).toBeGreaterThan(28);
    expect(psnrRgb(await decoded(tangents, 1), await sourceImage('NormalTangentTest.glb', 2))).toBeGreaterThan(35);
    // Roughness (green) and metalness (blue) each kept apart: 55.4 and 53.9 dB measured; ETC1S gave 28.5 and 27.4.
    const data = await decoded(tangents, 2), source = await sourceImage('NormalTangentTest.glb', 1);
    expect(psnrChannel(data, source, 1)).toBeGreaterThan(45);
    expect(psnrChannel(data, source, 2)).toBeGreaterThan(45);
    // What the runtime hands to @cuttle/render: the texture each slot names, added through `texture`.
    const input = meshMaterialInput({ groups: [], container: tangents }, 0, (index) => 100 + index);
    expect(input).toMatchObject({ baseColorTexture: 100, normalTexture: 101, metallicRoughnessTexture: 102, occlusionTexture: 102, occlusionStrength: 1, metallic: 1, roughness: 1 });
  });

  test('the truck with its image as a JPEG (as many exporters embed it) compiles the JPEG close to its pixels', async () => {
    let jpeg = Buffer.alloc(0);
    const variant = await replaceImages(readFileSync(join(WILD, 'CesiumMilkTruck.glb')), async (bytes) => {
      jpeg = await sharp(bytes).jpeg({ quality: 90 }).toBuffer();
      return { bytes: jpeg, mimeType: 'image/jpeg' };
    });
    expect(glbChunks(variant).json.images.map((image) => image.mimeType)).toEqual(['image/jpeg']);
    writeFileSync(join(project.source, 'meshes/truck.glb'), variant);
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const truck = mesh('truck');
    expect(truck.meta.textures.map((t) => [t.width, t.height, t.usage, t.codec])).toEqual([[512, 512, 'color', 'basis']]);
    const { data } = await sharp(jpeg).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(psnrRgb(await decoded(truck, 0), new Uint8Array(data))).toBeGreaterThan(28);
  });

  test('a unit without material places its mesh with hash 0 (its own materials); a material still overrides', async () => {
    project.edit('levels/wild.level', 'unit = "units/truck"', 'unit = "units/truck"\n        material = "materials/white"');
    project.edit('levels/wild.level', 'units = [', 'units = [\n    {\n        id = "tangents"\n        unit = "units/tangents"\n    }');
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const level = readContainer<LevelMeta>(readFileSync(join(project.out, 'levels/wild.level.cr')), 'level');
    const { scene, managers } = createLevelLibrary();
    loadLibrary(scene.library, section(level, 'ecs', Uint8Array));
    expect(Array.from(managers.render.fields.material.subarray(0, managers.render.count))).toEqual([0, resourceHash('material', 'materials/white')]);
  });

  test('an unchanged GLB is not compiled again; editing the unit that names it rebuilds only the unit and level', async () => {
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const before = readManifest(project.out)!.resources['meshes/truck.glb']!;
    expect((await compileProject(project.source, project.out)).compiled).toEqual([]);
    project.write('units/truck.unit', 'mesh = "meshes/truck"\nmaterial = "materials/white"\n');
    const again = await compileProject(project.source, project.out);
    expect(again.compiled.map((c) => c.path).sort()).toEqual(['levels/wild.level', 'units/truck.unit']);
    expect(readManifest(project.out)!.resources['meshes/truck.glb']).toEqual(before);
  });

  test('a GLB whose geometry or factors changed reuses its unchanged encoded images: no texture is encoded again, and the output is what a fresh compile writes', async () => {
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    const first = readContainer<MeshMeta>(readFileSync(join(project.out, 'meshes/truck.glb.cr')), 'mesh') as Container<StaticMeshMeta>;
    expect(first.meta.textures.every((t) => typeof t.source === 'string')).toBe(true);
    // Edit the truck: a material factor and a node's place (the image bytes stay).
    const bytes = readFileSync(join(WILD, 'CesiumMilkTruck.glb'));
    const { json } = glbChunks(bytes);
    (json.materials[1] as { pbrMetallicRoughness: { baseColorFactor: number[] } }).pbrMetallicRoughness.baseColorFactor = [0.2, 0.3, 0.9, 1];
    const nodes = json.nodes as { mesh?: number; matrix?: number[]; translation?: number[] }[];
    const moved = nodes.find((n) => n.mesh !== undefined && n.matrix === undefined)!;
    moved.translation = (moved.translation ?? [0, 0, 0]).map((t) => t + 0.25);
    writeFileSync(join(project.source, 'meshes/truck.glb'), withGlbJson(bytes, json));
    const encodes = ktx2EncodeCount();
    const report = await compileProject(project.source, project.out);
    expect(report.compiled.map((c) => c.path)).toContain('meshes/truck.glb');
    expect(ktx2EncodeCount() - encodes, 'textures encoded again').toBe(0);
    const edited = readFileSync(join(project.out, 'meshes/truck.glb.cr'));
    const reread = readContainer<MeshMeta>(edited, 'mesh') as Container<StaticMeshMeta>;
    expect(reread.meta.materials[1]!.baseColor).toEqual([0.2, 0.3, 0.9, 1]);
    first.meta.textures.forEach((_, i) => {
      expect(Buffer.from(section(reread, `texture${i}`, Uint8Array)).equals(Buffer.from(section(first, `texture${i}`, Uint8Array)))).toBe(true);
    });
    // A fresh compile of the edited GLB (no previous output) encodes and writes the same bytes.
    const fresh = join(project.out, '..', 'fresh');
    const before = ktx2EncodeCount();
    expect((await compileProject(project.source, fresh)).failed).toEqual([]);
    expect(ktx2EncodeCount() - before).toBeGreaterThan(0);
    expect(readFileSync(join(fresh, 'meshes/truck.glb.cr')).equals(edited)).toBe(true);
  });

  test('a GLB compiled in the watch loop holds its images as drafts, and the next compile without drafts compresses them', async () => {
    expect((await compileProject(project.source, project.out, { textureDrafts: true })).failed).toEqual([]);
    const codecs = (): string[] => (readContainer<MeshMeta>(readFileSync(join(project.out, 'meshes/truck.glb.cr')), 'mesh').meta as StaticMeshMeta).textures.map((t) => t.codec);
    expect(codecs()).toEqual(['rgba8']);
    expect(readManifest(project.out)!.resources['meshes/truck.glb']!.settings).toEqual({ quality: 'draft' });
    const report = await compileProject(project.source, project.out);
    expect(report.compiled.map((c) => c.path).sort()).toEqual(['meshes/tangents.glb', 'meshes/truck.glb']);
    expect(codecs()).toEqual(['basis']);
    expect(readManifest(project.out)!.resources['meshes/truck.glb']!.settings).toBeUndefined();
    expect((await compileProject(project.source, project.out)).compiled).toEqual([]);
  });

  describe('bad files are refused and the previous output stays', () => {
    async function refused(bytes: Uint8Array): Promise<string> {
      expect((await compileProject(project.source, project.out)).failed).toEqual([]);
      const good = readFileSync(join(project.out, 'meshes/truck.glb.cr'));
      const entry = readManifest(project.out)!.resources['meshes/truck.glb'];
      writeFileSync(join(project.source, 'meshes/truck.glb'), bytes);
      const report = await compileProject(project.source, project.out);
      expect(report.failed.map((f) => f.path)).toEqual(['meshes/truck.glb']);
      expect(readFileSync(join(project.out, 'meshes/truck.glb.cr')).equals(good)).toBe(true);
      expect(readManifest(project.out)!.resources['meshes/truck.glb']).toEqual(entry);
      return report.failed[0]!.error.message;
    }

    test('a truncated GLB', async () => {
      const bytes = readFileSync(join(WILD, 'CesiumMilkTruck.glb'));
      expect(await refused(bytes.subarray(0, Math.floor(bytes.length * 0.6)))).toMatch(/meshes\/truck\.glb:1:1: is not a readable GLB/);
    });

    test('an embedded PNG whose header claims more rows than its data holds', async () => {
      const bytes = new Uint8Array(readFileSync(join(WILD, 'CesiumMilkTruck.glb')));
      const { json, binAt } = glbChunks(bytes);
      const png = binAt + (json.bufferViews[json.images[0]!.bufferView]!.byteOffset ?? 0);
      const view = new DataView(bytes.buffer, png);
      // IHDR's height (bytes 20-23 of the PNG) doubled, its CRC made right again: only the data is short.
      view.setUint32(20, view.getUint32(20) * 2);
      view.setUint32(29, crc32(bytes.subarray(png + 12, png + 29)));
      const message = await refused(bytes);
      expect(message).toContain('meshes/truck.glb');
      expect(message).toContain('material "truck" (glTF material 0): its base colour texture (image 0)');
      expect(message).toMatch(/does not decode .*damaged or truncated/);
    });

    test('a KHR_texture_transform, or another uv set, on a metallic-roughness texture', async () => {
      const bytes = readFileSync(join(WILD, 'NormalTangentTest.glb'));
      const gltf = glbChunks(bytes).json;
      const info = (gltf.materials[0] as { pbrMetallicRoughness: { metallicRoughnessTexture: Record<string, unknown> } }).pbrMetallicRoughness.metallicRoughnessTexture;
      info.extensions = { KHR_texture_transform: { scale: [2, 2] } };
      gltf.extensionsUsed = ['KHR_texture_transform'];
      expect(await refused(withGlbJson(bytes, gltf))).toContain('glTF material 0 uses KHR_texture_transform on a texture, which this compiler does not apply');
      delete info.extensions;
      delete gltf.extensionsUsed;
      writeFileSync(join(project.source, 'meshes/truck.glb'), readFileSync(join(WILD, 'CesiumMilkTruck.glb')));
      info.texCoord = 1;
      expect(await refused(withGlbJson(bytes, gltf))).toContain('glTF material 0: its metallic-roughness texture (image 1) is read through TEXCOORD_1; this compiler reads TEXCOORD_0 only');
    });

    test('a KHR_texture_transform on a base colour texture', async () => {
      const bytes = readFileSync(join(WILD, 'CesiumMilkTruck.glb'));
      const { json } = glbChunks(bytes);
      const wheels = json.materials[3] as { pbrMetallicRoughness: { baseColorTexture: Record<string, unknown> } };
      wheels.pbrMetallicRoughness.baseColorTexture.extensions = { KHR_texture_transform: { scale: [2, 2] } };
      json.extensionsUsed = ['KHR_texture_transform'];
      expect(await refused(withGlbJson(bytes, json))).toContain('material "wheels" (glTF material 3) uses KHR_texture_transform on a texture, which this compiler does not apply');
    });
  });
});

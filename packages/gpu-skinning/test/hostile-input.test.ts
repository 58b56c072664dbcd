// Broken glTF input derived from the real skinned column (@cuttle/test-utils): its JSON edited
// (an attribute dropped, an accessor index left dangling) and handed over as an application
// with its own glTF reader would, accessor indices resolved against the file's accessors. Each
// refusal is a GpuSkinningError naming the accessor or the limit, raised before any work.
import { NodeIO, type Accessor, type GLTF } from '@gltf-transform/core';
import { describe, expect, test } from 'vitest';
import { buildSkinnedColumnGlb } from '@cuttle/test-utils/skinned-glb';
import {
  buildSkinnedVertices,
  clipFromGltf,
  GpuSkinningError,
  skeletonFromGltf,
  skinnedVerticesFromGltf,
  type GltfAnimationInput,
  type GltfPrimitiveAttributes,
  type GltfSkinInput,
} from '../src/index.ts';

/** The column's glTF JSON and the arrays of its accessors, in the JSON's accessor order. */
async function column(): Promise<{ json: GLTF.IGLTF; accessors: ArrayLike<number>[] }> {
  const io = new NodeIO();
  const { json, resources } = await io.writeJSON(await io.readBinary(await buildSkinnedColumnGlb()));
  const accessors = (await io.readJSON({ json: structuredClone(json), resources })).getRoot().listAccessors();
  expect(accessors).toHaveLength(json.accessors!.length);
  // gltf-transform's TypedArray union names Float16Array, which the ES2022 lib lacks.
  const arrayOf = (accessor: Accessor): ArrayLike<number> => {
    const array: unknown = accessor.getArray();
    return array as ArrayLike<number>;
  };
  return { json, accessors: accessors.map(arrayOf) };
}

/** What an application hands over from (possibly edited) JSON: indices resolved, nothing checked. */
function handOver(json: GLTF.IGLTF, accessors: readonly ArrayLike<number>[]) {
  const resolve = (index: number | undefined): ArrayLike<number> | undefined => (index === undefined ? undefined : accessors[index]);
  const nodes = json.nodes!.map((node) => ({ children: node.children ?? [], translation: node.translation, rotation: node.rotation, scale: node.scale, matrix: node.matrix, name: node.name }));
  const skinDef = json.skins![0]!;
  const skin: GltfSkinInput = { joints: skinDef.joints, ...('inverseBindMatrices' in skinDef ? { inverseBindMatrices: resolve(skinDef.inverseBindMatrices) } : {}) };
  const animationDef = json.animations![0]!;
  const animation = {
    name: animationDef.name,
    samplers: animationDef.samplers.map((s) => ({ input: resolve(s.input), output: resolve(s.output), interpolation: s.interpolation })),
    channels: animationDef.channels.map((c) => ({ node: c.target.node ?? -1, path: c.target.path, sampler: c.sampler })),
  } as GltfAnimationInput; // samplers may hold undefined, as a JavaScript caller's would
  const attributes = Object.fromEntries(Object.entries(json.meshes![0]!.primitives[0]!.attributes).map(([name, index]) => [name, resolve(index)]));
  return { nodes, skin, animation, attributes: attributes as unknown as GltfPrimitiveAttributes };
}

/** An accessor that claims `length` values and fails the test when any of them is read. */
function claimedAccessor(length: number): ArrayLike<number> {
  return new Proxy<ArrayLike<number>>({ length }, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`value ${key} was read: the input was walked before it was refused`);
      return Reflect.get(target, key) as unknown;
    },
  });
}

describe('skinnedVerticesFromGltf', () => {
  test.each(['POSITION', 'JOINTS_0', 'WEIGHTS_0'])('a primitive without %s is refused naming the accessor', async (name) => {
    const { json, accessors } = await column();
    const primitive = json.meshes![0]!.primitives[0]!;
    primitive.attributes = Object.fromEntries(Object.entries(primitive.attributes).filter(([key]) => key !== name));
    const { attributes } = handOver(json, accessors);
    const build = () => skinnedVerticesFromGltf(attributes, { format: 'packed' });
    expect(build).toThrow(GpuSkinningError);
    expect(build).toThrow(new RegExp(`no ${name} accessor`));
  });

  test('an accessor of the wrong size is named as glTF names it', async () => {
    const { json, accessors } = await column();
    const primitive = json.meshes![0]!.primitives[0]!;
    primitive.attributes.NORMAL = primitive.attributes.JOINTS_0!; // 4 values a vertex, not 3
    const { attributes } = handOver(json, accessors);
    expect(() => skinnedVerticesFromGltf(attributes, { format: 'packed' })).toThrow(/NORMAL has 96 values; 72 expected \(3 per vertex for POSITION's 24 vertices\)/);
  });

  test('a 2^24-vertex input is refused from its counts, before any vertex is read', () => {
    const vertices = 2 ** 24;
    const started = performance.now();
    for (const format of ['packed', 'f32'] as const) {
      const attributes = { POSITION: claimedAccessor(vertices * 3), JOINTS_0: claimedAccessor(vertices * 4), WEIGHTS_0: claimedAccessor(vertices * 4) };
      const limit = format === 'packed' ? 8_388_608 : 1_677_721;
      const refusal = new RegExp(`POSITION holds ${vertices} vertices, more than maxVertices ${limit}`);
      expect(() => skinnedVerticesFromGltf(attributes, { format })).toThrow(refusal);
      // The eight-influence path merges JOINTS_0/1 itself before building: refused before that too.
      const eight = { ...attributes, JOINTS_1: claimedAccessor(vertices * 4), WEIGHTS_1: claimedAccessor(vertices * 4) };
      expect(() => skinnedVerticesFromGltf(eight, { format })).toThrow(refusal);
      expect(() => buildSkinnedVertices({ positions: attributes.POSITION, joints: attributes.JOINTS_0, weights: attributes.WEIGHTS_0 }, { format })).toThrow(/positions holds 16777216 vertices/);
    }
    expect(performance.now() - started).toBeLessThan(500);
  });

  test('maxVertices sets the limit: the column fits 24 and is refused at 23', async () => {
    const { json, accessors } = await column();
    const { attributes } = handOver(json, accessors);
    expect(skinnedVerticesFromGltf(attributes, { format: 'packed', maxVertices: 24 }).vertices.vertexCount).toBe(24);
    expect(() => skinnedVerticesFromGltf(attributes, { format: 'packed', maxVertices: 23 })).toThrow(/POSITION holds 24 vertices, more than maxVertices 23/);
    expect(() => skinnedVerticesFromGltf(attributes, { format: 'packed', maxVertices: 0 })).toThrow(/maxVertices must be a positive integer, got 0/);
  });
});

describe('clipFromGltf', () => {
  test.each(['output', 'input'] as const)('a sampler whose %s accessor is missing is refused naming the sampler', async (which) => {
    const { json, accessors } = await column();
    json.animations![0]!.samplers[1]![which] = json.accessors!.length + 7; // dangling
    const { nodes, skin, animation } = handOver(json, accessors);
    const skeleton = skeletonFromGltf(nodes, skin);
    const load = () => clipFromGltf(animation, skeleton);
    expect(load).toThrow(GpuSkinningError);
    expect(load).toThrow(new RegExp(`sampler 1 has no ${which} accessor`));
  });
});

describe('skeletonFromGltf', () => {
  test('a dangling inverseBindMatrices index is an error, not identity matrices', async () => {
    const { json, accessors } = await column();
    json.skins![0]!.inverseBindMatrices = json.accessors!.length + 7;
    const { nodes, skin } = handOver(json, accessors);
    expect('inverseBindMatrices' in skin).toBe(true);
    const load = () => skeletonFromGltf(nodes, skin);
    expect(load).toThrow(GpuSkinningError);
    expect(load).toThrow(/the skin's inverseBindMatrices accessor holds nothing/);
  });

  test('a skin without inverseBindMatrices still gets identity inverse binds (glTF\'s default)', async () => {
    const { json, accessors } = await column();
    delete json.skins![0]!.inverseBindMatrices;
    const { nodes, skin } = handOver(json, accessors);
    const { skeleton } = skeletonFromGltf(nodes, skin);
    expect(Array.from(skeleton.inverseBindMatrices.subarray(16, 32))).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });
});

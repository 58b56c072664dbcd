// GLB writers shared by the sample and the large-project generator: a static mesh (one or more
// primitives, each under its own node) and the procedural walker (@cuttle/gpu-skinning's
// character with its skeleton, skin and walk clip).
import { Document, NodeIO, type Node as GltfNode } from '@gltf-transform/core';
import { createProceduralCharacter, type ProceduralCharacterOptions } from '@cuttle/gpu-skinning';
import type { MeshInput } from '@cuttle/render';

export interface MeshPart {
  mesh: MeshInput;
  /** Where the part's node sits in the mesh (the compiler merges parts at their node matrices). */
  translation?: [number, number, number];
}

/** One GLB mesh of several primitives, each part under its own node, as exporters write them. */
export async function staticGlb(...parts: MeshPart[]): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  parts.forEach(({ mesh, translation }, i) => {
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(mesh.positions).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(mesh.normals).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(Uint32Array.from(mesh.indices)).setBuffer(buffer));
    if (mesh.uvs) primitive.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(mesh.uvs).setBuffer(buffer));
    const node = doc.createNode(i === 0 ? 'mesh' : `part${i}`).setMesh(doc.createMesh().addPrimitive(primitive));
    if (translation) node.setTranslation(translation);
    scene.addChild(node);
  });
  return new NodeIO().writeBinary(doc);
}

export async function walkerGlb(options: ProceduralCharacterOptions = {}): Promise<Uint8Array> {
  const character = createProceduralCharacter(options);
  const { skeleton, walk, vertices, indices } = character;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const nodes: GltfNode[] = [];
  for (let i = 0; i < skeleton.nodeCount; i++) {
    nodes.push(
      doc
        .createNode(skeleton.names[i] ?? `bone${i}`)
        .setTranslation([...skeleton.restTranslations.subarray(i * 3, i * 3 + 3)] as [number, number, number])
        .setRotation([...skeleton.restRotations.subarray(i * 4, i * 4 + 4)] as [number, number, number, number])
        .setScale([...skeleton.restScales.subarray(i * 3, i * 3 + 3)] as [number, number, number]),
    );
  }
  const scene = doc.createScene();
  for (let i = 0; i < skeleton.nodeCount; i++) {
    const parent = skeleton.parents[i]!;
    if (parent < 0) scene.addChild(nodes[i]!);
    else nodes[parent]!.addChild(nodes[i]!);
  }
  const skin = doc.createSkin().setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(Float32Array.from(skeleton.inverseBindMatrices)).setBuffer(buffer));
  for (const joint of skeleton.joints) skin.addJoint(nodes[joint]!);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(Float32Array.from(vertices.positions)).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(Float32Array.from(vertices.normals ?? [])).setBuffer(buffer))
    .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(Uint16Array.from(vertices.joints)).setBuffer(buffer))
    .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(Float32Array.from(vertices.weights)).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(Uint32Array.from(indices)).setBuffer(buffer));
  scene.addChild(doc.createNode('walker').setMesh(doc.createMesh('walker').addPrimitive(primitive)).setSkin(skin));
  const animation = doc.createAnimation('walk');
  for (const channel of walk.channels) {
    const sampler = doc
      .createAnimationSampler()
      .setInput(doc.createAccessor().setType('SCALAR').setArray(Float32Array.from(channel.times)).setBuffer(buffer))
      .setOutput(doc.createAccessor().setType(channel.components === 4 ? 'VEC4' : 'VEC3').setArray(Float32Array.from(channel.values)).setBuffer(buffer))
      .setInterpolation(channel.interpolation);
    animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(nodes[channel.node]!).setTargetPath(channel.path).setSampler(sampler));
  }
  return new NodeIO().writeBinary(doc);
}


// A small skinned, animated GLB built with @gltf-transform/core, for tests that need a real
// file: @cuttle/gpu-skinning's glTF round trip and the demo's drop test in the browser.
import { Document, NodeIO, type Node as GltfNode } from '@gltf-transform/core';

export interface SkinnedColumnOptions {
  /** Include the 'walk' animation (default true); false makes a skinned file with nothing to play. */
  animation?: boolean;
}

/** Inverse of an affine column-major 4x4. */
export function invertAffine(m: ArrayLike<number>): number[] {
  const [a, b, c, , d, e, f, , g, h, i, , tx, ty, tz] = Array.from<number>(m);
  const A = e! * i! - f! * h!, B = -(d! * i! - f! * g!), C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  const inv = [
    A / det, -(b! * i! - c! * h!) / det, (b! * f! - c! * e!) / det, 0,
    B / det, (a! * i! - c! * g!) / det, -(a! * f! - c! * d!) / det, 0,
    C / det, -(a! * h! - b! * g!) / det, (a! * e! - b! * d!) / det, 0,
  ];
  const t = [0, 1, 2].map((r) => -(inv[r]! * tx! + inv[4 + r]! * ty! + inv[8 + r]! * tz!));
  return [...inv, t[0]!, t[1]!, t[2]!, 1];
}

const aboutZ = (angle: number): [number, number, number, number] => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
const aboutX = (angle: number): [number, number, number, number] => [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)];

/** Rings and vertices per ring of the column. */
export const SKINNED_COLUMN_RINGS = 4;
export const SKINNED_COLUMN_SIDES = 6;

/**
 * An armature node (not a joint; translated, rotated and scaled) above a three-joint chain
 * hip > spine > head, a skinned column of 4 rings x 6 vertices around it (indexed triangles,
 * neighbouring joints blended), an unrelated prop node, and a 2 s 'walk' clip: spine rotation
 * (LINEAR), hip translation (STEP), head scale (CUBICSPLINE), plus a channel on the prop.
 */
export async function buildSkinnedColumnGlb(options: SkinnedColumnOptions = {}): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: 'SCALAR' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint8Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene();
  const armature = doc.createNode('armature').setTranslation([2, 0, 0]).setRotation(aboutX(0.3)).setScale([1.5, 1.5, 1.5]);
  const hip = doc.createNode('hip').setTranslation([0, 1, 0]);
  const spine = doc.createNode('spine').setTranslation([0, 1, 0]);
  const head = doc.createNode('head').setTranslation([0, 1, 0]);
  const prop = doc.createNode('unrelated prop');
  armature.addChild(hip);
  hip.addChild(spine);
  spine.addChild(head);
  scene.addChild(armature).addChild(prop);
  const joints = [hip, spine, head];
  const inverseBinds = new Float32Array(joints.flatMap((joint) => invertAffine(joint.getWorldMatrix())));

  // A column from y = 1 to 4 (in armature space), weights blending neighbouring joints.
  const positions: number[] = [], normals: number[] = [], jointIds: number[] = [], weights: number[] = [], indices: number[] = [];
  const sides = SKINNED_COLUMN_SIDES;
  for (let ring = 0; ring < SKINNED_COLUMN_RINGS; ring++) {
    for (let k = 0; k < sides; k++) {
      const a = (k / sides) * Math.PI * 2;
      // The armature is transformed, so bind-pose positions go through it as the joints do.
      const local = [0.3 * Math.cos(a), 1 + ring, 0.3 * Math.sin(a), 1];
      const world = [0, 1, 2].map((r) => [0, 1, 2, 3].reduce((sum, c) => sum + armature.getWorldMatrix()[c * 4 + r]! * local[c]!, 0));
      positions.push(...world);
      normals.push(Math.cos(a), 0, Math.sin(a));
      const lower = Math.min(ring, 2);
      const upper = Math.min(ring + 1, 2);
      const share = ring === 3 ? 255 : 85 * (1 + (k % 2));
      jointIds.push(lower, upper, 0, 0);
      weights.push(255 - share, share, 0, 0);
      if (ring > 0) {
        const a0 = (ring - 1) * sides + k, a1 = (ring - 1) * sides + ((k + 1) % sides);
        const b0 = ring * sides + k, b1 = ring * sides + ((k + 1) % sides);
        indices.push(a0, b0, a1, a1, b0, b1);
      }
    }
  }
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array(normals)))
    .setAttribute('JOINTS_0', accessor('VEC4', new Uint16Array(jointIds)))
    .setAttribute('WEIGHTS_0', accessor('VEC4', new Uint8Array(weights)).setNormalized(true))
    .setIndices(accessor('SCALAR', new Uint16Array(indices)));
  const skin = doc.createSkin().setSkeleton(armature).setInverseBindMatrices(accessor('MAT4', inverseBinds));
  for (const joint of joints) skin.addJoint(joint);
  scene.addChild(doc.createNode('column').setMesh(doc.createMesh().addPrimitive(primitive)).setSkin(skin));

  if (options.animation ?? true) {
    const animation = doc.createAnimation('walk');
    const channel = (node: GltfNode, path: 'translation' | 'rotation' | 'scale', interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE', times: number[], values: number[]): void => {
      const sampler = doc.createAnimationSampler().setInput(accessor('SCALAR', new Float32Array(times))).setOutput(accessor(path === 'rotation' ? 'VEC4' : 'VEC3', new Float32Array(values))).setInterpolation(interpolation);
      animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    };
    channel(spine, 'rotation', 'LINEAR', [0, 1, 2], [...aboutZ(0), ...aboutZ(0.8), ...aboutZ(-0.4)]);
    channel(hip, 'translation', 'STEP', [0, 1.5], [0, 1, 0, 0.5, 1, 0]);
    channel(head, 'scale', 'CUBICSPLINE', [0, 2], [0, 0, 0, 1, 1, 1, 0.2, 0.2, 0.2, 0, 0, 0, 2, 2, 2, 0, 0, 0]);
    channel(prop, 'rotation', 'LINEAR', [0, 1], [...aboutZ(0), ...aboutZ(1)]);
  }
  return new NodeIO().writeBinary(doc);
}

/**
 * The same column as glTF JSON (UTF-8 bytes): its buffer embedded as a data: URI, or, with
 * `externalBuffer`, pointing at that file name (which a lone dropped file cannot bring along).
 */
export async function buildSkinnedColumnGltf(options: SkinnedColumnOptions & { externalBuffer?: string } = {}): Promise<Uint8Array> {
  const io = new NodeIO();
  const { json, resources } = await io.writeJSON(await io.readBinary(await buildSkinnedColumnGlb(options)));
  for (const buffer of json.buffers ?? []) {
    const bytes = resources[buffer.uri!]!;
    buffer.uri = options.externalBuffer ?? `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`;
  }
  return new TextEncoder().encode(JSON.stringify(json));
}

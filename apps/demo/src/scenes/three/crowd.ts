// A crowd of @cuttle/gpu-skinning's procedural walker going round in rings, built both ways:
// as one SkinnedCrowd (skinned once a frame in compute, drawn by three from the skinning's
// output) and as three's own SkinnedMesh per character (a Skeleton of Bones, skinned by three in
// the vertex stage of every pass). Only the chosen one is posed and drawn.
import { buildSkinnedVertices, computePalette, createPaletteScratch, createPose, createProceduralCharacter, GpuSkinning, sampleClip, type PaletteScratch, type Pose, type SkinnedInstance } from '@cuttle/gpu-skinning';
import { deviceOf, SkinnedCrowd } from '@cuttle/three';
import { Bone, BufferAttribute, BufferGeometry, Group, Matrix4, MeshStandardNodeMaterial, Skeleton, SkinnedMesh, type WebGPURenderer } from 'three/webgpu';

export type CrowdKey = 'skinned-crowd' | 'skinned-mesh';

export const CROWD_OPTIONS: Record<CrowdKey, string> = {
  'skinned-crowd': 'SkinnedCrowd (@cuttle/three)',
  'skinned-mesh': "three's SkinnedMesh per character",
};

const RINGS = 8;
const INNER_RADIUS = 7.5;
const RING_GAP = 1;
/** Metres per second, and clip seconds per second at that pace (the gpu-skinning scene's). */
const WALK_SPEED = 1.2;
const CLIP_RATE = WALK_SPEED * 0.9;

export class WalkingCrowd {
  readonly count: number;
  /** Where each character stands this frame: x, z. */
  readonly positions: Float32Array;
  readonly #character = createProceduralCharacter();
  readonly #device: GPUDevice;
  readonly #skinning: GpuSkinning;
  readonly #instances: SkinnedInstance[];
  readonly #ours: SkinnedCrowd;
  readonly #theirs = new Group();
  readonly #bones: Bone[][] = [];
  readonly #meshes: SkinnedMesh[] = [];
  readonly #pose: Pose;
  readonly #palette: Float32Array;
  readonly #scratch: PaletteScratch;
  readonly #root = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  /** Per character: ring radius, direction (+1 / -1), starting angle, clip phase. */
  readonly #walks: Float32Array;

  constructor(renderer: WebGPURenderer, count: number) {
    this.count = count;
    this.positions = new Float32Array(count * 2);
    this.#walks = new Float32Array(count * 4);
    const perRing = Math.ceil(count / RINGS);
    for (let i = 0; i < count; i++) {
      const ring = i % RINGS;
      this.#walks.set([INNER_RADIUS + ring * RING_GAP, ring % 2 === 0 ? 1 : -1, (Math.floor(i / RINGS) / perRing) * Math.PI * 2 + ring * 0.4, (i * 0.37) % 1], i * 4);
    }
    const { skeleton, vertices: input, indices } = this.#character;
    this.#pose = createPose(skeleton);
    this.#palette = new Float32Array(skeleton.jointCount * 12);
    this.#scratch = createPaletteScratch(skeleton);
    const material = (): MeshStandardNodeMaterial => new MeshStandardNodeMaterial({ color: 0xb0805a, roughness: 0.6 });

    // Ours: one skinning on three's device, one mesh drawing every character's skinned copy.
    this.#device = deviceOf(renderer);
    const { vertices } = buildSkinnedVertices(input, { format: 'f32', paletteSize: skeleton.jointCount });
    this.#skinning = new GpuSkinning(this.#device, { format: 'f32', maxVertices: vertices.vertexCount, maxOutputVertices: count * vertices.vertexCount, maxBones: count * skeleton.jointCount, maxInstances: count });
    const mesh = this.#skinning.addMesh(vertices);
    this.#instances = Array.from({ length: count }, () => this.#skinning.addInstance({ mesh, palette: this.#skinning.createPalette(skeleton.jointCount) }));
    this.#ours = new SkinnedCrowd(renderer, this.#skinning, this.#instances, indices, { material: material() });

    // Three's: the same geometry as a SkinnedMesh per character, with a Skeleton of Bones each.
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(Float32Array.from(input.positions), 3));
    geometry.setAttribute('normal', new BufferAttribute(Float32Array.from(input.normals!), 3));
    geometry.setAttribute('skinIndex', new BufferAttribute(Uint16Array.from(input.joints), 4));
    geometry.setAttribute('skinWeight', new BufferAttribute(Float32Array.from(input.weights), 4));
    geometry.setIndex(new BufferAttribute(indices, 1));
    const shared = material();
    const inverses = Array.from({ length: skeleton.jointCount }, (_, j) => new Matrix4().fromArray(skeleton.inverseBindMatrices, j * 16));
    for (let i = 0; i < count; i++) {
      const bones = Array.from({ length: skeleton.nodeCount }, () => new Bone());
      const character = new SkinnedMesh(geometry, shared);
      for (let n = 0; n < skeleton.nodeCount; n++) {
        const parent = skeleton.parents[n]!;
        (parent >= 0 ? bones[parent]! : character).add(bones[n]!);
      }
      character.bind(new Skeleton(Array.from(skeleton.joints, (node) => bones[node]!), inverses), new Matrix4());
      character.frustumCulled = false;
      this.#bones.push(bones);
      this.#meshes.push(character);
      this.#theirs.add(character);
    }
  }

  /** Both crowds: add the group to the scene; `update` shows one of them. */
  get objects(): [SkinnedCrowd, Group] {
    return [this.#ours, this.#theirs];
  }

  /** Walks every character to where it is at `time` and poses the chosen crowd (ours is skinned and submitted here). */
  update(key: CrowdKey, time: number): void {
    const ours = key === 'skinned-crowd';
    this.#ours.visible = ours;
    this.#theirs.visible = !ours;
    const { skeleton, walk } = this.#character;
    const walks = this.#walks;
    const positions = this.positions;
    const pose = this.#pose;
    const root = this.#root;
    for (let i = 0; i < this.count; i++) {
      const radius = walks[i * 4]!;
      const direction = walks[i * 4 + 1]!;
      const angle = walks[i * 4 + 2]! + (direction * time * WALK_SPEED) / radius;
      const x = Math.cos(angle) * radius;
      const z = Math.sin(angle) * radius;
      // The walker faces +z: turn it to face along the ring, the way it goes.
      const heading = direction > 0 ? -angle : Math.PI - angle;
      positions[i * 2] = x;
      positions[i * 2 + 1] = z;
      sampleClip(walk, time * CLIP_RATE + walks[i * 4 + 3]!, pose);
      if (ours) {
        const c = Math.cos(heading);
        const s = Math.sin(heading);
        root[0] = c;
        root[2] = -s;
        root[8] = s;
        root[10] = c;
        root[12] = x;
        root[14] = z;
        this.#skinning.writePalette(this.#instances[i]!.palette, computePalette(skeleton, pose, this.#palette, { rootTransform: root, scratch: this.#scratch }));
      } else {
        const character = this.#meshes[i]!;
        character.position.set(x, 0, z);
        character.rotation.y = heading;
        const bones = this.#bones[i]!;
        for (let n = 0; n < skeleton.nodeCount; n++) {
          const bone = bones[n]!;
          bone.position.fromArray(pose.translations, n * 3);
          bone.quaternion.fromArray(pose.rotations, n * 4);
          bone.scale.fromArray(pose.scales, n * 3);
        }
      }
    }
    if (ours) {
      const encoder = this.#device.createCommandEncoder({ label: 'demo.three.skin' });
      this.#skinning.skin(encoder);
      this.#device.queue.submit([encoder.finish()]);
    }
  }

  destroy(): void {
    this.#skinning.destroy();
    this.#ours.geometry.dispose();
    this.#ours.material.dispose();
    this.#meshes[0]?.geometry.dispose();
    for (const character of this.#meshes) character.skeleton.dispose();
  }
}

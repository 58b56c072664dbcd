// GPU benchmark: a walking crowd in three.js, skinned once a frame in compute by
// @cuttle/gpu-skinning and drawn by SkinnedCrowd, against three's own SkinnedMesh (one per
// character, sharing the geometry; three skins in the vertex shader of every pass), with a
// shadowed sun so both draw the crowd twice (shadow map, then colour). The same characters,
// clip and poses; before timing, one frame of each is compared pixel by pixel. Milliseconds per
// frame: the JavaScript of the frame (poses, palettes or bones, render call) and the wall clock
// until the GPU finished it (onSubmittedWorkDone), the same method for both.
import { defineSuite, median, type BenchCase } from '@cuttle/bench';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip, type Pose, type ProceduralCharacter, type SkinnedInstance } from '@cuttle/gpu-skinning';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { Bone, BoxGeometry, BufferAttribute, BufferGeometry, Color, DirectionalLight, Matrix4, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, Scene, Skeleton, SkinnedMesh } from 'three/webgpu';
import { deviceOf, SkinnedCrowd } from '../src/index.ts';
import { nodeThree, type NodeThree } from '../test/three-node.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const COUNTS = QUICK ? [4] : [100, 1000];
const [WIDTH, HEIGHT] = QUICK ? [160, 90] : [1920, 1080];
const FRAMES = QUICK ? 2 : 30;

let gpu: NodeGpu | undefined;
let three: NodeThree | undefined;
const character: ProceduralCharacter = createProceduralCharacter();
const { skeleton, walk } = character;

interface Crowd {
  scene: Scene;
  camera: PerspectiveCamera;
  /** Poses the crowd for `time` (seconds) and returns the JavaScript milliseconds spent. */
  pose(time: number): void;
}

/** The ground, a shadowed sun and a camera that frames a crowd of `count`. */
function stage(count: number): { scene: Scene; camera: PerspectiveCamera } {
  const scene = new Scene();
  scene.background = new Color(0x9db4cc);
  const sun = new DirectionalLight(0xffffff, 2.5);
  sun.position.set(20, 40, 15);
  sun.castShadow = true;
  sun.shadow.mapSize.set(2048, 2048);
  Object.assign(sun.shadow.camera, { left: -40, right: 40, top: 40, bottom: -40, near: 1, far: 120 });
  scene.add(sun);
  const ground = new Mesh(new BoxGeometry(90, 0.2, 90), new MeshStandardNodeMaterial({ color: 0x8a8478 }));
  ground.position.y = -0.1;
  ground.receiveShadow = true;
  scene.add(ground);
  const camera = new PerspectiveCamera(50, WIDTH / HEIGHT, 0.5, 300);
  const side = Math.ceil(Math.sqrt(count)) * 2;
  camera.position.set(0, side * 0.6 + 2, side * 0.9 + 4);
  camera.lookAt(0, 0, 0);
  return { scene, camera };
}

/** Where character i stands, and the phase of its walk. */
function placement(i: number, count: number): { x: number; z: number; phase: number } {
  const side = Math.ceil(Math.sqrt(count));
  return { x: ((i % side) - side / 2) * 2, z: (Math.floor(i / side) - side / 2) * 2, phase: (i * 0.37) % 1 };
}

function oursCrowd(count: number): Crowd {
  const device = deviceOf(three!.renderer);
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'f32', paletteSize: skeleton.jointCount });
  const skinning = new GpuSkinning(device, { format: 'f32', maxVertices: vertices.vertexCount, maxOutputVertices: count * vertices.vertexCount, maxBones: count * skeleton.jointCount, maxInstances: count });
  const mesh = skinning.addMesh(vertices);
  const instances: SkinnedInstance[] = Array.from({ length: count }, () => skinning.addInstance({ mesh, palette: skinning.createPalette(skeleton.jointCount) }));
  const { scene, camera } = stage(count);
  const crowd = new SkinnedCrowd(three!.renderer, skinning, instances, character.indices, { material: new MeshStandardNodeMaterial({ color: 0xb0805a }) });
  crowd.castShadow = true;
  scene.add(crowd);
  const pose = createPose(skeleton);
  const bones = new Float32Array(skeleton.jointCount * 12);
  const root = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return {
    scene,
    camera,
    pose(time) {
      instances.forEach((instance, i) => {
        const { x, z, phase } = placement(i, count);
        sampleClip(walk, time + phase, pose);
        root[12] = x;
        root[14] = z;
        skinning.writePalette(instance.palette, computePalette(skeleton, pose, bones, { rootTransform: root }));
      });
      const encoder = device.createCommandEncoder();
      skinning.skin(encoder);
      device.queue.submit([encoder.finish()]);
    },
  };
}

/** The character as three.js users build it: a SkinnedMesh with a Skeleton of Bones. */
function threeCrowd(count: number): Crowd {
  const { positions, normals, joints, weights } = character.vertices;
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(Float32Array.from(positions), 3));
  geometry.setAttribute('normal', new BufferAttribute(Float32Array.from(normals!), 3));
  geometry.setAttribute('skinIndex', new BufferAttribute(Uint16Array.from(joints), 4));
  geometry.setAttribute('skinWeight', new BufferAttribute(Float32Array.from(weights), 4));
  geometry.setIndex(new BufferAttribute(character.indices, 1));
  const material = new MeshStandardNodeMaterial({ color: 0xb0805a });
  const { scene, camera } = stage(count);
  const characters: { bones: Bone[]; mesh: SkinnedMesh }[] = [];
  for (let i = 0; i < count; i++) {
    const bones = Array.from({ length: skeleton.nodeCount }, () => new Bone());
    for (let n = 0; n < skeleton.nodeCount; n++) {
      const parent = skeleton.parents[n]!;
      if (parent >= 0) bones[parent]!.add(bones[n]!);
    }
    const joints3 = Array.from(skeleton.joints, (node) => bones[node]!);
    const inverses = Array.from({ length: skeleton.jointCount }, (_, j) => new Matrix4().fromArray(skeleton.inverseBindMatrices, j * 16));
    const mesh = new SkinnedMesh(geometry, material);
    mesh.castShadow = true;
    mesh.frustumCulled = false;
    for (let n = 0; n < skeleton.nodeCount; n++) if (skeleton.parents[n]! < 0) mesh.add(bones[n]!);
    mesh.bind(new Skeleton(joints3, inverses), new Matrix4());
    const { x, z } = placement(i, count);
    mesh.position.set(x, 0, z);
    scene.add(mesh);
    characters.push({ bones, mesh });
  }
  const pose: Pose = createPose(skeleton);
  return {
    scene,
    camera,
    pose(time) {
      characters.forEach(({ bones }, i) => {
        sampleClip(walk, time + placement(i, count).phase, pose);
        for (let n = 0; n < skeleton.nodeCount; n++) {
          const bone = bones[n]!;
          bone.position.fromArray(pose.translations, n * 3);
          bone.quaternion.fromArray(pose.rotations, n * 4);
          bone.scale.fromArray(pose.scales, n * 3);
        }
      });
    },
  };
}

const crowds = new Map<string, Crowd>();

async function frameMs(crowd: Crowd, time: number): Promise<{ js: number; frame: number }> {
  const t0 = performance.now();
  crowd.pose(time);
  three!.render(crowd.scene, crowd.camera);
  const t1 = performance.now();
  await gpu!.device.queue.onSubmittedWorkDone();
  return { js: t1 - t0, frame: performance.now() - t0 };
}

function measure(key: string, part: 'js' | 'frame'): () => Promise<number> {
  return async () => {
    const crowd = crowds.get(key)!;
    const samples: number[] = [];
    for (let f = 0; f < FRAMES; f++) samples.push((await frameMs(crowd, f / 60))[part]);
    return median(samples);
  };
}

export const suite = defineSuite({
  package: '@cuttle/three',
  kind: 'gpu',
  rounds: QUICK ? 1 : 5,
  async setup() {
    gpu = await requestNodeGpu();
    three = await nodeThree(gpu.device, WIDTH, HEIGHT);
    three.renderer.shadowMap.enabled = true;
    for (const count of COUNTS) {
      crowds.set(`ours ${count}`, oursCrowd(count));
      crowds.set(`three ${count}`, threeCrowd(count));
    }
    // The same picture first: one frame of each, compared pixel by pixel (and against the empty
    // stage, so a crowd nobody can see is not timed); then warm both up.
    for (const count of COUNTS) {
      const bare = stage(count);
      three.render(bare.scene, bare.camera);
      const empty = await three.read();
      const frames: Uint8Array[] = [];
      for (const who of ['ours', 'three']) {
        await frameMs(crowds.get(`${who} ${count}`)!, 0.5);
        frames.push(await three.read());
      }
      let differing = 0;
      for (let i = 0; i < frames[0]!.length; i += 4) if ([0, 1, 2].some((c) => Math.abs(frames[0]![i + c]! - frames[1]![i + c]!) > 8)) differing++;
      let crowdPixels = 0;
      for (let i = 0; i < empty.length; i += 4) if ([0, 1, 2].some((c) => Math.abs(frames[0]![i + c]! - empty[i + c]!) > 8)) crowdPixels++;
      if (crowdPixels < WIDTH * HEIGHT * 0.001) throw new Error(`${count} characters cover ${crowdPixels} pixels: the crowd is not in the picture`);
      process.stderr.write(`    ${count} characters cover ${crowdPixels} pixels (shadows included)\n`);
      const share = differing / (WIDTH * HEIGHT);
      process.stderr.write(`    ${count} characters: ${(share * 100).toFixed(2)}% of pixels differ between ours and three's SkinnedMesh\n`);
      if (share > 0.02) throw new Error(`${count} characters: the two crowds' frames differ on ${(share * 100).toFixed(1)}% of pixels; not timing different pictures`);
    }
    for (const crowd of crowds.values()) for (let f = 0; f < (QUICK ? 1 : 20); f++) await frameMs(crowd, f / 60);
  },
  async teardown() {
    await three?.dispose();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    COUNTS.flatMap((count): BenchCase[] => [
      { name: `${count} walking characters with a shadowed sun, ${WIDTH}x${HEIGHT}: frame until the GPU is done`, unit: 'ms', higherIsBetter: false, ours: measure(`ours ${count}`, 'frame'), peers: { "three's SkinnedMesh": measure(`three ${count}`, 'frame') } },
      { name: `${count} walking characters: JavaScript per frame (poses, palettes or bones, render call)`, unit: 'ms', higherIsBetter: false, ours: measure(`ours ${count}`, 'js'), peers: { "three's SkinnedMesh": measure(`three ${count}`, 'js') } },
    ]),
});

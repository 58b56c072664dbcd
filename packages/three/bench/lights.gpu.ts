// GPU benchmark: thousands of small point lights in three.js, culled by @cuttle/gpu-culling
// (CulledLighting: a depth prepass, the culling, three's materials walking the tiles) against
// three's own answer for many lights, ClusteredLighting (three/addons), and plain PointLights
// at the count they can take. One scene: an 80 m floor with 400 boxes, a sun and N lights with
// ranges 0.6-1.6 m moving on small orbits, every light a three PointLight. Before timing, one
// frame of each contender is compared pixel by pixel with ours. Milliseconds per frame: the
// wall clock from moving the lights to the GPU finishing (onSubmittedWorkDone, the same method
// for every contender), and lights per shaded pixel of our tiles.
import { defineSuite, median, type BenchCase, type Measure } from '@cuttle/bench';
import { entitiesPerShadedPixel } from '@cuttle/gpu-culling';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { ClusteredLighting } from 'three/addons/lighting/ClusteredLighting.js';
import { BoxGeometry, Color, DirectionalLight, InstancedMesh, Matrix4, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, PlaneGeometry, PointLight, Scene } from 'three/webgpu';
import { CulledLighting } from '../src/index.ts';
import { nodeThree, type NodeThree } from '../test/three-node.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: [string, number, number][] = QUICK ? [['180p', 320, 180]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
// CUTTLE_BENCH_LIGHTS=4096,16384 runs some counts only (a look at one count on the GPU machine).
const COUNTS = QUICK ? [64] : (process.env.CUTTLE_BENCH_LIGHTS?.split(',').map(Number) ?? [1024, 4096, 16384]);
/** Plain PointLights: three compiles a shader per light count and loops over every light in every pixel. */
const PLAIN_COUNT = QUICK ? 16 : 256;
const FRAMES = QUICK ? 2 : 10;
const FLOOR = 80;

type Kind = 'flat-bits' | 'compaction' | 'clustered' | 'plain';

interface Contender {
  three: NodeThree;
  scene: Scene;
  camera: PerspectiveCamera;
  lights: PointLight[];
  base: Float32Array;
  culled?: CulledLighting;
}

let gpu: NodeGpu | undefined;
const contenders = new Map<string, Contender>();

function seeded(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function buildScene(count: number, aspect: number): Omit<Contender, 'three' | 'culled'> {
  const random = seeded(11);
  const scene = new Scene();
  scene.background = new Color(0x0a0c10);
  const floor = new Mesh(new PlaneGeometry(FLOOR, FLOOR), new MeshStandardNodeMaterial({ color: 0x8a8078, roughness: 0.8 }));
  floor.rotation.x = -Math.PI / 2;
  scene.add(floor);
  const boxes = new InstancedMesh(new BoxGeometry(1, 1, 1), new MeshStandardNodeMaterial({ color: 0x6c7c90, roughness: 0.5 }), 400);
  const matrix = new Matrix4();
  for (let i = 0; i < 400; i++) {
    const height = 0.5 + random() * 2.5;
    boxes.setMatrixAt(i, matrix.makeScale(1, height, 1).setPosition((random() - 0.5) * FLOOR * 0.9, height / 2, (random() - 0.5) * FLOOR * 0.9));
  }
  scene.add(boxes);
  const sun = new DirectionalLight(0x8090a0, 0.3);
  sun.position.set(3, 10, 4);
  scene.add(sun);
  const lights: PointLight[] = [];
  const base = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const light = new PointLight(new Color().setHSL(random(), 0.7, 0.55), 3 + random() * 3, 0.6 + random(), 2);
    base.set([(random() - 0.5) * FLOOR * 0.95, 0.2 + random() * 1.6, (random() - 0.5) * FLOOR * 0.95], i * 3);
    light.position.fromArray(base, i * 3);
    scene.add(light);
    lights.push(light);
  }
  const camera = new PerspectiveCamera(60, aspect, 0.5, 200);
  camera.position.set(0, 24, 44);
  camera.lookAt(0, 0, 2);
  return { scene, camera, lights, base };
}

function animate(contender: Contender, time: number): void {
  const { lights, base } = contender;
  for (let i = 0; i < lights.length; i++) {
    const phase = i * 0.7;
    lights[i]!.position.set(base[i * 3]! + Math.sin(time * 0.6 + phase) * 0.4, base[i * 3 + 1]! + Math.sin(time * 1.1 + phase) * 0.2, base[i * 3 + 2]! + Math.cos(time * 0.5 + phase) * 0.4);
  }
}

async function frameMs(contender: Contender, time: number): Promise<number> {
  const t0 = performance.now();
  animate(contender, time);
  contender.culled?.update(contender.scene, contender.camera);
  contender.three.render(contender.scene, contender.camera);
  await gpu!.device.queue.onSubmittedWorkDone();
  return performance.now() - t0;
}

async function build(kind: Kind, count: number, [, width, height]: [string, number, number]): Promise<Contender> {
  const three = await nodeThree(gpu!.device, width, height);
  const contender: Contender = { three, ...buildScene(count, width / height) };
  if (kind === 'flat-bits' || kind === 'compaction') {
    contender.culled = new CulledLighting(three.renderer, { maxLights: count, technique: kind, maxPerTile: 1023 });
    three.renderer.lighting = contender.culled;
  } else if (kind === 'clustered') {
    // Its defaults hold 64 lights per cluster; 256 keeps every light the dense far clusters hold.
    three.renderer.lighting = new ClusteredLighting(count, 32, 24, 256);
  }
  return contender;
}

const key = (kind: Kind, count: number, resolution: string): string => `${kind} ${count} ${resolution}`;

function timed(name: string): Measure {
  return async () => {
    const contender = contenders.get(name)!;
    const samples: number[] = [];
    for (let f = 0; f < FRAMES; f++) samples.push(await frameMs(contender, f / 30));
    return median(samples);
  };
}

/** Share of pixels differing by more than 8 levels between two frames. */
function differing(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i]! - b[i]!) > 8 || Math.abs(a[i + 1]! - b[i + 1]!) > 8 || Math.abs(a[i + 2]! - b[i + 2]!) > 8) count++;
  return count / (a.length / 4);
}

const perPixel = new Map<string, number>();

export const suite = defineSuite({
  package: '@cuttle/three',
  kind: 'gpu',
  rounds: QUICK ? 1 : 3,
  async setup() {
    // ClusteredLighting keeps a texture one texel wide per light: 16,384 lights need the adapter's larger 2D limit.
    gpu = await requestNodeGpu({ maxLimits: ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxStorageBuffersPerShaderStage', 'maxTextureDimension2D'] });
    for (const resolution of RESOLUTIONS) {
      const [name] = resolution;
      const kinds: [Kind, number][] = [...COUNTS.flatMap((count) => (['flat-bits', 'compaction', 'clustered'] as const).map((kind): [Kind, number] => [kind, count])), ['flat-bits', PLAIN_COUNT], ['plain', PLAIN_COUNT]];
      for (const [kind, count] of kinds) {
        if (contenders.has(key(kind, count, name))) continue;
        const started = performance.now();
        const contender = await build(kind, count, resolution);
        try {
          await frameMs(contender, 0);
        } catch (error) {
          process.stderr.write(`    ${kind}, ${count} lights, ${name} cannot run: ${error instanceof Error ? error.message : String(error)}\n`);
          await contender.three.dispose();
          continue;
        }
        process.stderr.write(`    ${kind}, ${count} lights, ${name}: first frame ${(performance.now() - started).toFixed(0)} ms\n`);
        contenders.set(key(kind, count, name), contender);
      }
      // The same picture first: every contender against ours (flat bits) at the same count.
      for (const count of [...COUNTS, PLAIN_COUNT]) {
        const ours = contenders.get(key('flat-bits', count, name))!;
        await frameMs(ours, 0.5);
        const reference = await ours.three.read();
        perPixel.set(`${count} ${name}`, entitiesPerShadedPixel(await ours.culled!.culler.read()));
        for (const kind of ['compaction', 'clustered', 'plain'] as const) {
          const other = contenders.get(key(kind, count, name));
          if (!other) continue;
          await frameMs(other, 0.5);
          const share = differing(reference, await other.three.read());
          process.stderr.write(`    ${count} lights, ${name}: ${(share * 100).toFixed(2)}% of pixels differ between ours and ${kind}\n`);
          if (share > 0.02) throw new Error(`${count} lights, ${name}: ${kind} differs from ours on ${(share * 100).toFixed(1)}% of pixels; not timing different pictures`);
        }
      }
    }
    for (const contender of contenders.values()) for (let f = 0; f < (QUICK ? 1 : 5); f++) await frameMs(contender, f / 30);
  },
  async teardown() {
    for (const contender of contenders.values()) await contender.three.dispose();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    RESOLUTIONS.flatMap(([name]): BenchCase[] => [
      ...COUNTS.flatMap((count): BenchCase[] => {
        const peers: Record<string, Measure> = {};
        if (contenders.has(key('clustered', count, name))) peers["three's ClusteredLighting"] = timed(key('clustered', count, name));
        return [
          { name: `${count} point lights, ${name}: frame until the GPU is done (flat bits)`, unit: 'ms', higherIsBetter: false, ours: timed(key('flat-bits', count, name)), peers },
          { name: `${count} point lights, ${name}: frame until the GPU is done (compaction lists)`, unit: 'ms', higherIsBetter: false, ours: timed(key('compaction', count, name)), peers },
          { name: `${count} point lights, ${name}: lights per shaded pixel (our tiles)`, unit: 'lights', higherIsBetter: false, ours: () => perPixel.get(`${count} ${name}`)!, peers: {}, rounds: 1 },
        ];
      }),
      {
        name: `${PLAIN_COUNT} point lights, ${name}: frame until the GPU is done (flat bits)`,
        unit: 'ms',
        higherIsBetter: false,
        ours: timed(key('flat-bits', PLAIN_COUNT, name)),
        peers: contenders.has(key('plain', PLAIN_COUNT, name)) ? { "three's PointLights": timed(key('plain', PLAIN_COUNT, name)) } : {},
      },
    ]),
});

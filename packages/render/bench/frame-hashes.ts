// Hashes of the courtyard's frames (tone-mapped pixels, motion vectors, depth) in every
// built-in configuration, as JSON: run it on two builds of the renderer and compare, to show a
// refactor leaves every frame bit-identical. Small and quick on lavapipe:
//   pnpm --filter @cuttle/render exec tsx --conditions=@cuttle/source --import ../../tooling/build/src/register-raw.ts bench/frame-hashes.ts > hashes.json
import { createHash } from 'node:crypto';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { buildCourtyard, Renderer, RenderScene, type RendererOptions } from '../src/index.ts';

const WIDTH = 256;
const HEIGHT = 144;
const FRAMES = 3;

function hash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex').slice(0, 16);
}

const gpu = await requestNodeGpu();
const { device } = gpu;
const results: Record<string, string[]> = {};
for (const fluid of [0, 3000]) {
  const scene = new RenderScene(device);
  const yard = buildCourtyard(scene, { characters: 12, lights: 200, fluid, lightRange: [0.5, 1.5] });
  for (const opaqueShading of ['deferred', 'forward'] as const) {
    for (const skinnedRaster of ['compute', 'hardware'] as const) {
      for (const ssao of [true, false]) {
        const options: RendererOptions = { format: 'rgba8unorm', maxLights: 512, shadowMapSize: 512, opaqueShading, skinnedRaster, ssao, timestamps: false };
        const renderer = new Renderer(device, options);
        const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.STORAGE_BINDING });
        const hashes: string[] = [];
        for (let frame = 0; frame < FRAMES; frame++) {
          yard.animate(frame * 0.25);
          const camera = { view: lookAt([14 - frame, 9, 18], [0, 1, 0]), projection: perspective({ fovY: 0.9, aspect: WIDTH / HEIGHT, near: 0.1, far: Infinity, reversedZ: true }) };
          const encoder = device.createCommandEncoder();
          renderer.render(encoder, scene, camera, { view: target.createView(), texture: target, width: WIDTH, height: HEIGHT });
          device.queue.submit([encoder.finish()]);
          const targets = renderer.targets!;
          hashes.push(hash(await readTexture(device, target, 4)), hash(await readTexture(device, targets.motion, 8)), hash(await readTexture(device, targets.depth, 4, 'depth-only')));
        }
        results[`fluid ${fluid > 0 ? 'on' : 'off'}, ${opaqueShading}, ${skinnedRaster} skinning, ssao ${ssao ? 'on' : 'off'}`] = hashes;
        renderer.destroy();
        target.destroy();
      }
    }
  }
  yard.destroy();
}
console.log(JSON.stringify(results, null, 1));
device.destroy();

// Before anything is timed on a GPU, its culling is checked: a benchmark of culling that is
// wrong on that device would be worse than none.
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { compareTiles, cullReference, EntityList, gpuTileEntities, ForwardPlusBoxes, generateCity, GPU_TOLERANCE, lookAt, perspective, populateCity, TileCuller, type CameraInput, type CullReadback, type Technique } from '../src/index.ts';

/** Every technique and method on a small city view against the reference (borderline pairs aside). */
export async function verifyAgainstReference(device: GPUDevice): Promise<void> {
  const width = 480, height = 270;
  const city = generateCity({ seed: 5, blocks: 6 });
  const entities = new EntityList();
  populateCity(city, entities, { lights: 1500, decals: 20, probes: 8 });
  const camera: CameraInput = { view: lookAt([city.street(2) + 1, 4, city.street(0) - 10], [city.street(2) + 1, 3, city.street(6)]), projection: perspective({ fovY: 1, aspect: width / height, near: 0.2, far: 1000 }) };
  const depth = device.createTexture({ size: [width, height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC });
  for (const technique of ['flat-bits', 'compaction'] as const satisfies readonly Technique[]) {
    const culler = new TileCuller(device, { technique, maxEntities: 2048 });
    const boxes = new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm' });
    boxes.setBoxes(city.boxes);
    boxes.setCamera(camera);
    let encoder = device.createCommandEncoder();
    boxes.drawDepth(encoder, depth.createView());
    device.queue.submit([encoder.finish()]);
    const depthValues = new Float32Array((await readTexture(device, depth, 4, 'depth-only')).buffer);
    for (const method of ['gather', 'scatter'] as const) {
      culler.method = method;
      culler.setCamera(camera);
      culler.setEntities(entities);
      encoder = device.createCommandEncoder();
      culler.cull(encoder, depth);
      device.queue.submit([encoder.finish()]);
      const result = await culler.read();
      const reference = cullReference({ grid: culler.grid!, camera: culler.camera!, depth: depthValues, entities: entities.pack(), counts: entities.counts, bucketsPerTile: culler.bucketsPerTile }, GPU_TOLERANCE);
      const layout = { technique, bucketsPerTile: culler.bucketsPerTile, wordsPerTile: culler.wordsPerTile, maskWords: culler.maskWords, maxPerTile: culler.maxPerTile, counts: entities.counts };
      const { errors, certain, borderline } = compareTiles(result.tiles, result.entitiesPerTile, layout, reference);
      if (errors.length > 0 || certain < 1000 || borderline > certain * 0.02) {
        throw new Error(`${technique}, ${method}: the GPU disagrees with the reference (${certain} certain pairs, ${borderline} borderline): ${errors.slice(0, 5).join('; ')}. Not timing a wrong culling.`);
      }
    }
    boxes.destroy();
    culler.destroy();
  }
  depth.destroy();
}

/** Gather and scatter must give the same tiles at the benchmark's largest size. */
export async function verifyGatherEqualsScatter(device: GPUDevice, camera: CameraInput, depth: GPUTexture, entities: EntityList, maxEntities: number): Promise<void> {
  for (const technique of ['flat-bits', 'compaction'] as const) {
    const culler = new TileCuller(device, { technique, maxEntities });
    const layout = { technique, bucketsPerTile: culler.bucketsPerTile, wordsPerTile: culler.wordsPerTile, maskWords: culler.maskWords, maxPerTile: culler.maxPerTile, counts: entities.counts };
    const results = [];
    for (const method of ['gather', 'scatter'] as const) {
      culler.method = method;
      culler.setCamera(camera);
      culler.setEntities(entities);
      const encoder = device.createCommandEncoder();
      culler.cull(encoder, depth);
      device.queue.submit([encoder.finish()]);
      results.push(await culler.read());
    }
    const [gather, scatter] = results as [CullReadback, CullReadback];
    for (let t = 0; t < gather.entitiesPerTile.length; t++) {
      const a = gpuTileEntities(gather.tiles, layout, t), b = gpuTileEntities(scatter.tiles, layout, t);
      // Compaction lists of light-only tiles come in atomic order: compare them as sets.
      if (technique === 'compaction') {
        a.sort((x, y) => x - y);
        b.sort((x, y) => x - y);
      }
      // Full compaction tiles keep whichever entities came first: only their size must agree.
      const overflowed = technique === 'compaction' && ((gather.tiles[t * culler.wordsPerTile]! >>> 30) & 1) === 1;
      if (gather.entitiesPerTile[t] !== scatter.entitiesPerTile[t] || (!overflowed && a.join() !== b.join())) {
        throw new Error(`${technique}: gather and scatter differ in tile ${t} (${a.length} against ${b.length} entities). Not timing a wrong culling.`);
      }
    }
    culler.destroy();
  }
}

/** The culled forward+ image must equal shading every entity at every pixel (to one level of 255). */
export async function verifyForwardPlus(device: GPUDevice, boxes: ForwardPlusBoxes, culler: TileCuller, camera: CameraInput, depth: GPUTexture, color: GPUTexture, entities: EntityList): Promise<void> {
  culler.method = 'auto';
  culler.depthMask = true;
  culler.setCamera(camera);
  culler.setEntities(entities);
  boxes.setCamera(camera);
  const images: Uint8Array[] = [];
  for (const mode of ['culled', 'everything'] as const) {
    const encoder = device.createCommandEncoder();
    culler.cull(encoder, depth);
    boxes.drawShaded(encoder, color.createView(), depth.createView(), mode);
    device.queue.submit([encoder.finish()]);
    images.push(await readTexture(device, color, 4));
  }
  const [culled, everything] = images as [Uint8Array, Uint8Array];
  let worst = 0;
  for (let i = 0; i < culled.length; i++) worst = Math.max(worst, Math.abs(culled[i]! - everything[i]!));
  if (worst > 1) throw new Error(`forward+ over culled tiles differs from shading every light by ${worst}/255: culling lost a light. Not timing.`);
}

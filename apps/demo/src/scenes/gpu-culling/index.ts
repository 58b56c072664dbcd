import {
  CullingHeatmap,
  EntityList,
  ForwardPlusBoxes,
  generateCity,
  generateForest,
  lookAt,
  perspective,
  populateCity,
  populateForest,
  TiledDeferredShading,
  TileCuller,
  type CullMethod,
  type Technique,
} from '@cuttle/gpu-culling';
import { checkbox, choice, control } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import presentWgsl from './present.wgsl?raw';

const LIGHT_COUNTS = [1024, 2048, 4096, 16_384];
const TIMESTAMPS = 4;

export const scene: SceneDefinition = {
  id: 'gpu-culling',
  title: 'Forward+ city and forest',
  package: '@cuttle/gpu-culling',
  description: 'Thousands of moving coloured lights, decals and probes over a city of towers and trees, or lanterns hung in a forest (where the 2.5D depth mask pays most), culled per 16x16 tile (flat bit arrays or stream compaction, 2.5D) and shaded forward+ or tiled deferred.',
  create({ device, format, panel, hasTimestamps }) {
    const city = generateCity({ seed: 4, blocks: 8 });
    // The benchmark's forest: leaf-box canopies with gaps, lights hung among the trees.
    const forest = generateForest({ seed: 3 });
    const entities = new EntityList();
    let base = new Float32Array(0);
    let phases = new Float32Array(0);
    let lightCount = 2048;
    let technique: Technique = 'flat-bits';
    let culler: TileCuller | undefined;
    let boxes: ForwardPlusBoxes | undefined;
    let deferred: TiledDeferredShading | undefined;
    let targets: { width: number; height: number; depth: GPUTexture; normal: GPUTexture; albedo: GPUTexture; hdr: GPUTexture; present: GPUBindGroup } | undefined;
    const heatmap = new CullingHeatmap(device, format);
    const presentModule = device.createShaderModule({ code: presentWgsl });
    const present = device.createRenderPipeline({
      layout: 'auto',
      vertex: { module: presentModule, entryPoint: 'present_vertex' },
      fragment: { module: presentModule, entryPoint: 'present_fragment', targets: [{ format }] },
    });
    const querySet = hasTimestamps ? device.createQuerySet({ type: 'timestamp', count: TIMESTAMPS }) : undefined;
    const resolve = device.createBuffer({ size: TIMESTAMPS * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: TIMESTAMPS * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    let readbackState: 'idle' | 'copied' | 'mapping' = 'idle';
    let cullMs = Number.NaN;
    let shadeMs = Number.NaN;
    let destroyed = false;
    let failure = '';

    const sceneSelect = control(panel, 'scene', choice(['city', 'forest'], 'city'));
    const inForest = (): boolean => sceneSelect.value === 'forest';
    const countSelect = control(panel, 'lights', choice(LIGHT_COUNTS.map(String), String(lightCount)));
    const techniqueSelect = control(panel, 'technique', choice(['flat-bits', 'compaction'], technique));
    const methodSelect = control(panel, 'culling', choice(['auto', 'gather', 'scatter'], 'auto'));
    const pathSelect = control(panel, 'shading', choice(['forward+', 'tiled deferred'], 'forward+'));
    const depthMask = control(panel, '2.5D depth mask', checkbox(true));
    const showHeatmap = control(panel, 'heatmap (entities per tile)', checkbox(false));
    const moving = control(panel, 'lights move', checkbox(true));

    function fillEntities(): void {
      entities.clear();
      base = inForest()
        ? populateForest(forest, entities, { lights: lightCount, seed: lightCount })
        : populateCity(city, entities, { lights: lightCount, decals: 40, probes: 12, seed: lightCount });
      phases = Float32Array.from({ length: lightCount }, (_, i) => (i * 2.399) % 6.2832);
    }

    function rebuild(): void {
      culler?.destroy();
      boxes?.destroy();
      deferred?.destroy();
      culler = new TileCuller(device, { technique, maxEntities: lightCount + 64 });
      culler.method = methodSelect.value as CullMethod;
      culler.depthMask = depthMask.checked;
      boxes = new ForwardPlusBoxes(device, culler, { colorFormat: format });
      boxes.setBoxes(inForest() ? forest.boxes : city.boxes);
      deferred = new TiledDeferredShading(device, culler);
    }

    function ensureTargets(width: number, height: number): NonNullable<typeof targets> {
      if (targets?.width === width && targets.height === height) return targets;
      if (targets) for (const texture of [targets.depth, targets.normal, targets.albedo, targets.hdr]) texture.destroy();
      const make = (textureFormat: GPUTextureFormat, usage: GPUTextureUsageFlags): GPUTexture => device.createTexture({ size: [width, height], format: textureFormat, usage });
      const hdr = make('rgba16float', GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING);
      targets = {
        width,
        height,
        depth: make('depth32float', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING),
        normal: make('rgba16float', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING),
        albedo: make('rgba8unorm', GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING),
        hdr,
        present: device.createBindGroup({ layout: present.getBindGroupLayout(0), entries: [{ binding: 0, resource: hdr.createView() }] }),
      };
      return targets;
    }

    fillEntities();
    rebuild();
    countSelect.addEventListener('change', () => { lightCount = Number(countSelect.value); fillEntities(); rebuild(); });
    sceneSelect.addEventListener('change', () => { fillEntities(); rebuild(); });
    techniqueSelect.addEventListener('change', () => { technique = techniqueSelect.value as Technique; rebuild(); });
    methodSelect.addEventListener('change', () => { if (culler) culler.method = methodSelect.value as CullMethod; });
    depthMask.addEventListener('change', () => { if (culler) culler.depthMask = depthMask.checked; });

    function readTimings(): void {
      if (readbackState !== 'copied') return;
      readbackState = 'mapping';
      readback.mapAsync(GPUMapMode.READ).then(
        () => {
          const stamps = new BigUint64Array(readback.getMappedRange());
          cullMs = Number(stamps[1]! - stamps[0]!) / 1e6;
          shadeMs = Number(stamps[3]! - stamps[2]!) / 1e6;
          readback.unmap();
          readbackState = 'idle';
        },
        (error: unknown) => {
          // Leaving the scene destroys the buffer under a pending map: nothing to read then.
          if (!destroyed) failure = `GPU timing readback failed: ${String(error)}`;
        },
      );
    }

    return {
      frame({ encoder, target, width, height, time }) {
        if (!culler || !boxes || !deferred || failure) return;
        readTimings();
        if (moving.checked) {
          // Each light sways along its street and bobs a little.
          for (let i = 0; i < lightCount; i++) {
            const phase = phases[i]!;
            entities.setLightPosition(i, base[i * 3]! + Math.sin(time * 0.7 + phase) * 3, base[i * 3 + 1]! + Math.sin(time * 1.3 + phase) * 0.4, base[i * 3 + 2]! + Math.cos(time * 0.5 + phase) * 3);
          }
        }
        const projection = perspective({ fovY: 1.0, aspect: width / height, near: 0.2, far: 1500 });
        let camera;
        if (inForest()) {
          // A walk into the trees at eye height, from the forest's edge to its far side.
          const along = -forest.size / 2 - 2 + ((time * 2) % (forest.size * 0.9));
          const z = 3 + Math.sin(time * 0.2) * 4;
          camera = { view: lookAt([along, 1.7, z], [along + 30, 3, z + Math.sin(time * 0.13) * 8]), projection };
        } else {
          // A slow walk down a street, looking ahead.
          const along = city.street(0) - 8 + ((time * 4) % (city.street(city.blocks) - city.street(0)));
          const x = city.street(4) + 1.5 + Math.sin(time * 0.15) * 2;
          camera = { view: lookAt([x, 3.5, along], [x + Math.sin(time * 0.1) * 6, 3, along + 40]), projection };
        }
        culler.setCamera(camera);
        culler.setEntities(entities);
        boxes.setCamera(camera);
        const views = ensureTargets(width, height);
        const depthView = views.depth.createView();
        const timed = querySet !== undefined && readbackState === 'idle';
        const stamp = (first: number) => (timed ? { querySet, beginningOfPassWriteIndex: first, endOfPassWriteIndex: first + 1 } : undefined);
        if (pathSelect.value === 'forward+') {
          boxes.drawDepth(encoder, depthView);
          culler.cull(encoder, views.depth, timed ? { querySet, beginIndex: 0, endIndex: 1 } : undefined);
          boxes.drawShaded(encoder, target, depthView, 'culled', stamp(2));
        } else {
          boxes.drawGBuffer(encoder, views.normal.createView(), views.albedo.createView(), depthView);
          culler.cull(encoder, views.depth, timed ? { querySet, beginIndex: 0, endIndex: 1 } : undefined);
          deferred.shade(encoder, { depth: views.depth, normal: views.normal, albedo: views.albedo, output: views.hdr }, [0.02, 0.02, 0.03], stamp(2));
          const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target, loadOp: 'clear', storeOp: 'store' }] });
          pass.setPipeline(present);
          pass.setBindGroup(0, views.present);
          pass.draw(3);
          pass.end();
        }
        if (showHeatmap.checked) heatmap.draw(encoder, target, culler, { maxCount: 48 });
        if (timed) {
          encoder.resolveQuerySet(querySet, 0, TIMESTAMPS, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, readback, 0, TIMESTAMPS * 8);
          readbackState = 'copied';
        }
      },
      stats: () => ({
        lights: lightCount.toLocaleString('en-US'),
        'decals/probes': inForest() ? '0/0' : '40/12',
        technique,
        culling: `${culler?.resolvedMethod ?? ''}${depthMask.checked ? ', 2.5D' : ', 2D'}`,
        ...(Number.isFinite(cullMs) ? { 'GPU cull': `${cullMs.toFixed(3)} ms` } : {}),
        ...(Number.isFinite(shadeMs) ? { [pathSelect.value === 'forward+' ? 'GPU forward+' : 'GPU tiled deferred']: `${shadeMs.toFixed(2)} ms` } : {}),
        ...(failure ? { error: failure } : {}),
      }),
      destroy() {
        destroyed = true;
        culler?.destroy();
        boxes?.destroy();
        deferred?.destroy();
        heatmap.destroy();
        if (targets) for (const texture of [targets.depth, targets.normal, targets.albedo, targets.hdr]) texture.destroy();
        querySet?.destroy();
        resolve.destroy();
        readback.destroy();
      },
    };
  },
};

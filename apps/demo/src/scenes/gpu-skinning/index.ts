import { skinnedVertexLayouts, type SkinningKernel, type VertexFormat } from '@cuttle/gpu-skinning';
import { checkbox, choice, control } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import { lookAt, multiply, perspective } from './camera.ts';
import { Crowd, type CrowdOptions } from './crowd.ts';
import { proceduralCrowdCharacter, type CrowdCharacter } from './crowd-character.ts';
import crowdWgsl from './crowd.wgsl?raw';
import frameWgsl from './frame.wgsl?raw';
import { characterFromGltf } from './gltf-character.ts';
import { Ground } from './ground.ts';
import { attachModelPicker } from './model-picker.ts';
import { readGltf } from './read-gltf.ts';

const CROWDS = [64, 256, 1024, 4096];
const SPACING = 1.6;
const WALK_SPEED = 1.2;
const CLEAR: Record<'shaded' | 'motion vectors', GPUColor> = {
  shaded: { r: 0.05, g: 0.06, b: 0.09, a: 1 },
  // No geometry: no motion (frame.wgsl's encoding).
  'motion vectors': { r: 0.5, g: 0.5, b: 0, a: 1 },
};

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const scene: SceneDefinition = {
  id: 'gpu-skinning',
  title: 'Skinned crowd',
  package: '@cuttle/gpu-skinning',
  description: 'A crowd of walkers (procedural, or a glTF character dropped on the page) skinned once per frame in a compute pass (bones in LDS or global memory) with previous positions for motion vectors and a skinning LOD.',
  create({ device, format: canvasFormat, panel, hasTimestamps }) {
    const frameBuffer = device.createBuffer({ size: 160, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const frameData = new Float32Array(40);
    const module = device.createShaderModule({ label: 'crowd', code: `${frameWgsl}\n${crowdWgsl}` });
    const ground = new Ground(device, canvasFormat, frameWgsl, frameBuffer);
    const pipelines = new Map<VertexFormat, { pipeline: GPURenderPipeline; bindGroup: GPUBindGroup }>();
    const pipelineFor = (format: VertexFormat): { pipeline: GPURenderPipeline; bindGroup: GPUBindGroup } => {
      let entry = pipelines.get(format);
      if (!entry) {
        const pipeline = device.createRenderPipeline({
          label: `crowd ${format}`,
          layout: 'auto',
          vertex: { module, entryPoint: 'vs', buffers: skinnedVertexLayouts(format) },
          fragment: { module, entryPoint: 'fs', targets: [{ format: canvasFormat }] },
          primitive: { topology: 'triangle-list', cullMode: 'none' },
          depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'less' },
        });
        entry = { pipeline, bindGroup: device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: frameBuffer } }] }) };
        pipelines.set(format, entry);
      }
      return entry;
    };
    const querySet = hasTimestamps ? device.createQuerySet({ type: 'timestamp', count: 4 }) : undefined;
    const resolve = device.createBuffer({ size: 32, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: 32, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    let readbackState: 'idle' | 'copied' | 'mapping' = 'idle';
    let skinMs = Number.NaN;
    let drawMs = Number.NaN;
    let destroyed = false;
    let failure = '';

    const crowdSelect = control(panel, 'characters', choice(CROWDS.map(String), '256'));
    const kernelSelect = control(panel, 'bones from', choice(['lds', 'global']));
    const formatSelect = control(panel, 'vertex format', choice(['packed', 'f32']));
    const viewSelect = control(panel, 'view', choice(['shaded', 'motion vectors']));
    viewSelect.name = 'view';
    const lodToggle = control(panel, 'skinning LOD for far characters', checkbox(true));
    lodToggle.name = 'lod';
    const lodInterval = control(panel, 'far: skinned every N frames', choice(['2', '3', '4', '8'], '4'));
    const orbit = control(panel, 'camera orbits', checkbox(true));
    orbit.name = 'orbit';
    const note = document.createElement('p');
    note.textContent = 'Walkers that reach the end of the field teleport back (a reset: no false motion). Far ones skip frames; on the frames they skip their previous positions equal their current ones.';
    panel.append(note);

    let crowd: Crowd | undefined;
    // The settings the current crowd was built with: a refused change goes back to them.
    let built: CrowdOptions = { count: 256, format: 'packed', kernel: 'lds', lodInterval: 4 };
    let lastZ = new Float32Array(0);
    let depth: GPUTexture | undefined;
    let previousViewProj: Float32Array | undefined;
    let angle = 0.6;
    let loads = 0;

    const picker = attachModelPicker(panel, {
      onFile: (file) => { void loadFile(file); },
      onProcedural: () => {
        loads++;
        if (replaceCrowd(proceduralCrowdCharacter(WALK_SPEED), built)) picker.show('The procedural walker is back.', 'info');
      },
    });

    function showSettings(options: CrowdOptions): void {
      crowdSelect.value = String(options.count);
      formatSelect.value = options.format;
      kernelSelect.value = options.kernel;
    }

    /** Builds the new crowd first; on refusal the old one keeps walking and the panel says why. */
    function replaceCrowd(character: CrowdCharacter, options: CrowdOptions): boolean {
      let next: Crowd;
      try {
        next = Crowd.create(device, character, options);
      } catch (error) {
        showSettings(built);
        picker.show(describe(error), 'error');
        return false;
      }
      crowd?.destroy();
      crowd = next;
      built = options;
      lastZ = new Float32Array(options.count).fill(Number.NaN);
      return true;
    }

    async function loadFile(file: File): Promise<void> {
      const ticket = ++loads;
      picker.show(`Reading ${file.name}…`, 'info');
      try {
        const character = characterFromGltf(await readGltf(new Uint8Array(await file.arrayBuffer()), file.name), file.name);
        // A later drop, the procedural button or leaving the scene wins over this one.
        if (destroyed || ticket !== loads) return;
        if (!replaceCrowd(character, built)) return;
        const { skeleton, clip, vertexCount, notes } = character;
        const extra = notes.length > 0 ? ` Notes: ${notes.join('; ')}.` : '';
        picker.show(`Loaded ${file.name}: ${skeleton.jointCount} joints, ${vertexCount.toLocaleString('en-US')} vertices, clip "${clip.name}" (${clip.duration.toFixed(2)} s).${extra}`, 'info');
      } catch (error) {
        if (!destroyed && ticket === loads) picker.show(describe(error), 'error');
      }
    }

    const settings = (): CrowdOptions => ({ count: Number(crowdSelect.value), format: formatSelect.value as VertexFormat, kernel: kernelSelect.value as SkinningKernel, lodInterval: Number(lodInterval.value) });
    replaceCrowd(proceduralCrowdCharacter(WALK_SPEED), built);
    crowdSelect.addEventListener('change', () => { if (crowd) replaceCrowd(crowd.character, settings()); });
    formatSelect.addEventListener('change', () => { if (crowd) replaceCrowd(crowd.character, settings()); });
    kernelSelect.addEventListener('change', () => {
      if (!crowd) return;
      try {
        crowd.skinning.kernel = kernelSelect.value as SkinningKernel;
        built = { ...built, kernel: crowd.skinning.kernel };
      } catch (error) {
        kernelSelect.value = built.kernel;
        picker.show(describe(error), 'error');
      }
    });
    lodInterval.addEventListener('change', () => {
      if (!crowd) return;
      crowd.skinning.lodInterval = Number(lodInterval.value);
      built = { ...built, lodInterval: crowd.skinning.lodInterval };
    });

    return {
      frame({ encoder, target, width, height, time, dt }) {
        if (!crowd || failure) return;
        if (readbackState === 'copied') {
          readbackState = 'mapping';
          readback.mapAsync(GPUMapMode.READ).then(
            () => {
              const t = new BigUint64Array(readback.getMappedRange());
              skinMs = Number(t[1]! - t[0]!) / 1e6;
              drawMs = Number(t[3]! - t[2]!) / 1e6;
              readback.unmap();
              readbackState = 'idle';
            },
            (error: unknown) => { if (!destroyed) failure = `GPU timing readback failed: ${String(error)}`; },
          );
        }
        const { skinning, instances, character } = crowd;
        const count = instances.length;
        const side = Math.ceil(Math.sqrt(count));
        const field = side * SPACING;
        // The camera circles the crowd slowly (or holds still: then only the walkers move).
        if (orbit.checked) angle += dt * 0.05;
        const eye = [Math.sin(angle) * field * 0.9, field * 0.45 + 2, Math.cos(angle) * field * 0.9];
        const viewProj = multiply(perspective(Math.PI / 4, width / height, 0.3, field * 4), lookAt(eye, [0, 0.8, 0]));
        const view = viewSelect.value === 'motion vectors' ? 'motion vectors' : 'shaded';
        frameData.set(viewProj, 0);
        frameData.set(previousViewProj ?? viewProj, 16);
        frameData[32] = width;
        frameData[33] = height;
        new Uint32Array(frameData.buffer)[34] = view === 'motion vectors' ? 1 : 0;
        frameData[35] = field * 1.5;
        device.queue.writeBuffer(frameBuffer, 0, frameData);
        previousViewProj = viewProj;

        const lod = lodToggle.checked;
        const { duration } = character.clip;
        for (let i = 0; i < count; i++) {
          const instance = instances[i]!;
          const x = ((i % side) - (side - 1) / 2) * SPACING;
          const phase = (i * 0.618) % 1;
          // Walk along +z; at the end of the field, teleport back to the start.
          const z = ((((Math.floor(i / side) * SPACING + (time + phase * 3) * WALK_SPEED) % field) + field) % field) - field / 2;
          if (!Number.isNaN(lastZ[i]!) && z < lastZ[i]!) skinning.reset(instance);
          lastZ[i] = z;
          const far = lod && Math.hypot(x - eye[0]!, z - eye[2]!) > field * 0.9;
          if (far !== skinning.isFar(instance)) skinning.setFar(instance, far);
          crowd.pose(i, time * character.clipRate + phase * duration, x, z);
        }

        const timed = querySet !== undefined && readbackState === 'idle';
        crowd.skin(encoder, timed ? { querySet, beginIndex: 0, endIndex: 1 } : undefined);
        if (depth?.width !== width || depth.height !== height) {
          depth?.destroy();
          depth = device.createTexture({ size: [width, height], format: 'depth24plus', usage: GPUTextureUsage.RENDER_ATTACHMENT });
        }
        const { pipeline, bindGroup } = pipelineFor(skinning.format);
        const pass = encoder.beginRenderPass({
          colorAttachments: [{ view: target, clearValue: CLEAR[view], loadOp: 'clear', storeOp: 'store' }],
          depthStencilAttachment: { view: depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
          ...(timed ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 2, endOfPassWriteIndex: 3 } } : {}),
        });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        crowd.draw(pass);
        ground.draw(pass);
        pass.end();
        if (timed) {
          encoder.resolveQuerySet(querySet, 0, 4, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, readback, 0, 32);
          readbackState = 'copied';
        }
      },
      stats: () => {
        const work = crowd?.skinning.lastFrame;
        const character = crowd?.character;
        return {
          characters: (crowd?.instances.length ?? 0).toLocaleString('en-US'),
          ...(character ? { model: `${character.name} (${character.skeleton.jointCount} joints, ${character.vertexCount.toLocaleString('en-US')} vertices)` } : {}),
          vertices: ((crowd?.instances.length ?? 0) * (character?.vertexCount ?? 0)).toLocaleString('en-US'),
          kernel: `${crowd?.skinning.kernel ?? ''} ${crowd?.skinning.format ?? ''}`,
          ...(work ? { 'skinned / held / skipped': `${work.skinned} / ${work.held} / ${work.skipped}` } : {}),
          ...(hasTimestamps && Number.isFinite(skinMs) ? { 'GPU skin': `${skinMs.toFixed(3)} ms`, 'GPU draw': `${drawMs.toFixed(3)} ms` } : {}),
          ...(failure ? { error: failure } : {}),
        };
      },
      destroy() {
        destroyed = true;
        picker.detach();
        crowd?.destroy();
        depth?.destroy();
        frameBuffer.destroy();
        querySet?.destroy();
        resolve.destroy();
        readback.destroy();
      },
    };
  },
};

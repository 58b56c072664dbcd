import {
  GpuSkinning,
  buildSkinnedVertices,
  computePalette,
  createPaletteScratch,
  createPose,
  createProceduralCharacter,
  sampleClip,
  skinnedVertexLayouts,
  type SkinnedInstance,
  type SkinningKernel,
  type VertexFormat,
} from '@cuttle/gpu-skinning';
import { choice, control } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import { lookAt, multiply, perspective } from './camera.ts';
import crowdWgsl from './crowd.wgsl?raw';

const CROWDS = [64, 256, 1024, 4096];
const SPACING = 1.6;
const WALK_SPEED = 1.2;

/** Column-major placement: (x, 0, z), facing +z. */
function placement(x: number, z: number): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, z, 1];
}

export const scene: SceneDefinition = {
  id: 'gpu-skinning',
  title: 'Skinned crowd',
  package: '@cuttle/gpu-skinning',
  description: 'A crowd of walkers skinned once per frame in a compute pass (bones in LDS or global memory) with previous positions for motion vectors and a skinning LOD.',
  create({ device, format: canvasFormat, panel, hasTimestamps }) {
    const character = createProceduralCharacter();
    const bones = character.skeleton.jointCount;
    const indexBuffer = device.createBuffer({ size: character.indices.byteLength, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(indexBuffer, 0, character.indices);
    const frameBuffer = device.createBuffer({ size: 160, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const frameData = new Float32Array(40);
    const module = device.createShaderModule({ code: crowdWgsl });
    const pipelines = new Map<VertexFormat, { pipeline: GPURenderPipeline; bindGroup: GPUBindGroup }>();
    const pipelineFor = (format: VertexFormat): { pipeline: GPURenderPipeline; bindGroup: GPUBindGroup } => {
      let entry = pipelines.get(format);
      if (!entry) {
        const pipeline = device.createRenderPipeline({
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

    const crowdSelect = control(panel, 'characters', choice(CROWDS.map(String)));
    crowdSelect.value = '256';
    const kernelSelect = control(panel, 'bones from', choice(['lds', 'global']));
    const formatSelect = control(panel, 'vertex format', choice(['packed', 'f32']));
    const viewSelect = control(panel, 'view', choice(['shaded', 'motion vectors']));
    const lodToggle = control(panel, 'skinning LOD for far characters', document.createElement('input'));
    lodToggle.type = 'checkbox';
    lodToggle.checked = true;
    const lodInterval = control(panel, 'far: skinned every N frames', choice(['2', '3', '4', '8']));
    lodInterval.value = '4';
    const note = document.createElement('p');
    note.textContent = 'Walkers that reach the end of the field teleport back (a reset: no false motion). Far ones skip frames; on the frames they skip their previous positions equal their current ones.';
    panel.append(note);

    let skinning: GpuSkinning | undefined;
    let instances: SkinnedInstance[] = [];
    let lastZ = new Float32Array(0);
    let depth: GPUTexture | undefined;
    let previousViewProj: Float32Array | undefined;
    const pose = createPose(character.skeleton);
    const scratch = createPaletteScratch(character.skeleton);
    const palette = new Float32Array(bones * 12);

    function rebuild(): void {
      skinning?.destroy();
      const count = Number(crowdSelect.value);
      const format = formatSelect.value as VertexFormat;
      const { vertices } = buildSkinnedVertices(character.vertices, { format, paletteSize: bones });
      skinning = new GpuSkinning(device, { format, kernel: kernelSelect.value as SkinningKernel, maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * count, maxBones: bones * count, maxInstances: count, lodInterval: Number(lodInterval.value) });
      const mesh = skinning.addMesh(vertices);
      instances = Array.from({ length: count }, () => skinning!.addInstance({ mesh, palette: skinning!.createPalette(bones) }));
      lastZ = new Float32Array(count).fill(Number.NaN);
    }
    rebuild();
    crowdSelect.addEventListener('change', rebuild);
    formatSelect.addEventListener('change', rebuild);
    kernelSelect.addEventListener('change', () => { if (skinning) skinning.kernel = kernelSelect.value as SkinningKernel; });
    lodInterval.addEventListener('change', () => { if (skinning) skinning.lodInterval = Number(lodInterval.value); });

    return {
      frame({ encoder, target, width, height, time }) {
        if (!skinning || failure) return;
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
        const count = instances.length;
        const side = Math.ceil(Math.sqrt(count));
        const field = side * SPACING;
        // The camera circles the crowd slowly.
        const angle = 0.6 + time * 0.05;
        const eye = [Math.sin(angle) * field * 0.9, field * 0.45 + 2, Math.cos(angle) * field * 0.9];
        const viewProj = multiply(perspective(Math.PI / 4, width / height, 0.3, field * 4), lookAt(eye, [0, 0.8, 0]));
        frameData.set(viewProj, 0);
        frameData.set(previousViewProj ?? viewProj, 16);
        frameData[32] = width;
        frameData[33] = height;
        new Uint32Array(frameData.buffer)[34] = viewSelect.value === 'motion vectors' ? 1 : 0;
        device.queue.writeBuffer(frameBuffer, 0, frameData);
        previousViewProj = viewProj;

        const lod = lodToggle.checked;
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
          sampleClip(character.walk, time * WALK_SPEED * 0.9 + phase, pose);
          skinning.writePalette(instance.palette, computePalette(character.skeleton, pose, palette, { rootTransform: placement(x, z), scratch }));
        }

        const timed = querySet !== undefined && readbackState === 'idle';
        skinning.skin(encoder, timed ? { querySet, beginIndex: 0, endIndex: 1 } : undefined);
        if (depth?.width !== width || depth.height !== height) {
          depth?.destroy();
          depth = device.createTexture({ size: [width, height], format: 'depth24plus', usage: GPUTextureUsage.RENDER_ATTACHMENT });
        }
        const { pipeline, bindGroup } = pipelineFor(skinning.format);
        const pass = encoder.beginRenderPass({
          colorAttachments: [{ view: target, clearValue: { r: 0.05, g: 0.06, b: 0.09, a: 1 }, loadOp: 'clear', storeOp: 'store' }],
          depthStencilAttachment: { view: depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
          ...(timed ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 2, endOfPassWriteIndex: 3 } } : {}),
        });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        skinning.vertexBuffers.forEach((buffer, slot) => { pass.setVertexBuffer(slot, buffer); });
        pass.setIndexBuffer(indexBuffer, 'uint32');
        for (const instance of instances) pass.drawIndexed(character.indices.length, 1, 0, instance.outputVertex, instance.index);
        pass.end();
        if (timed) {
          encoder.resolveQuerySet(querySet, 0, 4, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, readback, 0, 32);
          readbackState = 'copied';
        }
      },
      stats: () => {
        const work = skinning?.lastFrame;
        return {
          characters: instances.length.toLocaleString('en-US'),
          vertices: (instances.length * character.vertexCount).toLocaleString('en-US'),
          kernel: `${skinning?.kernel ?? ''} ${skinning?.format ?? ''}`,
          ...(work ? { 'skinned / held / skipped': `${work.skinned} / ${work.held} / ${work.skipped}` } : {}),
          ...(hasTimestamps && Number.isFinite(skinMs) ? { 'GPU skin': `${skinMs.toFixed(3)} ms`, 'GPU draw': `${drawMs.toFixed(3)} ms` } : {}),
          ...(failure ? { error: failure } : {}),
        };
      },
      destroy() {
        destroyed = true;
        skinning?.destroy();
        depth?.destroy();
        indexBuffer.destroy();
        frameBuffer.destroy();
        querySet?.destroy();
        resolve.destroy();
        readback.destroy();
      },
    };
  },
};

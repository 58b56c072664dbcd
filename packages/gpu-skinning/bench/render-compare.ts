// The posts' claim, measured: skin a crowd once in compute and draw three passes (depth
// prepass, shadow map, main colour pass) from the result with plain vertex shaders, against
// skinning in the vertex shader of each of the three passes. Same mesh, palettes, draws and
// fragment work on both sides; offscreen depth + colour targets.
import {
  buildSkinnedVertices,
  computePalette,
  createPaletteScratch,
  createPose,
  GpuSkinning,
  sampleClip,
  type PackedVertices,
  type ProceduralCharacter,
  type SkinnedInstance,
} from '../src/index.ts';
import renderWgsl from './render.wgsl?raw';
import { lookAt, multiply, orthographic, perspective, placement } from './scene-math.ts';

const WIDTH = 1280;
const HEIGHT = 720;
const SHADOW_SIZE = 2048;
const SPACING = 1.5;

export interface PassTimestampIndices {
  querySet: GPUQuerySet;
  begin?: number;
  end?: number;
}

function renderTimestamps(t: PassTimestampIndices | undefined): { timestampWrites?: GPURenderPassTimestampWrites } {
  if (!t || (t.begin === undefined && t.end === undefined)) return {};
  return { timestampWrites: { querySet: t.querySet, ...(t.begin !== undefined ? { beginningOfPassWriteIndex: t.begin } : {}), ...(t.end !== undefined ? { endOfPassWriteIndex: t.end } : {}) } };
}

export class RenderComparison {
  readonly skinning: GpuSkinning;
  readonly characters: number;
  readonly vertexCount: number;
  readonly #device: GPUDevice;
  readonly #character: ProceduralCharacter;
  readonly #instances: SkinnedInstance[] = [];
  readonly #buffers: GPUBuffer[] = [];
  readonly #textures: GPUTexture[] = [];
  readonly #meshPositionNormal: GPUBuffer;
  readonly #meshBones: GPUBuffer;
  readonly #index: GPUBuffer;
  readonly #frame: GPUBuffer;
  readonly #previousPalette: GPUBuffer;
  readonly #bindGroup: GPUBindGroup;
  readonly #pipelines = new Map<string, GPURenderPipeline>();
  readonly #depth: GPUTextureView;
  readonly #shadow: GPUTextureView;
  readonly #colour: GPUTextureView;
  readonly #motion: GPUTextureView;
  readonly #depthTexture: GPUTexture;

  constructor(device: GPUDevice, character: ProceduralCharacter, characters: number) {
    this.#device = device;
    this.#character = character;
    this.characters = characters;
    const bones = character.skeleton.jointCount;
    const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: bones });
    const packed = vertices as PackedVertices;
    this.vertexCount = packed.vertexCount;
    this.skinning = new GpuSkinning(device, { format: 'packed', kernel: 'lds', maxVertices: packed.vertexCount, maxOutputVertices: packed.vertexCount * characters, maxBones: bones * characters, maxInstances: characters });
    const mesh = this.skinning.addMesh(packed);
    for (let i = 0; i < characters; i++) this.#instances.push(this.skinning.addInstance({ mesh, palette: this.skinning.createPalette(bones) }));

    const buffer = (size: number, usage: number, data?: ArrayBufferView<ArrayBuffer>): GPUBuffer => {
      const b = device.createBuffer({ size: Math.ceil(size / 16) * 16, usage: usage | GPUBufferUsage.COPY_DST });
      if (data) device.queue.writeBuffer(b, 0, data);
      this.#buffers.push(b);
      return b;
    };
    this.#meshPositionNormal = buffer(packed.positionNormal.byteLength, GPUBufferUsage.VERTEX, packed.positionNormal);
    this.#meshBones = buffer(packed.bones.byteLength, GPUBufferUsage.VERTEX, packed.bones);
    this.#index = buffer(character.indices.byteLength, GPUBufferUsage.INDEX, character.indices);
    this.#frame = buffer(256, GPUBufferUsage.UNIFORM);
    this.#previousPalette = buffer(bones * characters * 48, GPUBufferUsage.STORAGE);

    const texture = (format: GPUTextureFormat, width: number, height: number, extra = 0): GPUTextureView => {
      const t = device.createTexture({ size: [width, height], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | extra });
      this.#textures.push(t);
      return t.createView();
    };
    this.#depth = texture('depth32float', WIDTH, HEIGHT, GPUTextureUsage.COPY_SRC);
    this.#depthTexture = this.#textures[this.#textures.length - 1]!;
    this.#shadow = texture('depth32float', SHADOW_SIZE, SHADOW_SIZE);
    this.#colour = texture('rgba8unorm', WIDTH, HEIGHT);
    this.#motion = texture('rg16float', WIDTH, HEIGHT);

    const layout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
      ],
    });
    this.#bindGroup = device.createBindGroup({
      layout,
      entries: [
        { binding: 0, resource: { buffer: this.#frame } },
        { binding: 1, resource: { buffer: this.skinning.paletteBuffer } },
        { binding: 2, resource: { buffer: this.#previousPalette } },
      ],
    });
    const module = device.createShaderModule({ code: renderWgsl });
    const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
    const skinnedBuffers: GPUVertexBufferLayout[] = [
      { arrayStride: 16, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }, { shaderLocation: 1, offset: 12, format: 'snorm8x4' }] },
      { arrayStride: 16, attributes: [{ shaderLocation: 2, offset: 0, format: 'uint16x4' }, { shaderLocation: 3, offset: 8, format: 'uint16x4' }] },
    ];
    const plainBuffers = (motion: boolean): GPUVertexBufferLayout[] => [
      { arrayStride: 16, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }, { shaderLocation: 1, offset: 12, format: 'snorm8x4' }] },
      ...(motion ? [{ arrayStride: 12, attributes: [{ shaderLocation: 3, offset: 0, format: 'float32x3' as const }] }] : []),
    ];
    for (const path of ['skinned', 'plain'] as const) {
      for (const pass of ['depth', 'shadow', 'main', 'main_motion'] as const) {
        const motion = pass === 'main_motion';
        const main = pass === 'main' || motion;
        this.#pipelines.set(
          `${path}_${pass}`,
          device.createRenderPipeline({
            layout: pipelineLayout,
            vertex: { module, entryPoint: `${path}_${pass}`, buffers: path === 'skinned' ? skinnedBuffers : plainBuffers(motion) },
            ...(main ? { fragment: { module, entryPoint: motion ? 'shade_motion' : 'shade', targets: motion ? [{ format: 'rgba8unorm' }, { format: 'rg16float' }] : [{ format: 'rgba8unorm' }] } } : {}),
            primitive: { topology: 'triangle-list', cullMode: 'none' },
            depthStencil: { format: 'depth32float', depthWriteEnabled: !main, depthCompare: main ? 'less-equal' : 'less' },
          }),
        );
      }
    }
    this.#writeCamera();
    this.writePalettes(0.4);
  }

  #writeCamera(): void {
    const side = Math.ceil(Math.sqrt(this.characters)) * SPACING;
    const viewProj = multiply(perspective(Math.PI / 4, WIDTH / HEIGHT, 0.5, side * 4), lookAt([0, side * 0.55, side * 0.95], [0, 0.8, 0]));
    const lightProj = multiply(orthographic(side * 0.75, side * 0.75, 0.1, side * 4), lookAt([side * 0.4, side * 1.5, side * 0.3], [0, 0, 0]));
    const data = new Float32Array(64);
    data.set(viewProj, 0);
    data.set(lightProj, 16);
    data.set(viewProj, 32);
    new Uint32Array(data.buffer)[48] = this.#character.skeleton.jointCount;
    this.#device.queue.writeBuffer(this.#frame, 0, data);
  }

  /** Palettes of every character at `time` (previous frame's 1/60 s earlier) on a grid, each at its own walk phase. */
  writePalettes(time: number): void {
    const { skeleton, walk } = this.#character;
    const pose = createPose(skeleton);
    const scratch = createPaletteScratch(skeleton);
    const bones = skeleton.jointCount;
    const current = new Float32Array(bones * 12);
    const previous = new Float32Array(bones * 12 * this.characters);
    const side = Math.ceil(Math.sqrt(this.characters));
    this.#instances.forEach((instance, i) => {
      const x = ((i % side) - (side - 1) / 2) * SPACING;
      const z = (Math.floor(i / side) - (side - 1) / 2) * SPACING;
      const root = placement(x, z, i * 0.7);
      const phase = (i * 0.37) % 1;
      sampleClip(walk, time + phase, pose);
      computePalette(skeleton, pose, current, { rootTransform: root, scratch });
      this.skinning.writePalette(instance.palette, current);
      sampleClip(walk, time + phase - 1 / 60, pose);
      computePalette(skeleton, pose, previous, { rootTransform: root, scratch, offset: i * bones * 12 });
    });
    this.#device.queue.writeBuffer(this.#previousPalette, 0, previous);
  }

  #passes(encoder: GPUCommandEncoder, path: 'skinned' | 'plain', motion: boolean, first: PassTimestampIndices | undefined, last: PassTimestampIndices | undefined, onlyDepth = false): void {
    const indexCount = this.#character.indices.length;
    const draw = (pass: GPURenderPassEncoder, withPrevious: boolean): void => {
      pass.setBindGroup(0, this.#bindGroup);
      pass.setIndexBuffer(this.#index, 'uint32');
      if (path === 'skinned') {
        pass.setVertexBuffer(0, this.#meshPositionNormal);
        pass.setVertexBuffer(1, this.#meshBones);
        for (let i = 0; i < this.characters; i++) pass.drawIndexed(indexCount, 1, 0, 0, i);
      } else {
        pass.setVertexBuffer(0, this.skinning.vertexBuffers[0]);
        if (withPrevious) pass.setVertexBuffer(1, this.skinning.previousBuffer);
        for (const instance of this.#instances) pass.drawIndexed(indexCount, 1, 0, instance.outputVertex, 0);
      }
    };
    const depthPass = encoder.beginRenderPass({
      colorAttachments: [],
      depthStencilAttachment: { view: this.#depth, depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
      ...renderTimestamps(first),
      ...(onlyDepth ? renderTimestamps(last) : {}),
    });
    depthPass.setPipeline(this.#pipelines.get(`${path}_depth`)!);
    draw(depthPass, false);
    depthPass.end();
    if (onlyDepth) return;
    const shadowPass = encoder.beginRenderPass({ colorAttachments: [], depthStencilAttachment: { view: this.#shadow, depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' } });
    shadowPass.setPipeline(this.#pipelines.get(`${path}_shadow`)!);
    draw(shadowPass, false);
    shadowPass.end();
    const mainPass = encoder.beginRenderPass({
      colorAttachments: [
        { view: this.#colour, clearValue: [0.05, 0.06, 0.09, 1], loadOp: 'clear', storeOp: 'store' },
        ...(motion ? [{ view: this.#motion, clearValue: [0, 0, 0, 0], loadOp: 'clear' as const, storeOp: 'store' as const }] : []),
      ],
      depthStencilAttachment: { view: this.#depth, depthLoadOp: 'load', depthStoreOp: 'store' },
      ...renderTimestamps(last),
    });
    mainPass.setPipeline(this.#pipelines.get(`${path}_${motion ? 'main_motion' : 'main'}`)!);
    draw(mainPass, motion);
    mainPass.end();
  }

  /** Compute skinning (LDS, packed) then three plain passes. */
  recordCompute(encoder: GPUCommandEncoder, motion: boolean, first?: PassTimestampIndices, last?: PassTimestampIndices): void {
    this.skinning.skin(encoder, first ? { querySet: first.querySet, ...(first.begin !== undefined ? { beginIndex: first.begin } : {}) } : undefined);
    this.#passes(encoder, 'plain', motion, undefined, last);
  }

  /** Three passes that each skin in the vertex shader. */
  recordVertexSkinning(encoder: GPUCommandEncoder, motion: boolean, first?: PassTimestampIndices, last?: PassTimestampIndices): void {
    this.#passes(encoder, 'skinned', motion, first, last);
  }

  async #readDepth(record: (encoder: GPUCommandEncoder) => void): Promise<Float32Array> {
    const device = this.#device;
    const readback = device.createBuffer({ size: WIDTH * HEIGHT * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const encoder = device.createCommandEncoder();
    record(encoder);
    encoder.copyTextureToBuffer({ texture: this.#depthTexture, aspect: 'depth-only' }, { buffer: readback, bytesPerRow: WIDTH * 4 }, [WIDTH, HEIGHT]);
    device.queue.submit([encoder.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const depth = new Float32Array(readback.getMappedRange().slice(0));
    readback.destroy();
    return depth;
  }

  /**
   * Draws the depth prepass both ways and compares: both must cover the same pixels at the same
   * depth (up to float rounding). Returns covered share and the share of pixels that differ.
   */
  async verify(): Promise<{ covered: number; differing: number }> {
    const first = await this.#readDepth((encoder) => {
      this.skinning.skin(encoder);
      this.#passes(encoder, 'plain', false, undefined, undefined, true);
    });
    const second = await this.#readDepth((encoder) => { this.#passes(encoder, 'skinned', false, undefined, undefined, true); });
    let covered = 0;
    let differing = 0;
    for (let i = 0; i < first.length; i++) {
      if (first[i]! < 1) covered++;
      if (Math.abs(first[i]! - second[i]!) > 1e-4) differing++;
    }
    return { covered: covered / first.length, differing: differing / first.length };
  }

  destroy(): void {
    this.skinning.destroy();
    for (const b of this.#buffers) b.destroy();
    for (const t of this.#textures) t.destroy();
  }
}

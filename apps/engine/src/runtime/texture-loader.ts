// Compiled textures into the render scene: each KTX2 transcoded, on this thread, to the block
// format the device samples (textures/transcode-ktx2.ts), and the bytes it takes on the GPU
// counted. The Basis module is loaded by Engine.start, so a world builds synchronously.
import type { RenderScene } from '@cuttle/render';
import { EngineError } from '../errors.ts';
import type { BasisModule } from '../textures/basis-module.ts';
import { Ktx2Error } from '../textures/ktx2-header.ts';
import { chainBytes } from '../textures/mip-chain.ts';
import { chooseTranscode, transcodeKtx2, type CompressionSupport } from '../textures/transcode-ktx2.ts';
import type { Container } from './container.ts';
import { section } from './container.ts';
import type { TextureMeta } from './formats.ts';

export interface TextureLoadStats {
  textures: number;
  /** GPU bytes of every level of every texture loaded. */
  gpuBytes: number;
  /** Bytes of the KTX2 files read. */
  fileBytes: number;
  /** Transcoding and upload, this thread. */
  ms: number;
}

export class TextureLoader {
  readonly #basis: BasisModule;
  readonly support: CompressionSupport;
  readonly stats: TextureLoadStats = { textures: 0, gpuBytes: 0, fileBytes: 0, ms: 0 };

  /** `support`: the families to transcode to (all false: RGBA8 only). */
  constructor(basis: BasisModule, support: CompressionSupport) {
    this.#basis = basis;
    this.support = support;
  }

  /** Adds compiled texture `name` to `scene`; its id. An EngineError says what is wrong with a damaged file. */
  load(scene: RenderScene, name: string, container: Container<TextureMeta>): number {
    return this.loadData(scene, name, container.meta, section(container, container.meta.codec === 'rgba8' ? 'rgba' : 'ktx2', Uint8Array));
  }

  /**
   * Adds a texture given by its header and its one section's bytes (a KTX2 file, or RGBA8 for a
   * draft): a png resource's, or one a GLB embeds. `name` is what an error calls it.
   */
  loadData(scene: RenderScene, name: string, meta: TextureMeta, data: Uint8Array): number {
    const started = performance.now();
    const { width, height, levels, usage, alpha } = meta;
    if (meta.codec === 'rgba8') return this.#loadDraft(scene, meta, data, started);
    const choice = chooseTranscode(this.support, usage, alpha, width, height);
    let input;
    try {
      input = transcodeKtx2(this.#basis, data, choice, { width, height, levels });
    } catch (error) {
      if (error instanceof Ktx2Error) throw new EngineError(`compiled texture ${name} ${error.message}; compile it again (cuttle-engine compile --force rebuilds every output).`);
      throw error;
    }
    const id = scene.addCompressedTexture(input);
    this.stats.gpuBytes += chainBytes(input.format, width, height, input.levels.length);
    this.stats.textures++;
    this.stats.fileBytes += data.byteLength;
    this.stats.ms += performance.now() - started;
    return id;
  }

  /** A watch-loop draft: RGBA8 level 0, its mips made on the GPU (colour averaged in linear light, normal maps renormalized, data averaged as it is). */
  #loadDraft(scene: RenderScene, meta: TextureMeta, data: Uint8Array, started: number): number {
    const { width, height, usage } = meta;
    if (data.length !== width * height * 4) throw new EngineError(`a draft texture holds ${data.length} bytes, not ${width}x${height} RGBA8; compile it again.`);
    // The scene copies the pixels to the GPU: a view of the container's bytes is enough.
    const rgba = new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    const id = scene.addTexture({ width, height, data: rgba }, { srgb: usage === 'color', normalMap: usage === 'normal' });
    this.stats.gpuBytes += chainBytes('rgba8unorm', width, height, meta.levels);
    this.stats.textures++;
    this.stats.fileBytes += rgba.byteLength;
    this.stats.ms += performance.now() - started;
    return id;
  }
}

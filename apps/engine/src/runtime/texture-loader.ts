// Compiled textures into the render scene: each KTX2 transcoded to the block format the device
// samples (textures/transcode-ktx2.ts), and the bytes it takes on the GPU counted. With frame
// workers a world's textures are transcoded together first (texture-prefetch.ts) and each load
// takes its levels from there; without, each is transcoded on this thread as it loads. The Basis
// module is loaded by Engine.start, so a world builds synchronously.
import type { JobSystem } from '@cuttle/jobs';
import type { CompressedTextureInput, RenderScene } from '@cuttle/render';
import { EngineError } from '../errors.ts';
import type { BasisModule } from '../textures/basis-module.ts';
import { Ktx2Error } from '../textures/ktx2-header.ts';
import { chainBytes } from '../textures/mip-chain.ts';
import { chooseTranscode, transcodeKtx2, type CompressionSupport } from '../textures/transcode-ktx2.ts';
import type { Container } from './container.ts';
import { section } from './container.ts';
import type { TextureMeta } from './formats.ts';
import { damagedTexture } from './texture-error.ts';
import { TexturePrefetch, type PrefetchedTexture, type TextureSource } from './texture-prefetch.ts';

/** A world's textures transcoded ahead, by name (TextureLoader.prefetch). */
export type PrefetchedTextures = ReadonlyMap<string, PrefetchedTexture>;

export interface TextureLoadStats {
  textures: number;
  /** GPU bytes of every level of every texture loaded. */
  gpuBytes: number;
  /** Bytes of the KTX2 files read. */
  fileBytes: number;
  /** Of `textures`, those transcoded ahead on the frame workers. */
  prefetched: number;
  /** Transcoding and upload, this thread (with frame workers: the prefetches' wall time and the uploads). */
  ms: number;
}

export class TextureLoader {
  readonly #basis: BasisModule;
  readonly support: CompressionSupport;
  readonly stats: TextureLoadStats = { textures: 0, gpuBytes: 0, fileBytes: 0, prefetched: 0, ms: 0 };
  readonly #prefetch = new TexturePrefetch();

  /** `support`: the families to transcode to (all false: RGBA8 only). */
  constructor(basis: BasisModule, support: CompressionSupport) {
    this.#basis = basis;
    this.support = support;
  }

  /**
   * Transcodes `sources` on the frame workers `jobs` (a Dispatch the calling thread helps with),
   * for loads that pass the result: nothing is added to a scene yet. A damaged file is refused
   * when its load comes, as on one thread.
   */
  prefetch(sources: readonly TextureSource[], jobs: JobSystem): PrefetchedTextures {
    const started = performance.now();
    const prefetched = this.#prefetch.transcode(sources, this.support, jobs);
    this.stats.ms += performance.now() - started;
    return prefetched;
  }

  /**
   * Adds compiled texture `name` to `scene`; its id. An EngineError says what is wrong with a
   * damaged file. `prefetched`: transcoded ahead (a texture it lacks is transcoded here).
   */
  load(scene: RenderScene, name: string, container: Container<TextureMeta>, prefetched?: PrefetchedTextures): number {
    return this.loadData(scene, name, container.meta, section(container, container.meta.codec === 'rgba8' ? 'rgba' : 'ktx2', Uint8Array), prefetched);
  }

  /**
   * Adds a texture given by its header and its one section's bytes (a KTX2 file, or RGBA8 for a
   * draft): a png resource's, or one a GLB embeds. `name` is what an error calls it.
   */
  loadData(scene: RenderScene, name: string, meta: TextureMeta, data: Uint8Array, prefetched?: PrefetchedTextures): number {
    const started = performance.now();
    const { width, height, levels, usage, alpha } = meta;
    if (meta.codec === 'rgba8') return this.#loadDraft(scene, meta, data, started);
    let input: CompressedTextureInput;
    const ready = prefetched?.get(name);
    // Taken only for the same bytes: a resource read again since the prefetch is transcoded here.
    if (ready?.data.buffer === data.buffer && ready.data.byteOffset === data.byteOffset && ready.data.byteLength === data.byteLength) {
      if ('error' in ready) throw ready.error;
      input = ready.take();
      this.stats.prefetched++;
    } else {
      try {
        input = transcodeKtx2(this.#basis, data, chooseTranscode(this.support, usage, alpha, width, height), { width, height, levels });
      } catch (error) {
        if (error instanceof Ktx2Error) throw damagedTexture(name, error);
        throw error;
      }
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

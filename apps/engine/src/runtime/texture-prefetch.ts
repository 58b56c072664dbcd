// A world's textures transcoded before the world adds them: one @cuttle/jobs Dispatch over the
// textures on the frame workers, the main thread helping, each worker with its own Basis
// transcoder (runtime/parallel/texture-kernels.ts). The KTX2 files go in and the levels come out
// through shared memory laid out by the main thread (parallel/texture-records.ts). Nothing is
// added to a scene here: the world adds each texture when its build reaches it, in the order a
// one-thread load adds them, so the texture ids and every byte uploaded are the same.
import { JobFailedError, WorkerDiedError, type JobSystem } from '@cuttle/jobs';
import type { CompressedTextureInput } from '@cuttle/render';
import { EngineError } from '../errors.ts';
import { Ktx2Error } from '../textures/ktx2-header.ts';
import { TranscodeOutcome } from '../textures/transcode-levels.ts';
import { checkKtx2, chooseTranscode, levelByteLengths, transcodeFailure, type CompressionSupport, type TranscodeChoice } from '../textures/transcode-ktx2.ts';
import type { TextureMeta } from './formats.ts';
import { sharedAtLeast } from './parallel/shared-arrays.ts';
import { RECORD_HEAD, recordStride } from './parallel/texture-records.ts';
import { damagedTexture } from './texture-error.ts';

/** A compiled texture a world is about to load. */
export interface TextureSource {
  /** What the world loads it as, and what an error calls it: 'textures/x', 'texture 2 of meshes/y.glb'. */
  name: string;
  meta: TextureMeta;
  /** Its one section: a KTX2 file (drafts, RGBA8, are not prefetched). */
  data: Uint8Array;
}

/**
 * A texture transcoded ahead of its load: `take` copies its levels out of the shared output (valid
 * until the next prefetch), or `error` is what its load throws.
 */
export type PrefetchedTexture = { data: Uint8Array; take: () => CompressedTextureInput } | { data: Uint8Array; error: EngineError };

interface Planned {
  source: TextureSource;
  choice: TranscodeChoice;
  levels: number[];
  bytes: number;
}

export class TexturePrefetch {
  // Kept and reused from load to load: workers keep every SharedArrayBuffer they are sent until it
  // is released, so a new set per load would cost a send and a release each time; they only grow
  // (doubling), when a world needs more than any before it, and the outgrown one is released.
  #files: Uint8Array | undefined;
  #output: Uint8Array | undefined;
  #table: Float64Array | undefined;
  #outcomes: Int32Array | undefined;
  /** Counts the runs: a texture taken after the next run started would read its bytes. */
  #run = 0;

  /**
   * Transcodes `sources` for a device with `support` on `jobs`; by name. A damaged file's entry
   * holds the EngineError its load throws (at the same point as a one-thread load would).
   */
  transcode(sources: readonly TextureSource[], support: CompressionSupport, jobs: JobSystem): Map<string, PrefetchedTexture> {
    const done = new Map<string, PrefetchedTexture>();
    const planned: Planned[] = [];
    const seen = new Set<string>();
    for (const source of sources) {
      const { name, meta, data } = source;
      if (meta.codec !== 'basis' || seen.has(name)) continue;
      seen.add(name);
      try {
        checkKtx2(data, meta);
      } catch (error) {
        if (!(error instanceof Ktx2Error)) throw error;
        done.set(name, { data, error: damagedTexture(name, error) });
        continue;
      }
      const choice = chooseTranscode(support, meta.usage, meta.alpha, meta.width, meta.height);
      const levels = levelByteLengths(choice.format, meta.width, meta.height, meta.levels);
      planned.push({ source, choice, levels, bytes: levels.reduce((sum, n) => sum + n, 0) });
    }
    // Largest first: no big texture starts last and leaves the other threads idle.
    planned.sort((a, b) => b.bytes - a.bytes);
    this.#dispatch(planned, jobs, done);
    return done;
  }

  #dispatch(planned: readonly Planned[], jobs: JobSystem, done: Map<string, PrefetchedTexture>): void {
    const count = planned.length;
    if (count === 0) return;
    const run = ++this.#run;
    const stride = recordStride(planned.reduce((most, p) => Math.max(most, p.levels.length), 1));
    const fileBytes = planned.reduce((sum, p) => sum + p.source.data.byteLength, 0);
    const outputBytes = planned.reduce((sum, p) => sum + p.bytes, 0);
    const files = (this.#files = sharedAtLeast(jobs, this.#files, fileBytes, Uint8Array, 1024));
    const output = (this.#output = sharedAtLeast(jobs, this.#output, outputBytes, Uint8Array, 1024));
    const table = (this.#table = sharedAtLeast(jobs, this.#table, count * stride, Float64Array, 1024));
    const outcomes = (this.#outcomes = sharedAtLeast(jobs, this.#outcomes, count, Int32Array, 1024));
    let fileAt = 0;
    let outputAt = 0;
    planned.forEach(({ source, choice, levels, bytes }, index) => {
      const at = index * stride;
      files.set(source.data, fileAt);
      table.set([fileAt, source.data.byteLength, choice.target, levels.length, outputAt], at);
      table.set(levels, at + RECORD_HEAD);
      fileAt += source.data.byteLength;
      outputAt += bytes;
    });
    outcomes.fill(0, 0, count);
    let failure: Error | undefined;
    try {
      jobs.dispatch(count, 1, 'transcodeTextures', files.subarray(0, fileBytes), table.subarray(0, count * stride), stride, output.subarray(0, outputBytes), outcomes.subarray(0, count));
      jobs.wait();
    } catch (error) {
      // A kernel that threw or a worker that died: the other textures were transcoded; the ones
      // it held keep outcome 0 and carry this error to their load.
      if (!(error instanceof JobFailedError || error instanceof WorkerDiedError)) throw error;
      failure = error;
    }
    outputAt = 0;
    for (let index = 0; index < count; index++) {
      const { source, choice, levels, bytes } = planned[index]!;
      const { name, meta, data } = source;
      const code = outcomes[index]!;
      if (code === TranscodeOutcome.ok) {
        const from = outputAt;
        done.set(name, { data, take: () => this.#copyOut(run, from, levels, { format: choice.format, width: meta.width, height: meta.height }) });
      } else if (code === 0 && failure) {
        done.set(name, { data, error: new EngineError(`compiled texture ${name} was not transcoded: a frame worker failed (${failure.message}). Load with --frame-threads 1 to transcode on the main thread, and report the failure.`) });
      } else {
        done.set(name, { data, error: damagedTexture(name, transcodeFailure(code, choice.format)) });
      }
      outputAt += bytes;
    }
  }

  /**
   * One copy per texture out of shared memory, when its load comes (the scene uploads ArrayBuffer
   * views; copying then, not all at once, keeps one texture's copy alive, not a world's).
   */
  #copyOut(run: number, from: number, levels: readonly number[], size: Omit<CompressedTextureInput, 'levels'>): CompressedTextureInput {
    if (run !== this.#run || !this.#output) throw new EngineError('a texture prefetched for one world was loaded after the next prefetch began; prefetch again for each world you build.');
    const own = this.#output.slice(from, from + levels.reduce((sum, n) => sum + n, 0)).buffer;
    const views: Uint8Array<ArrayBuffer>[] = [];
    let at = 0;
    for (const length of levels) {
      views.push(new Uint8Array(own, at, length));
      at += length;
    }
    return { ...size, levels: views };
  }
}

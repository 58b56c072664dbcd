// The Basis Universal module (encoder and transcoder in one WebAssembly build, from the
// `ktx2-encoder` package): loaded once per thread, on first use, and kept. Its typings cover the encoder
// only, so the parts used here are typed below and checked when the module loads; a release
// of the package that drops one fails here with a clear message, not deep in a compile.

/** The Basis encoder object (basis_wrappers.cpp's `BasisEncoder`); only what the compiler sets. */
export interface BasisEncoder {
  setCreateKTX2File(on: boolean): void;
  setDebug(on: boolean): void;
  setStatusOutput(on: boolean): void;
  setUASTC(on: boolean): void;
  setPerceptual(on: boolean): void;
  setKTX2AndBasisSRGBTransferFunc(on: boolean): void;
  setMipGen(on: boolean): void;
  setMipSRGB(on: boolean): void;
  setMipRenormalize(on: boolean): void;
  setMipFilter(filter: string): void;
  setNormalMapPreset(): void;
  setQualityLevel(level: number): void;
  setETC1SCompressionLevel(level: number): void;
  setKTX2UASTCSupercompression(on: boolean): void;
  setPackUASTCFlags(flags: number): void;
  setCheckForAlpha(on: boolean): void;
  /** `type` 0: raw RGBA8 rows, top row first. */
  setSliceSourceImage(slice: number, rgba: Uint8Array, width: number, height: number, type: number): boolean;
  /** Writes the file into `out`; returns its length, 0 on failure. */
  encode(out: Uint8Array): number;
  delete(): void;
}

/** A parsed KTX2 file (basis_wrappers.cpp's `KTX2File`). */
export interface Ktx2File {
  isValid(): boolean;
  getWidth(): number;
  getHeight(): number;
  getLevels(): number;
  getLayers(): number;
  getFaces(): number;
  getHasAlpha(): boolean;
  isETC1S(): boolean;
  isUASTC(): boolean;
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(out: Uint8Array, level: number, layer: number, face: number, format: number, flags: number, channel0: number, channel1: number): number;
  close(): void;
  delete(): void;
}

export interface BasisModule {
  BasisEncoder: new () => BasisEncoder;
  KTX2File: new (bytes: Uint8Array) => Ktx2File;
}

/** The transcoder's target formats used here (basisu's `transcoder_texture_format`). */
export const TranscodeTarget = {
  etc1Rgb: 0,
  etc2Rgba: 1,
  bc1Rgb: 2,
  bc3Rgba: 3,
  bc7Rgba: 6,
  astc4x4Rgba: 10,
  rgba32: 13,
} as const;
export type TranscodeTarget = (typeof TranscodeTarget)[keyof typeof TranscodeTarget];

const ENCODER_METHODS = ['setCreateKTX2File', 'setStatusOutput', 'setUASTC', 'setPerceptual', 'setKTX2AndBasisSRGBTransferFunc', 'setMipGen', 'setMipSRGB', 'setMipRenormalize', 'setNormalMapPreset', 'setQualityLevel', 'setETC1SCompressionLevel', 'setKTX2UASTCSupercompression', 'setSliceSourceImage', 'encode'] as const;

// Kept on the thread's global object, not in this module: the engine's source and the frame
// kernels' bundle each carry a copy of this file, and on the main thread (which runs kernels
// while it helps) both must get the same instance rather than two WebAssembly heaps.
const LOADING = Symbol.for('cuttle.engine.basisModule');
type BasisGlobal = typeof globalThis & { [LOADING]?: Promise<BasisModule> };

/** The module of this thread (a compile worker, a frame worker or the engine), loaded on first call. */
export function basisModule(): Promise<BasisModule> {
  const global = globalThis as BasisGlobal;
  global[LOADING] ??= load();
  return global[LOADING];
}

async function load(): Promise<BasisModule> {
  // The package's typings follow its browser entry; Node resolves its Node entry, which has this class.
  const { NodeBasisEncoder } = (await import('ktx2-encoder')) as unknown as { NodeBasisEncoder: new () => { init(): Promise<unknown> } };
  const module = (await new NodeBasisEncoder().init()) as Partial<BasisModule>;
  if (typeof module.BasisEncoder !== 'function' || typeof module.KTX2File !== 'function') {
    throw new Error('the ktx2-encoder package has no BasisEncoder or KTX2File: install the version apps/engine/package.json names');
  }
  const probe = new module.BasisEncoder();
  try {
    const missing = ENCODER_METHODS.filter((name) => typeof (probe as unknown as Record<string, unknown>)[name] !== 'function');
    if (missing.length > 0) throw new Error(`the Basis encoder lacks ${missing.join(', ')}: install the ktx2-encoder version apps/engine/package.json names`);
  } finally {
    probe.delete();
  }
  return module as BasisModule;
}

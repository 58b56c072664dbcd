// Reads pixels of the frame just rendered, for the browser smoke test: proof that WebGPU drew
// something, not merely that nothing threw. Exposed as window.__cuttle.

export interface PixelSample {
  x: number;
  y: number;
  /** 0-255 each, in RGBA order whatever the canvas format. */
  rgba: [number, number, number, number];
}

export interface FrameProbe {
  framesDrawn: number;
  adapter: string;
  scene: string;
  /** requestAnimationFrame timestamps (ms) of the latest frames, for frame-time traces. */
  frameStamps: number[];
  /** Ids of every registered scene, for tests that visit them all. */
  scenes: readonly string[];
  /** Samples pixels (fractions of width/height) of the next frame after it is drawn. */
  sample(points: readonly [number, number][]): Promise<PixelSample[]>;
  error?: string;
}

interface PendingSample {
  points: readonly [number, number][];
  resolve(samples: PixelSample[]): void;
  reject(error: unknown): void;
}

export class FrameSampler {
  #pending: PendingSample[] = [];

  request(points: readonly [number, number][]): Promise<PixelSample[]> {
    return new Promise((resolve, reject) => this.#pending.push({ points, resolve, reject }));
  }

  /** Called after the frame's work is recorded: copies requested pixels out of `texture`. */
  record(device: GPUDevice, encoder: GPUCommandEncoder, texture: GPUTexture): (() => void) | undefined {
    const requests = this.#pending;
    if (requests.length === 0) return undefined;
    this.#pending = [];
    const points = requests.flatMap((request) => request.points);
    // One 256-byte row per sampled pixel: bytesPerRow must be a multiple of 256.
    const readback = device.createBuffer({ size: points.length * 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const pixels = points.map(([fx, fy], i) => {
      const x = Math.min(texture.width - 1, Math.floor(fx * texture.width));
      const y = Math.min(texture.height - 1, Math.floor(fy * texture.height));
      encoder.copyTextureToBuffer({ texture, origin: { x, y } }, { buffer: readback, offset: i * 256, bytesPerRow: 256 }, { width: 1, height: 1 });
      return { x, y };
    });
    const bgra = texture.format.startsWith('bgra');
    return () => {
      readback
        .mapAsync(GPUMapMode.READ)
        .then(() => {
          const bytes = new Uint8Array(readback.getMappedRange());
          const samples: PixelSample[] = pixels.map(({ x, y }, i) => {
            const [a, b, c, d] = [bytes[i * 256]!, bytes[i * 256 + 1]!, bytes[i * 256 + 2]!, bytes[i * 256 + 3]!];
            return { x, y, rgba: bgra ? [c, b, a, d] : [a, b, c, d] };
          });
          readback.unmap();
          readback.destroy();
          let offset = 0;
          for (const request of requests) {
            request.resolve(samples.slice(offset, offset + request.points.length));
            offset += request.points.length;
          }
        })
        .catch((error: unknown) => {
          for (const request of requests) request.reject(error);
        });
    };
  }
}

// The mip filter of scene/mipmaps.ts on the CPU, for the tests: each level a 2x2 box of the level
// above, colour in linear light for sRGB, normals renormalized. Exact for sizes that halve
// evenly (the GPU's one linear sample per texel is a 2x2 box only then).

function toLinear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function toSrgb(v: number): number {
  const c = v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
}

export interface MipLevel {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Level `from` halved; `kind` is how texels are averaged. */
export function referenceMipLevel(from: MipLevel, kind: 'srgb' | 'linear' | 'normal'): MipLevel {
  const width = Math.max(1, Math.floor(from.width / 2));
  const height = Math.max(1, Math.floor(from.height / 2));
  const data = new Uint8Array(width * height * 4);
  const texel = (x: number, y: number, c: number): number => from.data[(Math.min(y, from.height - 1) * from.width + Math.min(x, from.width - 1)) * 4 + c]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        for (let c = 0; c < 4; c++) {
          const v = texel(2 * x + dx, 2 * y + dy, c);
          sum[c]! += kind === 'srgb' && c < 3 ? toLinear(v) : v / 255;
        }
      }
      const avg = sum.map((s) => s / 4);
      const o = (y * width + x) * 4;
      if (kind === 'normal') {
        const n = [avg[0]! * 2 - 1, avg[1]! * 2 - 1, avg[2]! * 2 - 1];
        const length = Math.hypot(n[0]!, n[1]!, n[2]!);
        const unit = length > 1e-4 ? n.map((v) => v / length) : [0, 0, 1];
        for (let c = 0; c < 3; c++) data[o + c] = Math.round((unit[c]! * 0.5 + 0.5) * 255);
      } else {
        for (let c = 0; c < 3; c++) data[o + c] = kind === 'srgb' ? toSrgb(avg[c]!) : Math.round(avg[c]! * 255);
      }
      data[o + 3] = Math.round(avg[3]! * 255);
    }
  }
  return { width, height, data };
}

// The plain TypeScript version of gui.wgsl and the renderer's draw loop: rasterises every
// batch of each Gui in draw order, quad by quad, at pixel centres, with the same vertex
// decoding, clip test, texture sampling, distance-field shading and premultiplied blending.
// Derivatives for fwidth are differences across 2x2 pixel quads, as GPUs take them. Slow and
// simple: the GPU tests compare the renderer with it.
import type { GuiImage } from '../api.ts';
import type { Gui } from '../gui.ts';
import { QUAD_WORDS, VERTEX_WORDS } from '../vertex-format.ts';

/** A material as the reference renderer sees it: what the GuiRenderer's material of the same id samples. */
export interface ReferenceMaterial {
  /** `'textured'` (solid and atlas materials: texture times vertex colour) or `'text'` (distance-field shading with the style). */
  kind: 'textured' | 'text';
  /** The texture pages, by page index. */
  pages: readonly GuiImage[];
  /** Texture sampling. */
  filter: 'linear' | 'nearest';
  /** textStyleUniform() of a text material. */
  style?: Float32Array;
}

/** The materials a fresh GuiRenderer starts with: material 0, solid colour (a white texel). */
export const REFERENCE_SOLID: ReferenceMaterial = { kind: 'textured', pages: [{ width: 1, height: 1, channels: 4, data: new Uint8Array([255, 255, 255, 255]) }], filter: 'nearest' };

type Rgba = [number, number, number, number];

function texel(page: GuiImage, x: number, y: number, out: Rgba, weight: number): void {
  const cx = Math.min(page.width - 1, Math.max(0, x));
  const cy = Math.min(page.height - 1, Math.max(0, y));
  const i = cy * page.width + cx;
  if (page.channels === 1) {
    out[0] += (page.data[i]! / 255) * weight;
    out[3] += weight; // r8unorm samples as (r, 0, 0, 1)
  } else {
    for (let c = 0; c < 4; c++) out[c] = out[c]! + (page.data[i * 4 + c]! / 255) * weight;
  }
}

function sample(m: ReferenceMaterial, page: number, u: number, v: number): Rgba {
  const image = m.pages[Math.min(page, m.pages.length - 1)]!;
  const out: Rgba = [0, 0, 0, 0];
  if (m.filter === 'nearest') {
    texel(image, Math.floor(u * image.width), Math.floor(v * image.height), out, 1);
    return out;
  }
  const x = u * image.width - 0.5;
  const y = v * image.height - 0.5;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  texel(image, x0, y0, out, (1 - fx) * (1 - fy));
  texel(image, x0 + 1, y0, out, fx * (1 - fy));
  texel(image, x0, y0 + 1, out, (1 - fx) * fy);
  texel(image, x0 + 1, y0 + 1, out, fx * fy);
  return out;
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

function smoothstep(e0: number, e1: number, x: number): number {
  const t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

function over(top: Rgba, below: Rgba): Rgba {
  const k = 1 - top[3];
  return [top[0] + below[0] * k, top[1] + below[1] * k, top[2] + below[2] * k, top[3] + below[3] * k];
}

function premultipliedScaled(c: ArrayLike<number>, offset: number, s: number): Rgba {
  const a = c[offset + 3]!;
  return [c[offset]! * a * s, c[offset + 1]! * a * s, c[offset + 2]! * a * s, a * s];
}

/** Renders `guis` in order over `clear` (0..1 RGBA) into rgba8 pixels, as GuiRenderer.draw does. */
export function renderReference(guis: readonly Gui[], materials: readonly ReferenceMaterial[], width: number, height: number, clear: Rgba): Uint8Array {
  const color = new Float64Array(width * height * 4);
  for (let i = 0; i < width * height; i++) color.set(clear, i * 4);
  for (const gui of guis) {
    for (const batch of gui.batches) {
      const m = materials[batch.material];
      if (!m || batch.used === 0) continue;
      for (let q = 0; q < batch.used; q++) {
        const base = q * QUAD_WORDS;
        const vx = (k: number): number => batch.floats[base + k * VERTEX_WORDS]!;
        const vy = (k: number): number => batch.floats[base + k * VERTEX_WORDS + 1]!;
        const word = (k: number, w: number): number => batch.words[base + k * VERTEX_WORDS + w]!;
        for (const [a, b, c] of [[0, 1, 2], [2, 1, 3]] as const) {
          const ax = vx(a), ay = vy(a), bx = vx(b), by = vy(b), cx = vx(c), cy = vy(c);
          const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
          if (area === 0) continue;
          // Barycentric weights as affine functions of the pixel position (they extrapolate
          // to the helper pixels a 2x2 quad needs for derivatives).
          const bary = (px: number, py: number): [number, number, number] => {
            const wa = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / area;
            const wb = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / area;
            return [wa, wb, 1 - wa - wb];
          };
          const attr = (px: number, py: number): { u: number; v: number; rgba: Rgba } => {
            const [wa, wb, wc] = bary(px, py);
            const uv = (k: number): [number, number] => [(word(k, 2) & 0xffff) / 0xffff, (word(k, 2) >>> 16) / 0xffff];
            const col = (k: number, ch: number): number => ((word(k, 3) >>> (ch * 8)) & 0xff) / 255;
            const [ua, va] = uv(a);
            const [ub, vb] = uv(b);
            const [uc, vc] = uv(c);
            return {
              u: wa * ua + wb * ub + wc * uc,
              v: wa * va + wb * vb + wc * vc,
              rgba: [0, 1, 2, 3].map((ch) => wa * col(a, ch) + wb * col(b, ch) + wc * col(c, ch)) as Rgba,
            };
          };
          const clipPage = word(a, 4);
          const clip = gui.clipRects.subarray((clipPage & 0xffff) * 4, (clipPage & 0xffff) * 4 + 4);
          const page = (clipPage >>> 16) & 0xff;
          const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
          const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
          const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
          const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
          const style = m.style;
          const distance = (px: number, py: number, dx: number, dy: number): number => {
            const { u, v } = attr(px, py);
            return (sample(m, page, u - dx, v - dy)[0] - 0.5) * 2 * style![12]!;
          };
          for (let y = y0; y <= y1; y++) {
            for (let x = x0; x <= x1; x++) {
              const px = x + 0.5;
              const py = y + 0.5;
              const [wa, wb, wc] = bary(px, py);
              if (wa < 0 || wb < 0 || wc < 0) continue;
              if (px < clip[0]! || py < clip[1]! || px >= clip[2]! || py >= clip[3]!) continue;
              const { u, v, rgba } = attr(px, py);
              let src: Rgba;
              if (m.kind === 'textured') {
                const t = sample(m, page, u, v);
                const c: Rgba = [t[0] * rgba[0], t[1] * rgba[1], t[2] * rgba[2], t[3] * rgba[3]];
                src = [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]];
              } else {
                const s = style!;
                const d = distance(px, py, 0, 0);
                // Fine derivatives across the 2x2 quad this pixel belongs to.
                const qx = (x & ~1) + 0.5;
                const qy = (y & ~1) + 0.5;
                const ddx = distance(qx + 1, py, 0, 0) - distance(qx, py, 0, 0);
                const ddy = distance(px, qy + 1, 0, 0) - distance(px, qy, 0, 0);
                const pixel = Math.max(Math.abs(ddx) + Math.abs(ddy), 1e-4);
                const fill = clamp01(d / pixel + 0.5);
                const outline = clamp01((d + s[13]!) / pixel + 0.5);
                const glowFalloff = clamp01(1 + (d + s[13]!) / Math.max(s[14]!, 1e-4));
                const glow = s[14]! > 0 ? glowFalloff * glowFalloff : 0;
                const ds = distance(px, py, s[16]! / s[18]!, s[17]! / s[19]!) + s[13]!;
                const soft = Math.max(s[15]!, 0) + 0.5 * pixel;
                const shadow = smoothstep(-soft, soft, ds);
                let c = premultipliedScaled(s, 8, shadow);
                c = over(premultipliedScaled(s, 4, glow), c);
                c = over(premultipliedScaled(s, 0, outline), c);
                c = over(premultipliedScaled(rgba, 0, fill), c);
                src = c;
              }
              const o = (y * width + x) * 4;
              const k = 1 - src[3];
              for (let ch = 0; ch < 4; ch++) color[o + ch] = src[ch]! + color[o + ch]! * k;
            }
          }
        }
      }
    }
  }
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(clamp01(color[i]!) * 255);
  return out;
}

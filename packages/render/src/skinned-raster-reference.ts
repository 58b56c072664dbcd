// The compute raster of shaders/skinned-raster.wgsl in plain TypeScript, step for step (for the
// tests): triangles clipped at the eye plane, pixel centres covered edges included, the nearest
// depth kept per pixel as a key that grows toward the viewer, and the id of a triangle that won it.

const EYE_W = 1e-6;

export interface RasterReferenceInput {
  /** World-space positions, three floats a vertex (the skinned output). */
  positions: Float32Array;
  indices: Uint32Array | Uint16Array;
  /** Each instance's first vertex in `positions`. */
  firstVertices: readonly number[];
  /** Column-major. */
  clipFromWorld: Float32Array;
  width: number;
  height: number;
  /** The nearer surface has the greater depth. */
  reversed: boolean;
  cullBack: boolean;
}

export interface RasterReference {
  /** Per pixel (row by row): the nearest depth's key (0: none). */
  keys: Uint32Array;
  /** Per pixel: 1 + instance * triangles + triangle of a triangle with the nearest depth (0: none). */
  ids: Uint32Array;
}

type Clip = [number, number, number, number];
type Screen = [number, number, number];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The key of a depth in [0, 1]: its f32 bits, inverted unless reversed. */
export function rasterKey(depth: number, reversed: boolean): number {
  f32[0] = depth;
  return reversed ? u32[0]! : ~u32[0]! >>> 0;
}

/** The depth a key stands for. */
export function rasterDepth(key: number, reversed: boolean): number {
  u32[0] = reversed ? key : ~key >>> 0;
  return f32[0]!;
}

function area(a: readonly number[], b: readonly number[], c: readonly number[]): number {
  return (c[0]! - a[0]!) * (b[1]! - a[1]!) - (b[0]! - a[0]!) * (c[1]! - a[1]!);
}

export function rasterizeReference(input: RasterReferenceInput): RasterReference {
  const { positions, indices, firstVertices, clipFromWorld: m, width, height, reversed, cullBack } = input;
  const keys = new Uint32Array(width * height);
  const ids = new Uint32Array(width * height);
  const triangles = indices.length / 3;
  const clip = (v: number): Clip => {
    const x = positions[v * 3]!, y = positions[v * 3 + 1]!, z = positions[v * 3 + 2]!;
    return [0, 1, 2, 3].map((r) => m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!) as Clip;
  };
  const screen = (c: Clip): Screen => [(c[0] / c[3] * 0.5 + 0.5) * width, (0.5 - c[1] / c[3] * 0.5) * height, c[2] / c[3]];
  const crossing = (p: Clip, q: Clip): Clip => {
    const t = (p[3] - EYE_W) / (p[3] - q[3]);
    return p.map((value, k) => value + (q[k]! - value) * t) as Clip;
  };

  for (let pass = 0; pass < 2; pass++) {
    firstVertices.forEach((first, instance) => {
      const drawScreen = (a: Clip, b: Clip, c: Clip, id: number): void => {
        const sa = screen(a), sb = screen(b), sc = screen(c);
        const abc = area(sa, sb, sc);
        if (abc === 0 || (cullBack && abc < 0)) return;
        const low = [0, 1].map((k) => Math.min(Math.max(Math.min(sa[k]!, sb[k]!, sc[k]!), -1), (k === 0 ? width : height) + 1));
        const high = [0, 1].map((k) => Math.min(Math.max(Math.max(sa[k]!, sb[k]!, sc[k]!), -1), (k === 0 ? width : height) + 1));
        const x0 = Math.max(Math.ceil(low[0]! - 0.5), 0), y0 = Math.max(Math.ceil(low[1]! - 0.5), 0);
        const x1 = Math.min(Math.floor(high[0]! - 0.5), width - 1), y1 = Math.min(Math.floor(high[1]! - 0.5), height - 1);
        if (x1 < x0 || y1 < y0) return;
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const s = [x + 0.5, y + 0.5];
            const la = area(s, sb, sc) / abc, lb = area(sa, s, sc) / abc, lc = 1 - la - lb;
            if (la < 0 || lb < 0 || lc < 0) continue;
            const depth = la * sa[2] + lb * sb[2] + lc * sc[2];
            if (depth < 0 || depth > 1) continue;
            const key = rasterKey(depth, reversed);
            const pixel = y * width + x;
            if (pass === 0) keys[pixel] = Math.max(keys[pixel]!, key);
            else if (keys[pixel] === key) ids[pixel] = id;
          }
        }
      };
      for (let t = 0; t < triangles; t++) {
        const [a, b, c] = [0, 1, 2].map((k) => clip(first + indices[t * 3 + k]!)) as [Clip, Clip, Clip];
        const id = 1 + instance * triangles + t;
        const inside = [a, b, c].map((v) => v[3] >= EYE_W);
        const count = inside.filter(Boolean).length;
        if (count === 3) drawScreen(a, b, c, id);
        if (count === 0 || count === 3) continue;
        // The lone vertex first, the winding kept.
        const lone = count === 1;
        const at = inside.indexOf(lone);
        const [p, q, r] = [[a, b, c], [b, c, a], [c, a, b]][at]!;
        if (lone) {
          drawScreen(p!, crossing(p!, q!), crossing(p!, r!), id);
        } else {
          const pq = crossing(q!, p!), pr = crossing(r!, p!);
          drawScreen(pq, q!, r!, id);
          drawScreen(pq, r!, pr, id);
        }
      }
    });
  }
  return { keys, ids };
}

// Mesh positions and uvs as 16-bit unsigned normalized integers, the GPU's unorm16: each mesh
// keeps its own range, and the vertex shader maps a value back with one multiply-add from the
// instance's copy of that range. Positions share one scale on all three axes (the largest
// extent of the mesh's box), so the step is the same in every direction and the instance's
// normal matrix needs no change; uvs have a range per axis, so tiling uvs outside [0, 1] keep
// their precision.

/** How a quantised mesh maps back: position = xyz + q * w, with q in [0, 1] per component. */
export type PositionRange = readonly [number, number, number, number];
/** How quantised uvs map back: uv = xy + q * zw, with q in [0, 1] per component. */
export type UvRange = readonly [number, number, number, number];

const UNORM16 = 65535;

/**
 * Positions (xyz triplets) as unorm16x4 (w 0) over their box: the most a position moves is half
 * a step, `extent / 65535 / 2`, on each axis.
 */
export function quantizePositions(positions: Float32Array): { values: Uint16Array; range: PositionRange } {
  const count = positions.length / 3;
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) {
      low[k] = Math.min(low[k]!, positions[v * 3 + k]!);
      high[k] = Math.max(high[k]!, positions[v * 3 + k]!);
    }
  }
  const largest = Math.max(high[0]! - low[0]!, high[1]! - low[1]!, high[2]! - low[2]!);
  // A single point (or an empty box) still needs a nonzero scale.
  const extent = largest > 0 ? largest : 1;
  const values = new Uint16Array(count * 4);
  const scale = UNORM16 / extent;
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) values[v * 4 + k] = Math.min(UNORM16, Math.round((positions[v * 3 + k]! - low[k]!) * scale));
  }
  return { values, range: [low[0]!, low[1]!, low[2]!, extent] };
}

/** Uvs (pairs) as unorm16x2 over their range per axis: the most a uv moves is half a step of that axis's range. */
export function quantizeUvs(uvs: Float32Array): { values: Uint16Array; range: UvRange } {
  const count = uvs.length / 2;
  const low = [Infinity, Infinity], high = [-Infinity, -Infinity];
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 2; k++) {
      low[k] = Math.min(low[k]!, uvs[v * 2 + k]!);
      high[k] = Math.max(high[k]!, uvs[v * 2 + k]!);
    }
  }
  const span = [0, 1].map((k) => (count > 0 && high[k]! > low[k]! ? high[k]! - low[k]! : 1));
  const base = [0, 1].map((k) => (count > 0 ? low[k]! : 0));
  const values = new Uint16Array(count * 2);
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 2; k++) values[v * 2 + k] = Math.min(UNORM16, Math.round(((uvs[v * 2 + k]! - base[k]!) / span[k]!) * UNORM16));
  }
  return { values, range: [base[0]!, base[1]!, span[0]!, span[1]!] };
}

/** Quantised positions (unorm16 xyzw) back to xyz floats. */
export function dequantizePositions(values: Uint16Array, range: PositionRange): Float32Array {
  const count = values.length / 4;
  const out = new Float32Array(count * 3);
  const scale = range[3] / UNORM16;
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) out[v * 3 + k] = range[k]! + values[v * 4 + k]! * scale;
  }
  return out;
}

/** Quantised uvs (unorm16 pairs) back to floats. */
export function dequantizeUvs(values: Uint16Array, range: UvRange): Float32Array {
  const out = new Float32Array(values.length);
  for (let v = 0; v < values.length / 2; v++) {
    out[v * 2] = range[0] + (values[v * 2]! / UNORM16) * range[2];
    out[v * 2 + 1] = range[1] + (values[v * 2 + 1]! / UNORM16) * range[3];
  }
  return out;
}

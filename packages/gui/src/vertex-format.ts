// The one vertex layout every GUI batch uses, 20 bytes: position (2 x f32), uv (2 x unorm16),
// colour (4 x unorm8, RGBA in memory order), clip rectangle index (u16) and page (u8).
// Every object is made of quads of 4 vertices (top-left, top-right, bottom-left,
// bottom-right) drawn through one shared index pattern; a triangle is a quad whose last two
// vertices coincide.

/** 32-bit words per GUI vertex (5): position x, y (f32), uv (unorm16x2), colour (unorm8x4), clip index and page. */
export const VERTEX_WORDS = 5;
/** Bytes per GUI vertex (20). */
export const VERTEX_BYTES = VERTEX_WORDS * 4;
/** 32-bit words per quad of 4 vertices (20). */
export const QUAD_WORDS = 4 * VERTEX_WORDS;
/** Bytes per quad of 4 vertices (80). */
export const QUAD_BYTES = QUAD_WORDS * 4;

/** 0xRRGGBBAA to the little-endian word whose bytes are R, G, B, A. */
export function packColor(rgba: number): number {
  return (((rgba & 0xff) << 24) | (((rgba >>> 8) & 0xff) << 16) | (((rgba >>> 16) & 0xff) << 8) | (rgba >>> 24)) >>> 0;
}

/** Two texture coordinates in [0, 1] as unorm16x2. */
export function packUv(u: number, v: number): number {
  const pu = u <= 0 ? 0 : u >= 1 ? 0xffff : Math.round(u * 0xffff);
  const pv = v <= 0 ? 0 : v >= 1 ? 0xffff : Math.round(v * 0xffff);
  return (pu | (pv << 16)) >>> 0;
}

export function packClipPage(clip: number, page: number): number {
  return ((clip & 0xffff) | ((page & 0xff) << 16)) >>> 0;
}

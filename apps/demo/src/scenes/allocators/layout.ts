// Where each part of the picture goes, in canvas pixels (origin top left): the memory map on
// top, the pool and the free-block histogram side by side below it, the fragmentation graph
// at the bottom, and a strip left free for the demo's status line.

export const MAP_COLUMNS = 128;
export const POOL_COLUMNS = 64;
const MARGIN = 14;
const CAPTION = 22;
const STATUS_LINE = 30;
/** Room right of the memory map for the colour legend. */
const LEGEND_WIDTH = 170;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SceneLayout {
  width: number;
  height: number;
  /** Caption baseline boxes sit CAPTION px above each section. */
  map: Box;
  mapPitch: number;
  /** The colour legend, right of the map: one row per entry. */
  legend: Box;
  pool: Box;
  poolPitch: number;
  bins: Box;
  graph: Box;
  captionHeight: number;
  textSize: number;
}

export function computeLayout(width: number, height: number, mapRows: number, poolRows: number): SceneLayout {
  const textSize = width < 800 ? 11 : 13;
  const inner = width - 2 * MARGIN;
  const usable = height - STATUS_LINE - MARGIN - 3 * CAPTION;
  const mapPitch = Math.max(1, Math.min((inner - LEGEND_WIDTH) / MAP_COLUMNS, (usable * 0.5) / mapRows));
  const map: Box = { x: MARGIN, y: MARGIN + CAPTION, width: mapPitch * MAP_COLUMNS, height: mapPitch * mapRows };
  const legend: Box = { x: map.x + map.width + MARGIN * 1.5, y: map.y, width: LEGEND_WIDTH - MARGIN * 1.5, height: map.height };
  const midTop = map.y + map.height + CAPTION + 8;
  const half = (inner - 2 * MARGIN) / 2;
  const poolPitch = Math.max(1, Math.min(half / POOL_COLUMNS, (usable * 0.22) / poolRows));
  const pool: Box = { x: MARGIN, y: midTop, width: poolPitch * POOL_COLUMNS, height: poolPitch * poolRows };
  const binsX = MARGIN + half + 2 * MARGIN;
  // The histogram leaves a caption's height under it for the bin sizes.
  const bins: Box = { x: binsX, y: midTop, width: inner - (binsX - MARGIN), height: Math.max(pool.height, usable * 0.22) - CAPTION * 0.8 };
  const graphTop = Math.max(pool.y + pool.height, bins.y + bins.height + CAPTION * 0.8) + CAPTION + 8;
  const graph: Box = { x: MARGIN + 40, y: graphTop, width: inner - 40, height: Math.max(20, height - STATUS_LINE - graphTop - 8) };
  return { width, height, map, mapPitch, legend, pool, poolPitch, bins, graph, captionHeight: CAPTION, textSize };
}

export { TileCuller, TILE_INFO_WORDS, type TileCullerOptions, type CullReadback } from './tile-culler.ts';
export { entitiesPerShadedPixel } from './shaded-pixel-stats.ts';
export { cullingShaderModule, resolveWalk, type CullingModuleOptions } from './culling-module.ts';
export { EntityList, type PointLightInput, type SpotLightInput, type BoxInput } from './entity-list.ts';
export { resolveCamera, type CullCamera } from './camera.ts';
export { buildTileGrid, type TileGrid } from './tile-grid.ts';
export { cullReference, entityInTile, tileEntities, GPU_TOLERANCE, type CullReferenceInput, type CullReferenceResult } from './reference/cull.ts';
export { compareTiles, gpuTileEntities, type TileComparison, type TileLayout } from './reference/compare.ts';
export { referenceDepthTiles, linearDepth, type ReferenceTiles } from './reference/depth-tiles.ts';
export { referencePrepare, type PreparedEntity } from './reference/prepare.ts';
export type { CullTimestamps } from './timestamps.ts';
export { GpuCullingError } from './errors.ts';
export {
  COARSE_FACTOR,
  CULL_WALKS,
  DEPTH_MASK_CELLS,
  ENTITY_BYTES,
  ENTITY_KIND,
  SPARSE_WALK_MAX_ENTITIES,
  TECHNIQUES,
  TILE_SIZES,
  type CameraInput,
  type CullMethod,
  type CullWalk,
  type EntityCounts,
  type EntityKind,
  type Mat4,
  type Technique,
  type TileSize,
  type Vec3,
} from './api.ts';
export { perspective, orthographic, lookAt, boxMatrix, type PerspectiveOptions, type OrthographicOptions } from './matrices.ts';
export { CullingHeatmap, type HeatmapOptions } from './heatmap.ts';
export { TiledDeferredShading, type GBuffer, type TiledDeferredOptions } from './tiled-deferred.ts';
export { generateCity, populateCity, seededRandom, BOX_FLOATS, type City, type CityOptions, type CityEntityOptions } from './example/city.ts';
export { generateForest, populateForest, type Forest, type ForestOptions, type ForestEntityOptions } from './example/forest.ts';
export { ForwardPlusBoxes, type ForwardPlusBoxesOptions, type ShadingMode } from './example/forward-plus-boxes.ts';

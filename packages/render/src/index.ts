export { Renderer, type GuiOverlay, type RendererOptions, type RenderTarget } from './renderer.ts';
// The frame graph the Renderer builds each frame, and the user passes that join it.
export { RENDER_POINTS, type RenderPoint, type UserPass, type UserPassContext } from './frame/user-pass.ts';
export { RESOURCES } from './frame/targets.ts';
// What `skinnedRaster: 'auto'` estimates per skinned draw, for benchmarks that tune its threshold.
export { SKINNED_RASTER_AUTO_PIXELS, skinnedTrianglePixels, type SkinnedTriangleSource } from './frame/skinned-raster-auto.ts';
export { FrameGraph, type ImportOptions } from './graph/frame-graph.ts';
export { TransientPool } from './graph/pool.ts';
export { FrameGraphError } from './graph/errors.ts';
export type { PassContext, PassDecl, ResourceAccess, WriteAccess } from './graph/pass.ts';
export type { BufferDesc, BufferUse, ResourceDesc, TextureDesc, TextureUse } from './graph/resources.ts';
export type { CompiledGraph, GraphObject, ResourceInfo } from './graph/compile.ts';
export { RenderScene, INSTANCE_FLOATS, MAX_SHADOW_SPOTS, type SkinnedDraw, type SkinnedDrawInput, type FluidDraw, type FluidDrawInput } from './scene/render-scene.ts';
export { computeTangents, packSnorm8x4 } from './scene/meshes.ts';
export { quantizePositions, quantizeUvs, dequantizePositions, dequantizeUvs, type PositionRange, type UvRange } from './scene/quantize.ts';
export type { BufferRange, RenderSceneOptions, SceneBufferAllocators } from './scene/scene-buffers.ts';
export { RenderError } from './errors.ts';
export {
  PASSES,
  type AlphaMode,
  type CompressedTextureInput,
  type DirectionalLightInput,
  type Mat4,
  type MaterialInput,
  type MeshInput,
  type QuantizedMeshInput,
  type MeshLodInput,
  type PassName,
  type RenderCamera,
  type ShadowSpotInput,
  type TextureInput,
  type TextureOptions,
  type Vec3,
} from './api.ts';
export { boxMesh, planeMesh, sphereMesh } from './scene/shapes.ts';
export { textureFormatInfo, textureLevelByteLength, type CompressedTextureFormat, type TextureFormatInfo } from './scene/texture-formats.ts';
export { loadGlb, addGltfDocument, type GltfLoadOptions, type GltfLoadResult } from './gltf.ts';
export { EcsBinding } from './ecs-sync.ts';
export { buildCourtyard, rippleNormalMap, type Courtyard, type CourtyardOptions } from './example/courtyard.ts';
export { outlinePass, type OutlineOptions } from './example/outline-pass.ts';
export { skyPass, type SkyOptions } from './example/sky-pass.ts';
// SSAO with normals reconstructed from depth (naive or improved).
export { SsaoPass } from './ssao/ssao-pass.ts';
export { NormalReconstructionPass, type NormalReconstructionOptions } from './ssao/normal-reconstruction.ts';
export { reconstructNormalsReference, GPU_DEPTH_TOLERANCE, type NormalsReference, type NormalsReferenceOptions } from './ssao/reference/normals.ts';
export { compareNormals, angleDegrees, type NormalsComparison } from './ssao/reference/compare-normals.ts';
export { ssaoReference, type SsaoReferenceInput, type SsaoReferenceResult } from './ssao/reference/ssao.ts';
export { SSAO_DEFAULTS, type ResolvedSsaoOptions } from './ssao/options.ts';
export {
  NORMAL_METHODS,
  NORMAL_OUTPUT_FORMATS,
  SSAO_DEPTH_FORMATS,
  SSAO_MAX_SAMPLES,
  SSAO_OUTPUT_FORMATS,
  type NormalMethod,
  type NormalReconstructionInput,
  type NormalSpace,
  type SsaoCamera,
  type SsaoOptions,
  type SsaoRunInput,
  type SsaoTimestamps,
} from './ssao/api.ts';

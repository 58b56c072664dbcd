export { Renderer, type GuiOverlay, type RendererOptions, type RenderTarget } from './renderer.ts';
export { RenderScene, INSTANCE_FLOATS, MAX_SHADOW_SPOTS, type SkinnedDraw, type SkinnedDrawInput, type FluidDraw, type FluidDrawInput } from './scene/render-scene.ts';
export { computeTangents } from './scene/meshes.ts';
export { RenderError } from './errors.ts';
export {
  PASSES,
  type AlphaMode,
  type DirectionalLightInput,
  type Mat4,
  type MaterialInput,
  type MeshInput,
  type PassName,
  type RenderCamera,
  type ShadowSpotInput,
  type TextureInput,
  type Vec3,
} from './api.ts';
export { boxMesh, planeMesh, sphereMesh } from './scene/shapes.ts';
export { loadGlb, addGltfDocument, type GltfLoadOptions, type GltfLoadResult } from './gltf.ts';
export { EcsBinding } from './ecs-sync.ts';
export { buildCourtyard, rippleNormalMap, type Courtyard, type CourtyardOptions } from './example/courtyard.ts';

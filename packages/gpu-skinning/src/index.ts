export { buildSkinnedVertices } from './vertex-builder.ts';
export { skinInstanceReference, createSkinnedOutput, type InstanceRange } from './reference/skinning.ts';
export { createSkeleton, createPose, resetPose, type Skeleton, type SkeletonInput, type Pose } from './skeleton.ts';
export { createAnimationClip, sampleClip, type AnimationClip, type AnimationChannel, type AnimationChannelInput, type SampleOptions } from './animation-clip.ts';
export { computePalette, createPaletteScratch, identityPalette, type PaletteOptions, type PaletteScratch } from './palette.ts';
export { GpuSkinningError } from './errors.ts';
export {
  BONE_BYTES,
  BONE_FLOATS,
  BYTES_PER_VERTEX,
  DEFAULT_MAX_VERTICES,
  F32_SKINNED_WORDS,
  F32_VERTEX_WORDS,
  MAX_INFLUENCES,
  MAX_LDS_BONES,
  PACKED_BONES_WORDS,
  PACKED_POSITION_NORMAL_WORDS,
  PREVIOUS_POSITION_FLOATS,
  SKINNING_KERNELS,
  VERTEX_FORMATS,
  type BuildVerticesOptions,
  type ChannelPath,
  type F32SkinnedOutput,
  type F32Vertices,
  type Interpolation,
  type PackedSkinnedOutput,
  type PackedVertices,
  type SkinMode,
  type SkinnedOutput,
  type SkinnedVertexInput,
  type SkinnedVertices,
  type SkinningKernel,
  type VertexBuildReport,
  type VertexFixKind,
  type VertexIssue,
  type VertexRefusalKind,
  type VertexFormat,
  type ZeroWeightPolicy,
} from './api.ts';
export { GpuSkinning, DEFAULT_TUNING, type GpuSkinningOptions, type KernelTuning, type SkinnedMesh, type SkinPalette, type SkinnedInstance } from './gpu-skinning.ts';
export { DispatchTable, type FrameWork } from './dispatch-table.ts';
export { skinnedVertexLayouts } from './vertex-layouts.ts';
export { skinningKernelSource } from './kernel-source.ts';
export type { PassTimestamps } from './timestamps.ts';
export {
  skeletonFromGltf,
  clipFromGltf,
  skinnedVerticesFromGltf,
  type GltfNodeInput,
  type GltfSkinInput,
  type GltfSkeleton,
  type GltfAnimationInput,
  type GltfPrimitiveAttributes,
} from './gltf.ts';
export { createProceduralCharacter, type ProceduralCharacter, type ProceduralCharacterOptions } from './procedural-character.ts';

// Types and layout constants shared by the builders, the references, the GPU kernels and the
// sampler. Byte layouts are spelled out because vertex buffers and WGSL both read them.

/**
 * How skinned vertices are stored.
 * - `'packed'`: the post's layout. Input: position f32x3 + normal snorm8x4 (w = wind weight) in
 *   one 16-byte element, tangent snorm8x4 (4 bytes), bone indices u16x4 + weights unorm16x4
 *   (16 bytes). Output: position + normal (16 bytes) and tangent (4 bytes) in the same encoding.
 * - `'f32'`: plain floats. Input: 80 bytes (position + wind, normal + 0, tangent, joints as
 *   u32x4, weights f32x4); output: 48 bytes (position + wind, normal + wind, tangent).
 */
export type VertexFormat = 'packed' | 'f32';

/** Every {@link VertexFormat}. */
export const VERTEX_FORMATS: readonly VertexFormat[] = ['packed', 'f32'];

/**
 * Where the skinning kernel reads bone matrices from.
 * - `'lds'`: each workgroup first copies its instance's palette (up to 256 bones) into workgroup
 *   memory, one bone per thread, then every vertex reads its bones from there.
 * - `'global'`: every vertex reads its (up to four) bones straight from the palette buffer.
 */
export type SkinningKernel = 'lds' | 'global';

/** Every {@link SkinningKernel}. */
export const SKINNING_KERNELS: readonly SkinningKernel[] = ['lds', 'global'];

/** Floats per bone: a 3x4 matrix, the top three rows of the 4x4 transform, row by row. */
export const BONE_FLOATS = 12;
/** Bytes per bone (three vec4<f32> rows). */
export const BONE_BYTES = 48;
/** The most bones one palette may hold for the LDS kernel (256 x 48 bytes = 12 KiB of workgroup memory). */
export const MAX_LDS_BONES = 256;
/** Influences per vertex the kernels read. */
export const MAX_INFLUENCES = 4;

/** Packed input: 32-bit words per vertex of the position + normal stream. */
export const PACKED_POSITION_NORMAL_WORDS = 4;
/** Packed input: words per vertex of the bone stream (indices u16x4, weights unorm16x4). */
export const PACKED_BONES_WORDS = 4;
/** f32 input: 32-bit words per vertex. */
export const F32_VERTEX_WORDS = 20;
/** f32 output: 32-bit words per skinned vertex. */
export const F32_SKINNED_WORDS = 12;
/** Previous positions: f32x3 per vertex (12 bytes), for both formats. */
export const PREVIOUS_POSITION_FLOATS = 3;

/** Bytes the kernel must read and write per skinned vertex (palette reads excluded). */
export const BYTES_PER_VERTEX: Readonly<Record<VertexFormat, number>> = {
  // read: position+normal 16, tangent 4, bones 16, old position 12; write: 16 + 4 + previous 12
  packed: 16 + 4 + 16 + 12 + 16 + 4 + 12,
  // read: vertex 80, old position 12; write: skinned 48 + previous 12
  f32: 80 + 12 + 48 + 12,
};

/**
 * The most vertices one mesh may have unless `maxVertices` says otherwise: its largest input
 * stream (16 bytes a vertex packed, 80 f32) fits WebGPU's default maxStorageBufferBindingSize
 * of 128 MiB, as every GpuSkinning on a device with default limits needs.
 */
export const DEFAULT_MAX_VERTICES: Readonly<Record<VertexFormat, number>> = {
  packed: Math.floor(2 ** 27 / (PACKED_POSITION_NORMAL_WORDS * 4)),
  f32: Math.floor(2 ** 27 / (F32_VERTEX_WORDS * 4)),
};

/** Ordinary per-vertex arrays, as a glTF mesh's accessors hold them. */
export interface SkinnedVertexInput {
  /** xyz per vertex. */
  positions: ArrayLike<number>;
  /** xyz per vertex; (0, 1, 0) when left out. */
  normals?: ArrayLike<number>;
  /** xyzw per vertex (w = handedness, +-1); (1, 0, 0, 1) when left out. */
  tangents?: ArrayLike<number>;
  /** One value in [0, 1] per vertex, kept in the normal's w (the post's wind weight); 0 when left out. */
  wind?: ArrayLike<number>;
  /** `influencesPerVertex` bone indices per vertex. */
  joints: ArrayLike<number>;
  /**
   * `influencesPerVertex` weights per vertex. Float arrays are taken as they are; Uint8Array
   * and Uint16Array are normalized integers (x / 255, x / 65535), as glTF stores them.
   */
  weights: ArrayLike<number>;
  /** Indices and weights per vertex (4 for JOINTS_0, 8 with JOINTS_1, ...); default joints.length / vertex count. */
  influencesPerVertex?: number;
}

/** What to do with a vertex whose weights are all zero. */
export type ZeroWeightPolicy = 'refuse' | 'first-joint' | 'unskinned';

export const ZERO_WEIGHT_POLICIES: readonly ZeroWeightPolicy[] = ['refuse', 'first-joint', 'unskinned'];

/** Options of `buildSkinnedVertices`. */
export interface BuildVerticesOptions {
  /** The vertex format to build. */
  format: VertexFormat;
  /** Bones in the palette this mesh will be skinned with: a bone index at or past it is refused. */
  paletteSize?: number;
  /**
   * The most vertices the mesh may have, checked from the input's length before anything is read
   * or allocated (default DEFAULT_MAX_VERTICES[format]). Pass your GpuSkinning's maxVertices
   * to refuse a mesh that will not fit it, or more on a device with higher limits.
   */
  maxVertices?: number;
  /**
   * Vertices whose weights are all zero: `'refuse'` (default) throws, `'first-joint'` binds them
   * fully to their first listed joint, `'unskinned'` keeps them (the kernel then leaves them in
   * bind pose, untransformed, as the post's `if (any(inWei))` does).
   */
  zeroWeights?: ZeroWeightPolicy;
}

/** Kinds of problem the vertex builder fixes. */
export type VertexFixKind =
  | 'renormalized-weights'
  | 'dropped-influences'
  | 'merged-duplicate-joints'
  | 'zero-weights-bound-to-first-joint'
  | 'zero-weights-left-unskinned'
  | 'renormalized-normals'
  | 'tangent-handedness'
  | 'clamped-wind';

/** Kinds of problem the vertex builder refuses (it throws GpuSkinningError listing them). */
export type VertexRefusalKind = 'bone-index-past-palette' | 'bad-joint-index' | 'negative-weight' | 'non-finite' | 'zero-weights' | 'zero-normal';

/** One kind of problem found in vertex data: how many vertices had it and the first of them. */
export interface VertexIssue {
  /** What the problem is: one that was fixed, or one that refuses the mesh. */
  kind: VertexFixKind | VertexRefusalKind;
  /** Vertices that had it. */
  vertices: number;
  /** Index of the first of them. */
  firstVertex: number;
  /** The first one's problem in words (the bad value, the bone index). */
  detail: string;
}

/** What `buildSkinnedVertices` changed. */
export interface VertexBuildReport {
  /** Vertices built. */
  vertexCount: number;
  /** Largest number of non-zero influences any vertex had before trimming to four. */
  maxInfluences: number;
  /** Highest bone index used, plus one: the smallest palette that skins this mesh. */
  bonesUsed: number;
  /** Problems that were fixed, one entry per kind (empty for clean data). */
  fixed: VertexIssue[];
}

/** Packed vertices on the host, in the exact bytes the GPU reads. */
export interface PackedVertices {
  /** Always `'packed'`. */
  format: 'packed';
  /** Vertices held. */
  vertexCount: number;
  /** Highest bone index used, plus one. */
  bonesUsed: number;
  /** 4 words per vertex: position x, y, z as f32 bits, then the normal as snorm8x4 (w = wind). */
  positionNormal: Uint32Array<ArrayBuffer>;
  /** 1 word per vertex: tangent as snorm8x4 (w = handedness). */
  tangent: Uint32Array<ArrayBuffer>;
  /**
   * 4 words per vertex, each two 16-bit halves (low, high): bone indices 0 and 1, bone indices 2
   * and 3, weights 0 and 1, weights 2 and 3 (as unorm16).
   */
  bones: Uint32Array<ArrayBuffer>;
}

/** f32 vertices on the host: F32_VERTEX_WORDS words per vertex, viewed as floats and as words. */
export interface F32Vertices {
  /** Always `'f32'`. */
  format: 'f32';
  /** Vertices held. */
  vertexCount: number;
  /** Highest bone index used, plus one. */
  bonesUsed: number;
  /** Per vertex: position xyz, wind, normal xyz, 0, tangent xyzw, joints (as words), weights. */
  floats: Float32Array<ArrayBuffer>;
  /** The same memory as `floats`, for the joint indices. */
  words: Uint32Array<ArrayBuffer>;
}

/** Vertices built by `buildSkinnedVertices`, in either format. */
export type SkinnedVertices = PackedVertices | F32Vertices;

/** Skinned output of one range of vertices on the host, in the GPU's bytes. */
export interface PackedSkinnedOutput {
  /** Always `'packed'`. */
  format: 'packed';
  /** 4 words per vertex: skinned position x, y, z as f32 bits, then the normal as snorm8x4 (w = wind). */
  positionNormal: Uint32Array<ArrayBuffer>;
  /** 1 word per vertex: skinned tangent as snorm8x4 (w = handedness). */
  tangent: Uint32Array<ArrayBuffer>;
  /** Previous frame's positions, xyz per vertex (for motion vectors). */
  previous: Float32Array<ArrayBuffer>;
}

/** Skinned output of one range of vertices on the host in the `'f32'` format. */
export interface F32SkinnedOutput {
  /** Always `'f32'`. */
  format: 'f32';
  /** F32_SKINNED_WORDS floats per vertex: position + wind, normal + wind, tangent. */
  vertices: Float32Array<ArrayBuffer>;
  /** Previous frame's positions, xyz per vertex (for motion vectors). */
  previous: Float32Array<ArrayBuffer>;
}

/** Skinned output on the host, in either format. */
export type SkinnedOutput = PackedSkinnedOutput | F32SkinnedOutput;

/**
 * What one skinning pass does to an instance.
 * - `'skin'`: previous = the position the output held, then write the new skinned vertex.
 * - `'reset'`: write the new skinned vertex and previous = that same position (first frame,
 *   teleport: no false motion).
 * - `'hold'`: no skinning; previous = the position the output holds (a skipped LOD frame: the
 *   drawn mesh did not move since the last frame).
 */
export type SkinMode = 'skin' | 'reset' | 'hold';

/** glTF animation interpolation modes. */
export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

/** Which part of a joint's local transform a channel animates. */
export type ChannelPath = 'translation' | 'rotation' | 'scale';

// How a plain vertex shader reads the skinned output: the pass after skinning binds these
// buffers like any static mesh's.
import { F32_SKINNED_WORDS, type VertexFormat } from './api.ts';

/**
 * Vertex buffer layouts for drawing skinned output, in the order of `GpuSkinning.vertexBuffers`.
 * Locations from `firstLocation` (default 0): position, normal (w = wind), tangent, previous
 * position. Packed normals and tangents arrive as snorm8x4, already unpacked to floats.
 */
export function skinnedVertexLayouts(format: VertexFormat, firstLocation = 0): GPUVertexBufferLayout[] {
  const l = firstLocation;
  const previous: GPUVertexBufferLayout = { arrayStride: 12, attributes: [{ shaderLocation: l + 3, offset: 0, format: 'float32x3' }] };
  if (format === 'packed') {
    return [
      {
        arrayStride: 16,
        attributes: [
          { shaderLocation: l, offset: 0, format: 'float32x3' },
          { shaderLocation: l + 1, offset: 12, format: 'snorm8x4' },
        ],
      },
      { arrayStride: 4, attributes: [{ shaderLocation: l + 2, offset: 0, format: 'snorm8x4' }] },
      previous,
    ];
  }
  return [
    {
      arrayStride: F32_SKINNED_WORDS * 4,
      attributes: [
        { shaderLocation: l, offset: 0, format: 'float32x3' },
        { shaderLocation: l + 1, offset: 16, format: 'float32x4' },
        { shaderLocation: l + 2, offset: 32, format: 'float32x4' },
      ],
    },
    previous,
  ];
}

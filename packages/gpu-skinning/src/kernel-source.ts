// Assembles a skinning kernel's WGSL from its three parts: the shared table and arithmetic,
// the vertex format, and where bones come from.
import type { SkinningKernel, VertexFormat } from './api.ts';
import common from './shaders/common.wgsl?raw';
import f32 from './shaders/f32.wgsl?raw';
import globalBones from './shaders/global.wgsl?raw';
import ldsBones from './shaders/lds.wgsl?raw';
import packed from './shaders/packed.wgsl?raw';

/** The WGSL of one skinning kernel: the shared table and arithmetic, the vertex format's part and the bone source's part. */
export function skinningKernelSource(format: VertexFormat, kernel: SkinningKernel): string {
  return [common, format === 'packed' ? packed : f32, kernel === 'lds' ? ldsBones : globalBones].join('\n');
}

/** Storage buffers one kernel binds: table, palette, and the format's inputs and outputs. */
export const STORAGE_BUFFERS: Readonly<Record<VertexFormat, number>> = { packed: 8, f32: 5 };

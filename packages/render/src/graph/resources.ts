// What a frame graph's resources are: textures and buffers described by value, so two
// transient resources with the same description and lifetimes that do not overlap can share
// one GPU object (WebGPU has no memory aliasing: reuse is by descriptor).

/** How a pass uses a texture; the union of a transient texture's uses becomes its usage flags. */
export type TextureUse = 'sampled' | 'storage' | 'attachment' | 'copy-src' | 'copy-dst';
/** How a pass uses a buffer. */
export type BufferUse = 'uniform' | 'storage' | 'vertex' | 'index' | 'indirect' | 'copy-src' | 'copy-dst';

/** GPUTextureUsage bits of each texture use (numbers, so the graph compiles without a GPU). */
export const TEXTURE_USE_FLAGS: Readonly<Record<TextureUse, number>> = { 'copy-src': 0x01, 'copy-dst': 0x02, sampled: 0x04, storage: 0x08, attachment: 0x10 };
/** GPUBufferUsage bits of each buffer use. */
export const BUFFER_USE_FLAGS: Readonly<Record<BufferUse, number>> = { 'copy-src': 0x04, 'copy-dst': 0x08, index: 0x10, vertex: 0x20, uniform: 0x40, storage: 0x80, indirect: 0x100 };

/** The usage flags of an object of `desc` used in `uses`. */
export function usageFlags(desc: ResourceDesc, uses: Iterable<string>): number {
  const table: Readonly<Record<string, number>> = desc.kind === 'texture' ? TEXTURE_USE_FLAGS : BUFFER_USE_FLAGS;
  let flags = 0;
  for (const use of uses) flags |= table[use] ?? 0;
  return flags;
}

/** The uses an object of `kind` with `usage` flags allows. */
export function usesAllowed(kind: ResourceDesc['kind'], usage: number): Set<string> {
  const table: Readonly<Record<string, number>> = kind === 'texture' ? TEXTURE_USE_FLAGS : BUFFER_USE_FLAGS;
  return new Set(Object.keys(table).filter((use) => (usage & table[use]!) !== 0));
}

/** A texture of the frame graph, described by value: transient textures of one description can share a GPU texture. */
export interface TextureDesc {
  /** Always `'texture'`. */
  kind: 'texture';
  /** Width in texels. */
  width: number;
  /** Height in texels. */
  height: number;
  /** Array layers (default 1). */
  layers?: number;
  /** Texel format. */
  format: GPUTextureFormat;
  /** Mip levels (default 1). */
  mipLevelCount?: number;
}

/** A buffer of the frame graph, described by value. */
export interface BufferDesc {
  /** Always `'buffer'`. */
  kind: 'buffer';
  /** Bytes. */
  size: number;
}

/** A frame graph resource's description: a texture or a buffer. */
export type ResourceDesc = TextureDesc | BufferDesc;

/** Bytes per texel of the formats the renderer and its users create (4 for others not listed). */
const TEXEL_BYTES: Partial<Record<GPUTextureFormat, number>> = {
  r8unorm: 1, r8uint: 1, rg8unorm: 2, r16float: 2, r16uint: 2,
  r32float: 4, r32uint: 4, r32sint: 4, rg16float: 4, rgba8unorm: 4, 'rgba8unorm-srgb': 4, bgra8unorm: 4, 'bgra8unorm-srgb': 4, rgb10a2unorm: 4, rg11b10ufloat: 4,
  depth32float: 4, depth24plus: 4, 'depth24plus-stencil8': 4,
  rg32float: 8, rg32uint: 8, rgba16float: 8, rgba16uint: 8,
  rgba32float: 16, rgba32uint: 16,
};

/** Bytes of GPU memory a resource of `desc` takes (texels times texel size, every mip level). */
export function resourceBytes(desc: ResourceDesc): number {
  if (desc.kind === 'buffer') return desc.size;
  const texel = TEXEL_BYTES[desc.format] ?? 4;
  let bytes = 0;
  for (let level = 0, w = desc.width, h = desc.height; level < (desc.mipLevelCount ?? 1); level++, w = Math.max(1, w >> 1), h = Math.max(1, h >> 1)) bytes += w * h * texel;
  return bytes * (desc.layers ?? 1);
}

/** A key equal for resources of one description (one GPU object can serve them, its usage the union of their uses). */
export function descriptorKey(desc: ResourceDesc): string {
  if (desc.kind === 'buffer') return `buffer ${desc.size}`;
  return `texture ${desc.width}x${desc.height}x${desc.layers ?? 1} ${desc.format} mips ${desc.mipLevelCount ?? 1}`;
}

/** Checks a description's numbers; returns a problem or undefined. */
export function descriptionProblem(desc: ResourceDesc): string | undefined {
  const positive = (value: number | undefined): boolean => value === undefined || (Number.isInteger(value) && value > 0);
  if (desc.kind === 'buffer') return positive(desc.size) && desc.size % 4 === 0 ? undefined : `a buffer's size must be a positive multiple of 4 bytes, got ${desc.size}`;
  if (!positive(desc.width) || !positive(desc.height) || !positive(desc.layers) || !positive(desc.mipLevelCount)) return `a texture's width, height, layers and mip levels must be positive integers, got ${desc.width}x${desc.height}x${desc.layers ?? 1}, ${desc.mipLevelCount ?? 1} levels`;
  return undefined;
}

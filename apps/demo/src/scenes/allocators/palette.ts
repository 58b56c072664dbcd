// The scene's colours (r, g, b floats for InstancedQuads) and the legend that names them.

/** r, g, b per block class: small, medium, large, pool chunk. */
export const CLASS_COLORS = new Float32Array([0.25, 0.8, 0.72, 0.97, 0.72, 0.25, 0.88, 0.36, 0.64, 0.36, 0.52, 0.98]);
export const FREE = [0.12, 0.13, 0.18] as const;
export const LARGEST_FREE = [0.13, 0.36, 0.22] as const;
export const BAR = [0.62, 0.68, 0.82] as const;
export const BAR_LARGEST = [0.3, 0.75, 0.45] as const;

/** The legend beside the memory map, top to bottom. */
export const LEGEND: readonly { label: string; rgb: readonly number[] }[] = [
  { label: 'small, 16 B to 256 B', rgb: [...CLASS_COLORS.subarray(0, 3)] },
  { label: 'medium, up to 4 KiB', rgb: [...CLASS_COLORS.subarray(3, 6)] },
  { label: 'large, up to 32 KiB', rgb: [...CLASS_COLORS.subarray(6, 9)] },
  { label: 'the pool\'s chunk', rgb: [...CLASS_COLORS.subarray(9, 12)] },
  { label: 'free', rgb: FREE },
  { label: 'largest free block', rgb: LARGEST_FREE },
];

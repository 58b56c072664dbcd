// Reading glTF accessors and checking triangle lists (gltf-transform's documents).
import type { Accessor } from '@gltf-transform/core';
import type { CompileContext } from './context.ts';

/** An accessor's array (gltf-transform's union names Float16Array, which lib ES2022 lacks). */
export function arrayOf(accessor: Accessor | null): ArrayLike<number> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- see above
  return accessor ? accessor.getArray() ?? [] : [];
}

/** The accessor's elements as floats, `size` components each (normalized integers are denormalized). */
export function elements(accessor: Accessor, size: number): Float32Array {
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  const element: number[] = [];
  for (let i = 0; i < count; i++) out.set(accessor.getElement(i, element).slice(0, size), i * size);
  return out;
}

/**
 * Fails the compile when a primitive's triangle list is not whole triangles or names a vertex it
 * does not have: meshoptimizer and the GPU would read past the vertex data.
 */
export function checkTriangles(ctx: CompileContext, list: ArrayLike<number>, vertexCount: number, where: string): void {
  if (list.length % 3 !== 0) ctx.fail([], `${where} has ${list.length} indices, not whole triangles`, 'Export the mesh triangulated');
  for (let i = 0; i < list.length; i++) {
    const v = list[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= vertexCount) ctx.fail([], `${where} names vertex ${v} at index ${i}, but it has ${vertexCount} vertices (the file is damaged)`, 'Export the mesh again');
  }
}

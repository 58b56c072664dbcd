/** A point or direction. */
export type Vec3 = readonly [number, number, number];

/** A 4x4 matrix in column-major order (WebGPU, glTF): `m[column * 4 + row]`. */
export type Mat4 = ArrayLike<number>;

// A 20 x 20 quad in the z = 0 plane facing +z, u running with x: the surface the material
// render tests (metallic-roughness, emissive and occlusion textures) look at head on.
import { staticGlb } from '../sample-tools/gltf-writers.ts';

export function texturedQuadGlb(): Promise<Uint8Array> {
  const positions = new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]);
  const normals = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  const uvs = new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]);
  return staticGlb({ mesh: { positions, normals, uvs, indices: new Uint32Array([0, 1, 2, 0, 2, 3]) } });
}

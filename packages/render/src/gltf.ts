// glTF 2.0 into a RenderScene through @gltf-transform/core: every triangle primitive of every
// node becomes a mesh instance at the node's world matrix; materials (metallic-roughness, normal
// maps, alpha modes, double-sidedness, emission, occlusion) and their textures come along. Skinned
// primitives are left to @cuttle/gpu-skinning's loaders and RenderScene.addSkinned.
import { WebIO, type Accessor, type Document, type Material as GltfMaterial, type Primitive, type Texture } from '@gltf-transform/core';
import { decodePng } from '@cuttle/gui';
import type { Mat4, MaterialInput, TextureInput } from './api.ts';
import { RenderError } from './errors.ts';
import type { RenderScene } from './scene/render-scene.ts';

/** Options of the glTF loaders. */
export interface GltfLoadOptions {
  /**
   * Decodes an image of the file (PNG or JPEG bytes) into a texture. Default: the browser's
   * createImageBitmap where there is one, else PNG in plain TypeScript (`@cuttle/gui`); JPEG in
   * Node needs a decoder of yours.
   */
  decodeImage?: (bytes: Uint8Array<ArrayBuffer>, mimeType: string) => Promise<TextureInput>;
  /** A matrix above the file's root nodes (placement in your world). */
  transform?: Mat4;
}

/** What a glTF loader added to the scene. */
export interface GltfLoadResult {
  /** The scene instances made, in node order. */
  instances: number[];
  /** Meshes added (one per triangle primitive, shared by its instances). */
  meshes: number;
  /** Materials added. */
  materials: number;
  /** Textures added. */
  textures: number;
  /** What was not loaded, and why (points and lines, skinned primitives, missing positions). */
  skipped: string[];
}

const TRIANGLES = 4;

async function defaultDecode(bytes: Uint8Array<ArrayBuffer>, mimeType: string): Promise<TextureInput> {
  if (typeof createImageBitmap === 'function' && typeof Blob === 'function' && typeof window !== 'undefined') {
    return createImageBitmap(new Blob([bytes], { type: mimeType }), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  }
  if (mimeType !== 'image/png') throw new RenderError(`cannot decode a ${mimeType} texture here: pass options.decodeImage (for example with an image library), or convert the file's textures to PNG.`);
  const image = await decodePng(bytes);
  if (image.channels === 4) return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
  const rgba = new Uint8Array(image.width * image.height * 4);
  for (let i = 0; i < image.width * image.height; i++) rgba.set([image.data[i]!, image.data[i]!, image.data[i]!, 255], i * 4);
  return { width: image.width, height: image.height, data: rgba };
}

/** An accessor's array (gltf-transform types it with Float16Array, which TypeScript's ES2022 library lacks). */
function arrayOf(accessor: Accessor): ArrayLike<number> | null {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the library's union names Float16Array, unknown to lib ES2022
  return accessor.getArray();
}

function floats(primitive: Primitive, semantic: string, components: number): Float32Array | undefined {
  const accessor = primitive.getAttribute(semantic);
  if (!accessor) return undefined;
  const count = accessor.getCount();
  const array = arrayOf(accessor);
  if (array instanceof Float32Array && accessor.getElementSize() === components && !accessor.getNormalized()) return Float32Array.from(array);
  // Quantized or normalized integers: decoded element by element.
  const out = new Float32Array(count * components);
  const element: number[] = [];
  for (let i = 0; i < count; i++) out.set(accessor.getElement(i, element).slice(0, components), i * components);
  return out;
}

/** Per-vertex normals from the triangles (area-weighted) when the file has none. */
function smoothNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const e1 = [0, 1, 2].map((k) => positions[b * 3 + k]! - positions[a * 3 + k]!);
    const e2 = [0, 1, 2].map((k) => positions[c * 3 + k]! - positions[a * 3 + k]!);
    const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) normals[v * 3 + k]! += n[k]!;
  }
  for (let v = 0; v < normals.length; v += 3) {
    const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!) || 1;
    normals[v]! /= length;
    normals[v + 1]! /= length;
    normals[v + 2]! /= length;
  }
  return normals;
}

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) out[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
  return out;
}

/** Reads a GLB file (bytes) and adds it to `scene`. */
export async function loadGlb(scene: RenderScene, glb: Uint8Array, options: GltfLoadOptions = {}): Promise<GltfLoadResult> {
  let document: Document;
  try {
    document = await new WebIO().readBinary(new Uint8Array(glb));
  } catch (error) {
    throw new RenderError(`not a readable GLB file: ${error instanceof Error ? error.message : String(error)}`);
  }
  return addGltfDocument(scene, document, options);
}

/** Adds a glTF document (read with any `@gltf-transform/core` I/O) to `scene`. */
export async function addGltfDocument(scene: RenderScene, document: Document, options: GltfLoadOptions = {}): Promise<GltfLoadResult> {
  const decode = options.decodeImage ?? defaultDecode;
  const root = document.getRoot();
  const skipped: string[] = [];
  // Colour textures are sRGB; data textures (normals, metallic-roughness, occlusion) linear.
  const srgb = new Set<Texture>();
  const normals = new Set<Texture>();
  for (const material of root.listMaterials()) {
    const base = material.getBaseColorTexture();
    const emissive = material.getEmissiveTexture();
    const normal = material.getNormalTexture();
    if (base) srgb.add(base);
    if (emissive) srgb.add(emissive);
    if (normal) normals.add(normal);
  }
  const textures = new Map<Texture, number>();
  for (const texture of root.listTextures()) {
    const image = texture.getImage();
    if (!image) {
      skipped.push(`texture "${texture.getName()}": no image data (external URI not resolved)`);
      continue;
    }
    // Mip levels of a normal map are renormalized (one used as colour too is filtered as colour).
    textures.set(texture, scene.addTexture(await decode(image, texture.getMimeType()), { srgb: srgb.has(texture), normalMap: !srgb.has(texture) && normals.has(texture) }));
  }
  const textureId = (texture: Texture | null): number | undefined => (texture ? textures.get(texture) : undefined);
  const materials = new Map<GltfMaterial | null, number>();
  const materialFor = (material: GltfMaterial | null): number => {
    let id = materials.get(material);
    if (id !== undefined) return id;
    const input: MaterialInput = material
      ? {
          baseColor: material.getBaseColorFactor(),
          metallic: material.getMetallicFactor(),
          roughness: material.getRoughnessFactor(),
          normalScale: material.getNormalScale(),
          emissive: material.getEmissiveFactor(),
          alphaMode: material.getAlphaMode() === 'MASK' ? 'mask' : material.getAlphaMode() === 'BLEND' ? 'blend' : 'opaque',
          alphaCutoff: material.getAlphaCutoff(),
          doubleSided: material.getDoubleSided(),
          ...(textureId(material.getBaseColorTexture()) !== undefined ? { baseColorTexture: textureId(material.getBaseColorTexture())! } : {}),
          ...(textureId(material.getMetallicRoughnessTexture()) !== undefined ? { metallicRoughnessTexture: textureId(material.getMetallicRoughnessTexture())! } : {}),
          ...(textureId(material.getNormalTexture()) !== undefined ? { normalTexture: textureId(material.getNormalTexture())! } : {}),
          ...(textureId(material.getEmissiveTexture()) !== undefined ? { emissiveTexture: textureId(material.getEmissiveTexture())! } : {}),
          // glTF's "ORM" packing names one texture here and as metallic-roughness: the same id twice.
          ...(textureId(material.getOcclusionTexture()) !== undefined ? { occlusionTexture: textureId(material.getOcclusionTexture())!, occlusionStrength: material.getOcclusionStrength() } : {}),
        }
      : { baseColor: [0.8, 0.8, 0.8, 1], roughness: 0.8 };
    id = scene.addMaterial(input);
    materials.set(material, id);
    return id;
  };
  const meshes = new Map<Primitive, number>();
  const meshFor = (primitive: Primitive, where: string): number | undefined => {
    const known = meshes.get(primitive);
    if (known !== undefined) return known;
    if (primitive.getMode() !== TRIANGLES) {
      skipped.push(`${where}: mode ${primitive.getMode()} (only triangles are drawn)`);
      return undefined;
    }
    if (primitive.getAttribute('JOINTS_0')) {
      skipped.push(`${where}: skinned (load it with @cuttle/gpu-skinning's loaders and RenderScene.addSkinned)`);
      return undefined;
    }
    const positions = floats(primitive, 'POSITION', 3);
    if (!positions) {
      skipped.push(`${where}: no POSITION`);
      return undefined;
    }
    const indexAccessor = primitive.getIndices();
    const indices = indexAccessor ? Uint32Array.from(arrayOf(indexAccessor) ?? []) : Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);
    const normals = floats(primitive, 'NORMAL', 3) ?? smoothNormals(positions, indices);
    const uvs = floats(primitive, 'TEXCOORD_0', 2);
    const tangents = floats(primitive, 'TANGENT', 4);
    const id = scene.addMesh({ positions, normals, indices, ...(uvs ? { uvs } : {}), ...(tangents ? { tangents } : {}) });
    meshes.set(primitive, id);
    return id;
  };
  const rootTransform = options.transform ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const instances: number[] = [];
  root.listNodes().forEach((node, n) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const world = multiply(rootTransform, node.getWorldMatrix());
    mesh.listPrimitives().forEach((primitive, p) => {
      const id = meshFor(primitive, `node ${n} "${node.getName()}" primitive ${p}`);
      if (id !== undefined) instances.push(scene.addInstance(id, materialFor(primitive.getMaterial()), world));
    });
  });
  return { instances, meshes: meshes.size, materials: materials.size, textures: textures.size, skipped };
}

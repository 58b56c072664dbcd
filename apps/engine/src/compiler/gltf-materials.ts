// A static GLB's own materials: each glTF metallic-roughness material its triangles use, with
// its base colour, metallic-roughness, normal, emissive and occlusion textures compiled from the
// embedded images through the same path as the png resources (colour and emission: ETC1S sRGB;
// metallic-roughness and occlusion data, normal map: UASTC linear). An image used several ways
// is compiled once per usage, so an ORM image (occlusion, roughness, metallic) named as both
// occlusion and metallic-roughness is one texture. What would render wrong is refused, naming
// the material: a texture read through another uv set than TEXCOORD_0, a KHR_texture_transform,
// an image that is not embedded or does not decode.
import type { Material, Texture, TextureInfo } from '@gltf-transform/core';
import type { SectionArray } from '../runtime/container.ts';
import type { MeshMaterialMeta, TextureMeta } from '../runtime/formats.ts';
import { compileRgba } from '../textures/compile-rgba.ts';
import { decodeImage, ImageDecodeError } from '../textures/decode-image.ts';
import type { TextureUsage } from '../textures/texture-usage.ts';
import type { CompileContext } from './context.ts';
import { textureInfoExtensions, type GlbJson } from './glb-json.ts';
import { previousTextures, textureSourceKey, type PreviousTexture } from './previous-textures.ts';

export interface GltfMaterials {
  materials: MeshMaterialMeta[];
  textures: TextureMeta[];
  /** `texture<i>`: the i-th texture's KTX2 (or RGBA8 draft). */
  sections: Record<string, SectionArray>;
}

/** How a material is named in messages: its glTF name and index. */
export function materialLabel(material: Material, index: number): string {
  const name = material.getName();
  return name ? `material "${name}" (glTF material ${index})` : `glTF material ${index}`;
}

/**
 * Compiles `used` (the materials the triangles name, in glTF order); `indexOf` gives each one's
 * glTF index. Returns them in the same order.
 */
export async function compileGltfMaterials(ctx: CompileContext, used: readonly Material[], indexOf: (m: Material) => number, images: readonly Texture[], json: GlbJson | undefined): Promise<GltfMaterials> {
  const out: GltfMaterials = { materials: [], textures: [], sections: {} };
  const compiled = new Map<string, number>();
  let previous: Map<string, PreviousTexture> | undefined;
  const add = (key: string, meta: TextureMeta, data: Uint8Array): number => {
    const index = out.textures.length;
    out.textures.push(meta);
    out.sections[`texture${index}`] = data;
    compiled.set(key, index);
    return index;
  };
  const texture = async (label: string, slot: string, image: Texture | null, info: TextureInfo | null, usage: TextureUsage): Promise<number | undefined> => {
    if (!image) return undefined;
    const imageIndex = images.indexOf(image);
    const where = `${label}: its ${slot} (image ${imageIndex}${image.getName() ? ` "${image.getName()}"` : ''})`;
    if (info && info.getTexCoord() !== 0) ctx.fail([], `${where} is read through TEXCOORD_${info.getTexCoord()}; this compiler reads TEXCOORD_0 only`, 'Re-export the mesh with that texture on the first uv set');
    const key = `${imageIndex}:${usage}`;
    const known = compiled.get(key);
    if (known !== undefined) return known;
    const bytes = image.getImage();
    if (!bytes) return ctx.fail([], `${where} is not embedded in the GLB`, 'Export the GLB with its images embedded');
    const source = textureSourceKey(bytes, usage, ctx.textureDraft);
    previous ??= previousTextures(ctx.previousOutput());
    const reused = previous.get(source);
    if (reused) return add(key, reused.meta, reused.data);
    let decoded;
    try {
      decoded = await decodeImage(bytes, image.getMimeType());
    } catch (error) {
      if (error instanceof ImageDecodeError) return ctx.fail([], `${where} ${error.message}`, 'Fix or replace the image in the source file and export the GLB again; the previous output is kept until it compiles');
      throw error;
    }
    const result = await compileRgba(decoded.rgba, decoded.width, decoded.height, usage, ctx.textureDraft);
    return add(key, { ...result.meta, source }, result.data);
  };
  for (const material of used) {
    const gltfIndex = indexOf(material);
    const label = materialLabel(material, gltfIndex);
    const extensions = textureInfoExtensions(json, gltfIndex);
    if (extensions.length > 0) ctx.fail([], `${label} uses ${extensions.join(', ')} on a texture, which this compiler does not apply`, 'Bake the texture transform into the uvs (or remove it) and export again');
    const [r, g, b, a] = material.getBaseColorFactor();
    const [er, eg, eb] = material.getEmissiveFactor();
    const meta: MeshMaterialMeta = {
      name: material.getName() || `material ${gltfIndex}`,
      baseColor: [r, g, b, a],
      metallic: material.getMetallicFactor(),
      roughness: material.getRoughnessFactor(),
      emissive: [er, eg, eb],
      alphaMode: material.getAlphaMode() === 'BLEND' ? 'blend' : material.getAlphaMode() === 'MASK' ? 'mask' : 'opaque',
      alphaCutoff: material.getAlphaCutoff(),
      normalScale: material.getNormalScale(),
      doubleSided: material.getDoubleSided(),
    };
    const baseColorTexture = await texture(label, 'base colour texture', material.getBaseColorTexture(), material.getBaseColorTextureInfo(), 'color');
    const normalTexture = await texture(label, 'normal texture', material.getNormalTexture(), material.getNormalTextureInfo(), 'normal');
    const metallicRoughnessTexture = await texture(label, 'metallic-roughness texture', material.getMetallicRoughnessTexture(), material.getMetallicRoughnessTextureInfo(), 'data');
    const emissiveTexture = await texture(label, 'emissive texture', material.getEmissiveTexture(), material.getEmissiveTextureInfo(), 'color');
    const occlusionTexture = await texture(label, 'occlusion texture', material.getOcclusionTexture(), material.getOcclusionTextureInfo(), 'data');
    if (baseColorTexture !== undefined) meta.baseColorTexture = baseColorTexture;
    if (metallicRoughnessTexture !== undefined) meta.metallicRoughnessTexture = metallicRoughnessTexture;
    if (normalTexture !== undefined) meta.normalTexture = normalTexture;
    if (emissiveTexture !== undefined) meta.emissiveTexture = emissiveTexture;
    if (occlusionTexture !== undefined) {
      meta.occlusionTexture = occlusionTexture;
      meta.occlusionStrength = material.getOcclusionStrength();
    }
    out.materials.push(meta);
  }
  return out;
}

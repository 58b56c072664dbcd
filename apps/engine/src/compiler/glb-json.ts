// The JSON chunk of a GLB, read directly: gltf-transform drops extensions it has not been given,
// so what it would silently lose (a KHR_texture_transform, say) is looked up here instead.
import * as v from 'valibot';

const TEXTURE_INFO = v.looseObject({ extensions: v.optional(v.record(v.string(), v.unknown())) });
const GLTF_JSON = v.looseObject({
  materials: v.optional(v.array(v.looseObject({
    pbrMetallicRoughness: v.optional(v.looseObject({ baseColorTexture: v.optional(TEXTURE_INFO), metallicRoughnessTexture: v.optional(TEXTURE_INFO) })),
    normalTexture: v.optional(TEXTURE_INFO),
    emissiveTexture: v.optional(TEXTURE_INFO),
    occlusionTexture: v.optional(TEXTURE_INFO),
  }))),
});

export type GlbJson = v.InferOutput<typeof GLTF_JSON>;

/** The GLB's JSON, or undefined when `bytes` has no JSON chunk of this shape (the reader then says why). */
export function readGlbJson(bytes: Uint8Array): GlbJson | undefined {
  if (bytes.length < 20) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a || 20 + length > bytes.length) return undefined;
  try {
    const parsed = v.safeParse(GLTF_JSON, JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** Extensions on the texture infos of glTF material `index` that this compiler reads (base colour, metallic-roughness, normal, emissive, occlusion). */
export function textureInfoExtensions(json: GlbJson | undefined, index: number): string[] {
  const material = json?.materials?.[index];
  const infos = [material?.pbrMetallicRoughness?.baseColorTexture, material?.pbrMetallicRoughness?.metallicRoughnessTexture, material?.normalTexture, material?.emissiveTexture, material?.occlusionTexture];
  return [...new Set(infos.flatMap((info) => Object.keys(info?.extensions ?? {})))];
}

// material: glTF's metallic-roughness parameters and texture references → a small container.
import type { MaterialMeta } from '../../runtime/formats.ts';
import { writeContainer } from '../../runtime/container.ts';
import { validate, type CompileContext } from '../context.ts';
import { MATERIAL_SOURCE } from '../schemas.ts';

export function compileMaterial(ctx: CompileContext): Uint8Array {
  const src = validate(ctx, MATERIAL_SOURCE, ctx.document());
  if (src.caustics && src.alpha_mode !== 'blend') ctx.fail(['caustics'], 'caustics are set on a material that is not blended', 'Set alpha_mode = "blend" (water) or remove caustics');
  if (src.base_color_texture !== undefined) ctx.requireResource('png', src.base_color_texture, ['base_color_texture']);
  if (src.normal_texture !== undefined) ctx.requireResource('png', src.normal_texture, ['normal_texture']);
  if (src.metallic_roughness_texture !== undefined) ctx.requireResource('png', src.metallic_roughness_texture, ['metallic_roughness_texture']);
  if (src.emissive_texture !== undefined) ctx.requireResource('png', src.emissive_texture, ['emissive_texture']);
  if (src.occlusion_texture !== undefined) ctx.requireResource('png', src.occlusion_texture, ['occlusion_texture']);
  if (src.occlusion_strength !== undefined && src.occlusion_texture === undefined) ctx.fail(['occlusion_strength'], 'occlusion_strength is set on a material without an occlusion_texture', 'Add occlusion_texture = "textures/x" or remove occlusion_strength');
  const meta: MaterialMeta = {
    baseColor: src.base_color,
    metallic: src.metallic ?? 0,
    roughness: src.roughness ?? 0.8,
    emissive: src.emissive ?? [0, 0, 0],
    alphaMode: src.alpha_mode ?? 'opaque',
    alphaCutoff: src.alpha_cutoff ?? 0.5,
    normalScale: src.normal_scale ?? 1,
    doubleSided: src.double_sided ?? false,
    caustics: src.caustics ?? false,
    ...(src.base_color_texture === undefined ? {} : { baseColorTexture: src.base_color_texture }),
    ...(src.normal_texture === undefined ? {} : { normalTexture: src.normal_texture }),
    ...(src.metallic_roughness_texture === undefined ? {} : { metallicRoughnessTexture: src.metallic_roughness_texture }),
    ...(src.emissive_texture === undefined ? {} : { emissiveTexture: src.emissive_texture }),
    ...(src.occlusion_texture === undefined ? {} : { occlusionTexture: src.occlusion_texture, occlusionStrength: src.occlusion_strength ?? 1 }),
  };
  return writeContainer({ type: 'material', meta });
}

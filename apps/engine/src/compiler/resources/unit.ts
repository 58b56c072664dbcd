// unit: a prefab (mesh, material, Flow script, light, character) → a small container. Levels
// bake prefabs into their archives, so a changed unit rebuilds the levels that place it.
import type { UnitMeta } from '../../runtime/formats.ts';
import { writeContainer } from '../../runtime/container.ts';
import { validate, type CompileContext } from '../context.ts';
import { UNIT_SOURCE } from '../schemas.ts';
import type * as v from 'valibot';

export type UnitSource = v.InferOutput<typeof UNIT_SOURCE>;

export function unitMeta(src: UnitSource): UnitMeta {
  const meta: UnitMeta = {};
  if (src.mesh !== undefined) meta.mesh = src.mesh;
  if (src.material !== undefined) meta.material = src.material;
  if (src.flow !== undefined) meta.flow = src.flow;
  if (src.light) meta.light = { color: src.light.color ?? [1, 1, 1], range: src.light.range ?? 3, intensity: src.light.intensity ?? 1 };
  if (src.character) meta.character = { speed: src.character.speed ?? 1.2, radius: src.character.radius ?? 2 };
  return meta;
}

export function checkUnit(ctx: CompileContext, doc: unknown): UnitSource {
  const src = validate(ctx, UNIT_SOURCE, doc);
  // An emptied unit would silently vanish from every level that places it.
  if (src.mesh === undefined && src.light === undefined && src.flow === undefined) ctx.fail([], 'the unit has no mesh, light or flow, so placing it would show nothing', 'Add mesh = "meshes/<name>", a light = { ... } or flow = "flow/<name>"');
  if (src.mesh !== undefined) ctx.requireResource('glb', src.mesh, ['mesh']);
  if (src.material !== undefined) ctx.requireResource('material', src.material, ['material']);
  if (src.flow !== undefined) ctx.requireResource('flow', src.flow, ['flow']);
  // Without a material, a static mesh is drawn with the GLB's own materials (glTF's default
  // material for primitives that have none); a character still needs one (the level checks).
  return src;
}

export function compileUnit(ctx: CompileContext): Uint8Array {
  return writeContainer({ type: 'unit', meta: unitMeta(checkUnit(ctx, ctx.document())) });
}

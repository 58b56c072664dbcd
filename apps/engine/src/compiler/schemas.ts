// Source formats, as valibot schemas: every resource file is checked against its schema before
// it is compiled, and the first problem is reported at its line and column. Strict objects, so
// a misspelt key is an error rather than a silently ignored setting.
import * as v from 'valibot';

const finite = v.pipe(v.number(), v.finite());
const unit = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const positive = v.pipe(v.number(), v.gtValue(0), v.finite());
const name = v.pipe(v.string(), v.minLength(1), v.regex(/^[a-z0-9_\-/]+$/i, 'a resource name: letters, digits, _, - and /, without extension'));
export const vec3 = v.tuple([finite, finite, finite]);
const color3 = v.tuple([finite, finite, finite]);

// Required keys are what a source that lost its lines (an interrupted save) is caught by.
export const MATERIAL_SOURCE = v.strictObject({
  base_color: v.tuple([unit, unit, unit, unit]),
  metallic: v.optional(unit),
  roughness: v.optional(unit),
  emissive: v.optional(color3),
  alpha_mode: v.optional(v.picklist(['opaque', 'mask', 'blend'])),
  alpha_cutoff: v.optional(unit),
  normal_scale: v.optional(finite),
  double_sided: v.optional(v.boolean()),
  caustics: v.optional(v.boolean()),
  base_color_texture: v.optional(name),
  normal_texture: v.optional(name),
  metallic_roughness_texture: v.optional(name),
  emissive_texture: v.optional(name),
  occlusion_texture: v.optional(name),
  occlusion_strength: v.optional(unit),
});

export const UNIT_SOURCE = v.strictObject({
  mesh: v.optional(name),
  material: v.optional(name),
  flow: v.optional(name),
  light: v.optional(v.strictObject({ color: v.optional(color3), range: v.optional(positive), intensity: v.optional(v.pipe(v.number(), v.minValue(0))) })),
  character: v.optional(v.strictObject({ speed: v.optional(finite), radius: v.optional(positive) })),
});

const quat = v.tuple([finite, finite, finite, finite]);

export const PLACED_UNIT = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1)),
  unit: name,
  position: v.optional(vec3),
  rotation: v.optional(quat),
  scale: v.optional(vec3),
  material: v.optional(name),
  parent: v.optional(v.string()),
  light: v.optional(v.strictObject({ color: v.optional(color3), range: v.optional(positive), intensity: v.optional(v.pipe(v.number(), v.minValue(0))) })),
});

export const LEVEL_SOURCE = v.strictObject({
  flow: v.optional(name),
  font: v.optional(name),
  title: v.optional(v.strictObject({ text: v.string(), x: v.optional(finite), y: v.optional(finite), size: v.optional(positive) })),
  sun: v.optional(v.strictObject({ direction: vec3, color: v.optional(color3), intensity: v.optional(v.pipe(v.number(), v.minValue(0))) })),
  camera: v.optional(v.strictObject({ position: vec3, target: vec3 })),
  fluid: v.optional(v.strictObject({ particles: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), min: vec3, max: vec3, color: v.optional(color3) })),
  ambient: v.optional(v.pipe(v.number(), v.minValue(0))),
  units: v.array(PLACED_UNIT),
});

export const FONT_SOURCE = v.strictObject({
  /** A TTF/OTF file or an AngelCode .fnt: a project path, or an absolute one inside a --font-dir. */
  source: v.pipe(v.string(), v.minLength(1)),
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(4), v.maxValue(256))),
  spread: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(32))),
  scale: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16))),
  chars: v.optional(v.string()),
});

const names = v.optional(v.array(name));
export const PACKAGE_SOURCE = v.strictObject({
  level: names,
  unit: names,
  flow: names,
  material: names,
  font: names,
  glb: names,
  png: names,
});

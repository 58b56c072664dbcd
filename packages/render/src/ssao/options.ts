// The SSAO pass's options: defaults and checks.
import { RenderError } from '../errors.ts';
import { SSAO_MAX_SAMPLES, type NormalMethod, type SsaoOptions } from './api.ts';
import { requireNormalMethod } from './normal-method.ts';

/** SSAO options with every default filled in and checked (see {@link SsaoOptions} for each field's meaning). */
export interface ResolvedSsaoOptions {
  /** How normals are rebuilt from the depth buffer. */
  normals: NormalMethod;
  /** Radius of the sampled hemisphere in view-space units (greater than 0). */
  radius: number;
  /** Samples per pixel, 1 to 64. */
  samples: number;
  /** Exponent on the unoccluded fraction (greater than 0). */
  strength: number;
  /** Depth margin in view-space units before a sample counts as occluded (0 or more). */
  bias: number;
  /** Whether the depth-aware 4x4 blur runs. */
  blur: boolean;
}

/** The blur averages only pixels within this fraction of the radius of the centre's tangent plane. */
export const BLUR_PLANE_TOLERANCE = 0.25;

/** Defaults of the SSAO options: radius 0.5, 16 samples, strength 1, bias 0.025, blur on. */
export const SSAO_DEFAULTS: Omit<ResolvedSsaoOptions, 'normals'> = { radius: 0.5, samples: 16, strength: 1, bias: 0.025, blur: true };

function positive(name: string, value: number): number {
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw new RenderError(`${name} must be a finite number > 0, got ${String(value)}.`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) throw new RenderError(`${name} must be a finite number >= 0, got ${String(value)}.`);
  return value;
}

/** `changes` applied over `base` (defaults when absent), checked; throws RenderError naming the bad option. */
export function resolveSsaoOptions(changes: Partial<SsaoOptions>, base?: ResolvedSsaoOptions): ResolvedSsaoOptions {
  const given: unknown = changes;
  if (typeof given !== 'object' || given === null) throw new RenderError('SSAO options must be an object ({ normals, radius, samples, strength, bias, blur }).');
  const merged = { ...SSAO_DEFAULTS, ...base, ...changes };
  const samples = merged.samples;
  if (!(Number.isInteger(samples) && samples >= 1 && samples <= SSAO_MAX_SAMPLES)) throw new RenderError(`samples must be an integer in 1..${SSAO_MAX_SAMPLES}, got ${String(samples)}.`);
  if (typeof (merged.blur as unknown) !== 'boolean') throw new RenderError(`blur must be true or false, got ${String(merged.blur)}.`);
  return {
    normals: requireNormalMethod(merged.normals, 'normals'),
    radius: positive('radius', merged.radius),
    samples,
    strength: positive('strength', merged.strength),
    bias: nonNegative('bias', merged.bias),
    blur: merged.blur,
  };
}

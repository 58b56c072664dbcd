// The examples' lights: a random hue, and a downward spot or a point light, drawn from the
// caller's generator in a fixed order so that a seed always gives the same scene.
import type { EntityList } from '../entity-list.ts';
import type { Vec3 } from '../api.ts';

export interface RandomLightStyle {
  /** Share of spot lights (the rest are point lights). */
  spotShare: number;
  /** Largest sideways lean of a spot's downward direction, and its cone: outer angle base + up to spread. */
  lean: number;
  cone: [base: number, spread: number];
  /** Intensity of spots and of point lights. */
  intensity: [spot: number, point: number];
}

/** A colour around the hue circle, never dark: cosine ramps a third of a turn apart. */
function hueColor(hue: number): Vec3 {
  return [0.5 + 0.5 * Math.cos(6.2832 * hue), 0.5 + 0.5 * Math.cos(6.2832 * (hue - 0.333)), 0.5 + 0.5 * Math.cos(6.2832 * (hue - 0.667))];
}

/** Adds one light at `position` with `range` (spots reach 1.5x further, to the floor under them). */
export function addRandomLight(entities: EntityList, random: () => number, position: Vec3, range: number, style: RandomLightStyle): void {
  const color = hueColor(random());
  if (random() < style.spotShare) {
    const direction: Vec3 = [(random() - 0.5) * style.lean, -1, (random() - 0.5) * style.lean];
    entities.addSpotLight({ position, direction, range: range * 1.5, outerAngle: style.cone[0] + random() * style.cone[1], color, intensity: style.intensity[0] });
  } else {
    entities.addPointLight({ position, range, color, intensity: style.intensity[1] });
  }
}

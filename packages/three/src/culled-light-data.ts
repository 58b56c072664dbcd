// Which three.js lights @cuttle/three culls, and how one is written into @cuttle/gpu-culling's
// entity layout (four vec4 a light: position and range; spot direction and cos(cone); colour
// times intensity and cos(penumbra); kind and decay). Lights the culling cannot stand in for
// stay with three's own per-light path: shadow casters, lights with a colour node or a
// projected map, lights without a range (distance 0 reaches everywhere), and spots of 90° or
// wider (the culling's cone test needs a half-angle below pi/2).
import type { Light, PointLight, SpotLight } from 'three/webgpu';

/** Floats per light in the entity array (ENTITY_WORDS of `@cuttle/gpu-culling`). */
export const LIGHT_FLOATS = 16;
const POINT_KIND = 2;
const SPOT_KIND = 3;
const MAX_SPOT_ANGLE = Math.PI / 2 - 1e-4;

type MaybeCulled = Light & { isPointLight?: boolean; isSpotLight?: boolean; colorNode?: unknown; map?: unknown; distance?: number; angle?: number };

/** Whether `light` is shaded through the culled tiles (else three shades it its own way). */
export function isCulledLight(light: Light): light is PointLight | SpotLight {
  const candidate = light as MaybeCulled;
  if (candidate.castShadow || candidate.colorNode || !(candidate.distance! > 0)) return false;
  if (candidate.isSpotLight === true) return !candidate.map && candidate.angle! < MAX_SPOT_ANGLE;
  return candidate.isPointLight === true;
}

const kindBits = new Uint32Array(2);
const kindFloats = new Float32Array(kindBits.buffer);
kindBits[0] = POINT_KIND;
kindBits[1] = SPOT_KIND;

/**
 * Writes `light` (its matrixWorld up to date) at float `o` of `out`. The decay exponent rides
 * in the word the culling leaves to users, as a float, so the shading reads it directly.
 */
export function writeLight(out: Float32Array, o: number, light: PointLight | SpotLight): void {
  const m = light.matrixWorld.elements;
  const x = m[12], y = m[13], z = m[14];
  const { r, g, b } = light.color;
  const intensity = light.intensity;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = light.distance;
  if ((light as MaybeCulled).isSpotLight === true) {
    const spot = light as SpotLight;
    if (spot.target.parent === null) spot.target.updateMatrixWorld();
    const t = spot.target.matrixWorld.elements;
    const dx = t[12] - x, dy = t[13] - y, dz = t[14] - z;
    const length = Math.hypot(dx, dy, dz) || 1;
    out[o + 4] = dx / length;
    out[o + 5] = dy / length;
    out[o + 6] = dz / length;
    // three's cone: smoothstep(cos(angle), cos(angle * (1 - penumbra)), cos to the axis).
    out[o + 7] = Math.cos(spot.angle);
    out[o + 11] = Math.cos(spot.angle * (1 - spot.penumbra));
    out[o + 12] = kindFloats[1]!;
  } else {
    out[o + 4] = 0;
    out[o + 5] = 0;
    out[o + 6] = 0;
    out[o + 7] = -1;
    out[o + 11] = -1;
    out[o + 12] = kindFloats[0]!;
  }
  out[o + 8] = r * intensity;
  out[o + 9] = g * intensity;
  out[o + 10] = b * intensity;
  out[o + 13] = light.decay;
  out[o + 14] = 0;
  out[o + 15] = 0;
}

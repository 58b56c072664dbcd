// Reproducible test scenes: a camera, a synthetic depth buffer with discontinuities (stacked
// slanted rectangles over sky, so tiles mix near, far and empty pixels), and random entities of
// every kind inside the view.
import { boxMatrix, EntityList, lookAt, orthographic, perspective, seededRandom, type CameraInput } from '../src/index.ts';

export interface SceneOptions {
  width: number;
  height: number;
  seed: number;
  projection?: 'perspective' | 'reversed' | 'reversed-infinite' | 'orthographic';
  decals?: number;
  probes?: number;
  pointLights?: number;
  spotLights?: number;
  /** Light range in world units (min, max). */
  lightRange?: [number, number];
  /** Share of the screen left as sky (far depth). */
  sky?: number;
}

export interface TestScene {
  camera: CameraInput;
  /** Depth values, width * height, top row first, as stored in a depth32float texture. */
  depth: Float32Array;
  entities: EntityList;
  width: number;
  height: number;
}

const EYE = [0, 4, 12] as const;
const TARGET = [0, 1, 0] as const;

export function sceneCamera(width: number, height: number, projection: SceneOptions['projection'] = 'perspective'): CameraInput {
  const view = lookAt(EYE, TARGET);
  const aspect = width / height;
  if (projection === 'orthographic') return { view, projection: orthographic({ left: -10 * aspect, right: 10 * aspect, bottom: -10, top: 10, near: 0.5, far: 60 }) };
  return {
    view,
    projection: perspective({ fovY: Math.PI / 3, aspect, near: 0.1, far: projection === 'reversed-infinite' ? Infinity : 60, reversedZ: projection !== 'perspective' }),
  };
}

/** The depth value a surface at view distance `distance` writes. */
function depthAt(camera: CameraInput, distance: number): number {
  const p = camera.projection;
  const z = -distance;
  return Math.fround((p[10]! * z + p[14]!) / (p[11]! * z + p[15]!));
}

export function makeScene(options: SceneOptions): TestScene {
  const { width, height } = options;
  const random = seededRandom(options.seed);
  const camera = sceneCamera(width, height, options.projection);
  const far = options.projection === 'perspective' || options.projection === 'orthographic' || options.projection === undefined ? 1 : 0;
  const depth = new Float32Array(width * height).fill(far);
  const distance = new Float64Array(width * height).fill(Infinity);
  // A ground that slopes away (distance grows towards the top), except the sky band on top.
  const skyRows = Math.floor(height * (options.sky ?? 0.25));
  for (let y = skyRows; y < height; y++) {
    const d = 4 + 30 * (1 - (y - skyRows) / Math.max(1, height - skyRows)) ** 2;
    for (let x = 0; x < width; x++) distance[y * width + x] = d;
  }
  // Slanted rectangles in front: the depth discontinuities of buildings and props.
  for (let r = 0; r < 14; r++) {
    const x0 = Math.floor(random() * width), y0 = Math.floor(random() * height);
    const w = 4 + Math.floor(random() * width * 0.35), h = 4 + Math.floor(random() * height * 0.45);
    const base = 3 + random() * 25, slope = (random() - 0.5) * 0.08;
    for (let y = y0; y < Math.min(height, y0 + h); y++) {
      for (let x = x0; x < Math.min(width, x0 + w); x++) {
        const d = base + slope * (x - x0) + slope * 0.5 * (y - y0);
        if (d > 0.5 && d < distance[y * width + x]!) distance[y * width + x] = d;
      }
    }
  }
  for (let i = 0; i < width * height; i++) if (distance[i]! < Infinity) depth[i] = depthAt(camera, distance[i]!);

  const entities = new EntityList();
  const [rangeMin, rangeMax] = options.lightRange ?? [0.5, 4];
  const inView = (): [number, number, number] => [(random() - 0.5) * 24, random() * 8 - 1, (random() - 0.5) * 30 - 4];
  for (let i = 0; i < (options.decals ?? 0); i++) {
    entities.addDecal({ matrix: boxMatrix(inView(), [0.3 + random() * 2, 0.2 + random(), 0.3 + random() * 2], random() * Math.PI), color: [random(), random(), random(), 1] });
  }
  for (let i = 0; i < (options.probes ?? 0); i++) {
    entities.addProbe({ matrix: boxMatrix(inView(), [1 + random() * 4, 1 + random() * 3, 1 + random() * 4], random() * Math.PI), color: [random(), random(), random(), 1] });
  }
  for (let i = 0; i < (options.pointLights ?? 0); i++) {
    entities.addPointLight({ position: inView(), range: rangeMin + random() * (rangeMax - rangeMin), color: [random(), random(), random()] });
  }
  if ((options.pointLights ?? 0) > 0) {
    // Lights around the camera (their boxes straddle the eye plane: the whole screen) and
    // entirely behind it (no tiles at all).
    entities.addPointLight({ position: [EYE[0] + 0.5, EYE[1], EYE[2] - 0.5], range: 3, color: [1, 1, 1] });
    entities.addPointLight({ position: [EYE[0], EYE[1] - 1, EYE[2] + 1], range: 4, color: [1, 1, 1] });
    entities.addPointLight({ position: [EYE[0], EYE[1], EYE[2] + 12], range: 2, color: [1, 1, 1] });
  }
  for (let i = 0; i < (options.spotLights ?? 0); i++) {
    const angle = 0.1 + random() * 1.3;
    entities.addSpotLight({ position: inView(), direction: [random() - 0.5, -random(), random() - 0.5], range: rangeMin + random() * (rangeMax - rangeMin) * 2, outerAngle: angle, color: [1, 1, 1] });
  }
  return { camera, depth, entities, width, height };
}

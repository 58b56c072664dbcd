// The courtyard the demo shows and the benchmark times: walls and columns around a stone floor,
// a pergola of coloured glass casting tinted shadows, a pool whose water throws caustics,
// walking characters (@cuttle/gpu-skinning), thousands of small lights, and optionally a block
// of fluid (@cuttle/gpu-fluid) in a glass tank.
import { buildSkinnedVertices, computePalette, createPaletteScratch, createPose, createProceduralCharacter, GpuSkinning, sampleClip, type Pose, type ProceduralCharacter, type SkinnedInstance } from '@cuttle/gpu-skinning';
import { damBreakPositions, FluidSimulation } from '@cuttle/gpu-fluid';
import { RenderError } from '../errors.ts';
import type { RenderScene } from '../scene/render-scene.ts';
import { boxMesh, planeMesh } from '../scene/shapes.ts';

/** Options of {@link buildCourtyard}; every one has a default. */
export interface CourtyardOptions {
  /** Walking characters (default 64). */
  characters?: number;
  /** Small culled lights (default 2048). */
  lights?: number;
  /** Fluid particles in the tank (default 0: no tank). */
  fluid?: number;
  /**
   * The small lights' ranges, drawn uniformly from [min, max] (default [1.5, 4.5]: about 90
   * lights reach each point of the floor, a stress test for the culling; [0.5, 1.5] gives 3–4).
   */
  lightRange?: readonly [number, number];
  /** Seed of the random placement of lights and characters (default 3): the same seed builds the same courtyard. */
  seed?: number;
}

/** The example courtyard added to a scene by {@link buildCourtyard}. */
export interface Courtyard {
  /** Moves the characters along their paths and the lights on their orbits to `time` (seconds). */
  animate(time: number): void;
  /** The fluid in the tank, when there is one (step it yourself). */
  fluid: FluidSimulation | undefined;
  /** The GpuSkinning that poses the characters (`@cuttle/gpu-skinning`), or undefined with no characters. */
  skinning: GpuSkinning | undefined;
  /** Half the courtyard's side. */
  extent: number;
  /** Destroys the GpuSkinning and the fluid simulation, if any (the scene's meshes, materials and lights stay). */
  destroy(): void;
}

const EXTENT = 20;

function translate(x: number, y: number, z: number, sx = 1, sy = 1, sz = 1): number[] {
  return [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0, x, y, z, 1];
}

/** A normal map of ripples: the pool's surface (its slopes make the caustics). */
export function rippleNormalMap(size = 128): { width: number; height: number; data: Uint8Array<ArrayBuffer> } {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x / size) * Math.PI * 2, v = (y / size) * Math.PI * 2;
      const dx = 0.5 * Math.cos(u * 3 + Math.sin(v * 2)) + 0.25 * Math.cos(u * 7 + v * 3);
      const dy = 0.5 * Math.sin(v * 4 + Math.cos(u)) + 0.25 * Math.sin(v * 9 - u * 2);
      const length = Math.hypot(dx, dy, 1);
      data.set([(dx / length) * 127.5 + 127.5, (dy / length) * 127.5 + 127.5, (1 / length) * 127.5 + 127.5, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

/**
 * Adds the example courtyard to `scene`: walls and columns around a stone floor, a pergola of coloured glass casting tinted shadows, a pool whose water throws caustics, walking characters, small culled lights and optionally a tank of fluid.
 * @param scene - The scene to add to.
 * @param options - Counts of characters, lights and fluid particles, the lights' range and the seed.
 * @throws {@link RenderError} when a count is not a non-negative integer, or `lightRange` is not `[min, max]` with `0 < min <= max`.
 */
export function buildCourtyard(scene: RenderScene, options: CourtyardOptions = {}): Courtyard {
  const characters = options.characters ?? 64;
  const lights = options.lights ?? 2048;
  const particles = options.fluid ?? 0;
  for (const [name, value] of [['characters', characters], ['lights', lights], ['fluid', particles]] as const) {
    if (!Number.isInteger(value) || value < 0) throw new RenderError(`${name} must be a non-negative integer, got ${value}.`);
  }
  const [rangeMin, rangeMax] = options.lightRange ?? [1.5, 4.5];
  if (!(rangeMin > 0 && rangeMax >= rangeMin && Number.isFinite(rangeMax))) {
    throw new RenderError(`lightRange must be [min, max] with 0 < min <= max, got [${rangeMin}, ${rangeMax}].`);
  }
  let x = (options.seed ?? 3) >>> 0 || 1;
  const random = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const device = scene.device;
  const stone = scene.addMaterial({ baseColor: [0.55, 0.5, 0.45, 1], roughness: 0.85 });
  const plaster = scene.addMaterial({ baseColor: [0.75, 0.7, 0.62, 1], roughness: 0.9 });
  const bronze = scene.addMaterial({ baseColor: [0.8, 0.55, 0.3, 1], metallic: 1, roughness: 0.35 });
  const glass = [[0.95, 0.15, 0.1], [0.1, 0.8, 0.25], [0.15, 0.3, 0.95], [0.95, 0.8, 0.1]].map(([r, g, b]) => scene.addMaterial({ baseColor: [r!, g!, b!, 0.55], alphaMode: 'blend', roughness: 0.05 }));
  const water = scene.addMaterial({ baseColor: [0.35, 0.6, 0.8, 0.35], alphaMode: 'blend', roughness: 0.05, normalTexture: scene.addTexture(rippleNormalMap(), { normalMap: true }), normalScale: 0.6, caustics: true });
  const tile = scene.addMaterial({ baseColor: [0.3, 0.55, 0.6, 1], roughness: 0.5 });

  const cube = scene.addMesh(boxMesh(0.5, 0.5, 0.5));
  scene.addInstance(scene.addMesh(planeMesh(EXTENT * 2, 8)), stone);
  // Walls, with a gap in the middle of each side.
  for (const side of [-1, 1]) {
    for (const half of [-1, 1]) {
      scene.addInstance(cube, plaster, translate(half * EXTENT * 0.55, 3, side * EXTENT, EXTENT * 0.8, 6, 0.8));
      scene.addInstance(cube, plaster, translate(side * EXTENT, 3, half * EXTENT * 0.55, 0.8, 6, EXTENT * 0.8));
    }
  }
  // Columns and the pergola of coloured glass over the north half.
  for (let i = -3; i <= 3; i++) {
    for (const z of [-12, -4]) scene.addInstance(cube, plaster, translate(i * 4, 2.5, z, 0.6, 5, 0.6));
  }
  for (let i = -3; i < 3; i++) {
    for (let j = 0; j < 2; j++) scene.addInstance(cube, glass[(i + 3 + j) % glass.length]!, translate(i * 4 + 2, 5.1, -10 + j * 4, 3.8, 0.08, 3.8));
  }
  // A pool with tiled sides and rippling water. Its tiled bottom stands 2 cm proud of the stone
  // floor: coplanar with it, which surface showed was down to depth rounding and draw order.
  scene.addInstance(cube, tile, translate(8, -0.03, 8, 10, 0.1, 8));
  for (const [px, pz, sx, sz] of [[8, 4, 10, 0.3], [8, 12, 10, 0.3], [3, 8, 0.3, 8], [13, 8, 0.3, 8]] as const) scene.addInstance(cube, tile, translate(px, 0.3, pz, sx, 0.6, sz));
  scene.addInstance(scene.addMesh(planeMesh(9.6, 1)), water, translate(8, 0.45, 8));
  // Props: bronze statues on plinths.
  for (let k = 0; k < 6; k++) {
    const px = -14 + random() * 10, pz = 2 + random() * 14;
    scene.addInstance(cube, stone, translate(px, 0.5, pz, 1.2, 1, 1.2));
    scene.addInstance(cube, bronze, translate(px, 1.8, pz, 0.6, 1.6, 0.6));
  }
  scene.setSun({ direction: [0.35, -1, 0.45], color: [1, 0.95, 0.85], intensity: 2.4 });
  scene.setShadowBounds([0, 2, 0], EXTENT * 1.5);

  // Small lights: lanterns along the walls and fireflies over the floor.
  const lightBase = new Float32Array(lights * 3);
  for (let i = 0; i < lights; i++) {
    const onWall = random() < 0.4;
    const px = onWall ? (random() < 0.5 ? -1 : 1) * (EXTENT - 1.2) : (random() * 2 - 1) * (EXTENT - 2);
    const pz = onWall ? (random() * 2 - 1) * (EXTENT - 2) : (random() * 2 - 1) * (EXTENT - 2);
    const py = onWall ? 2.5 + random() * 2 : 0.4 + random() * 3;
    lightBase.set([px, py, pz], i * 3);
    const hue = random() * Math.PI * 2;
    scene.lights.addPointLight({ position: [px, py, pz], range: rangeMin + random() * (rangeMax - rangeMin), color: [0.6 + 0.4 * Math.cos(hue), 0.6 + 0.4 * Math.cos(hue - 2.1), 0.6 + 0.4 * Math.cos(hue + 2.1)], intensity: 3 });
  }

  // Walking characters on circles around the courtyard.
  let skinning: GpuSkinning | undefined;
  let character: ProceduralCharacter | undefined;
  let walkers: SkinnedInstance[] = [];
  let pose: Pose | undefined;
  let palette = new Float32Array(0);
  let scratch: ReturnType<typeof createPaletteScratch> | undefined;
  const paths = new Float32Array(characters * 4);
  if (characters > 0) {
    character = createProceduralCharacter();
    const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: character.skeleton.jointCount });
    const joints = character.skeleton.jointCount;
    skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * characters, maxBones: joints * characters, maxInstances: characters });
    const mesh = skinning.addMesh(vertices);
    walkers = Array.from({ length: characters }, () => skinning!.addInstance({ mesh, palette: skinning!.createPalette(joints) }));
    pose = createPose(character.skeleton);
    palette = new Float32Array(joints * 12);
    scratch = createPaletteScratch(character.skeleton);
    for (let c = 0; c < characters; c++) paths.set([-10 + random() * 8, -2 + random() * 12, 1.5 + random() * 4, random() * Math.PI * 2], c * 4);
    scene.addSkinned({ skinning, instances: walkers, indices: character.indices, material: scene.addMaterial({ baseColor: [0.7, 0.35, 0.25, 1], roughness: 0.6 }) });
  }

  let fluid: FluidSimulation | undefined;
  if (particles > 0) {
    const side = Math.ceil(Math.cbrt(particles / (8 * 0.4 * 2 * 0.7)));
    const scale = 6 / (2 * side);
    fluid = new FluidSimulation(device, { capacity: particles, parameters: { bounds: { min: [-16, 0, 10], max: [-16 + 2 * side * scale * 2, side * scale * 2, 10 + side * scale * 2] }, h: scale * 2 } });
    fluid.emit(damBreakPositions(particles, fluid.parameters));
    scene.addFluid({ fluid, color: [0.15, 0.4, 0.85], radius: scale * 0.9 });
  }

  return {
    fluid,
    skinning,
    extent: EXTENT,
    animate(time) {
      for (let i = 0; i < lights; i++) {
        const phase = i * 0.7;
        scene.lights.setLightPosition(i, lightBase[i * 3]! + Math.sin(time * 0.6 + phase) * 0.4, lightBase[i * 3 + 1]! + Math.sin(time * 1.1 + phase) * 0.2, lightBase[i * 3 + 2]! + Math.cos(time * 0.5 + phase) * 0.4);
      }
      if (!skinning || !character || !pose || !scratch) return;
      for (let c = 0; c < characters; c++) {
        const [cx, cz, radius, start] = [paths[c * 4]!, paths[c * 4 + 1]!, paths[c * 4 + 2]!, paths[c * 4 + 3]!];
        const angle = start + (time * 1.2) / radius;
        const heading = -angle;
        sampleClip(character.walk, time + c * 0.13, pose);
        const [s, k] = [Math.sin(heading), Math.cos(heading)];
        computePalette(character.skeleton, pose, palette, { scratch, rootTransform: [k, 0, -s, 0, 0, 1, 0, 0, s, 0, k, 0, cx + Math.cos(angle) * radius, 0, cz + Math.sin(angle) * radius, 1] });
        skinning.writePalette(walkers[c]!.palette, palette);
      }
    },
    destroy() {
      skinning?.destroy();
      fluid?.destroy();
    },
  };
}

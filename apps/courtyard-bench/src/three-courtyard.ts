// The courtyard of @cuttle/render's benchmark (packages/render/src/example/courtyard.ts) as a
// three.js user would build it in plain three r187 (three/webgpu): the same boxes and planes at
// the same transforms, the same seed and random sequence (so statues, lights and characters
// stand in the same places), the same animation, the same camera. Only three's own API, plus
// @cuttle/gpu-skinning's procedural character and walk sampler (the same poses),
// @cuttle/gpu-fluid's simulation (the same particles; see the fluid below), @cuttle/render's
// ripple pixels for the water's normal map, and @cuttle/three's deviceOf and adoptGpuBuffer
// (the two calls that reach into three's backend to share the simulation's buffer).
//
// Colour: materials and lights take the same linear RGB numbers as the render courtyard
// (three's Color(r, g, b) is linear in its working space). Frames go through three's output
// pass as to a canvas: renderer.toneMapping = ACESFilmicToneMapping (exposure 1) and
// outputColorSpace = SRGBColorSpace. @cuttle/render uses Narkowicz's fit of ACES, which
// already folds in the 1/0.6 pre-scale three's ACESFilmicToneMapping applies, so the curves
// nearly agree; it encodes with gamma 2.2 where three uses the sRGB curve (three's darks come
// out a little lighter).
//
// What differs from @cuttle/render's courtyard, and why (also in the README):
// - Glass shadows: three r187 tints the sun's shadow through the glass with
//   `renderer.shadowMap.transmitted` and the glass materials' `castShadowNode` (colour and
//   opacity: mix(1, colour, opacity), render's filter formula too); render also adds the water's
//   caustics into its filter.
// - No caustics under the water, no SSAO: plain three has neither in its renderer (SSAO is a
//   post-processing node that would need a RenderPipeline pass; left out, as the render
//   contender keeps its default SSAO on, see the README).
// - Small lights: three's ClusteredLighting (froxel clusters of 32 px x 24 depth slices, at most
//   64 lights a cluster) where render culls per 16 px tile into flat bits. Falloff: three's
//   physical 1/d^2 windowed by the range (decay 2, `distance` = range) where render uses
//   window^2 / (d^2 + 1): three's lights are brighter very near their centre.
// - Ambient: AmbientLight of the render renderer's default ambient (0.03, 0.03, 0.04) with
//   intensity pi, because three divides irradiance by pi (Lambert) and render does not. Metals
//   get no ambient in three (no environment map); render gives them half.
// - Characters: one SkinnedMesh each (shared geometry, material and inverse bind matrices; a
//   Skeleton each, as three poses skeletons one by one), skinned in the vertex shader of every
//   pass (shadow and colour); render skins once a frame in compute and rasterizes in compute.
// - Fluid: the particles as camera-facing quads lit as spheres (normal from the quad's uv,
//   outside the circle masked); render splats sphere impostors in compute with true sphere
//   depths. Neither casts shadows.
// - Camera: the same eye, target, field of view and near plane, but a finite far plane (100)
//   and standard depth: three's ClusteredLighting slices depth between near and far; render uses
//   an infinite reversed-z projection.
//
// With `adapters: true` the same three.js scene swaps three parts for @cuttle/three's adapters
// (the benchmark's third column): CulledLighting for the small lights (a depth prepass, then
// @cuttle/gpu-culling's tiles walked by three's materials), SkinnedCrowd for the characters
// (skinned once a frame in compute by @cuttle/gpu-skinning, drawn by three in every pass), and
// FluidMesh sprites for the particles (the same quads, from the adapter). Everything else is the
// plain scene.
import { damBreakPositions, FluidSimulation } from '@cuttle/gpu-fluid';
import { buildSkinnedVertices, computePalette, createPaletteScratch, createPose, createProceduralCharacter, GpuSkinning, sampleClip, type Pose, type ProceduralCharacter, type SkinnedInstance } from '@cuttle/gpu-skinning';
import { rippleNormalMap } from '@cuttle/render';
import { adoptGpuBuffer, CulledLighting, deviceOf, FluidMesh, SkinnedCrowd } from '@cuttle/three';
import { ClusteredLighting } from 'three/addons/lighting/ClusteredLighting.js';
import { cameraWorldMatrix, float, instanceIndex, positionLocal, sqrt, storage, uv, vec3, vec4 } from 'three/tsl';
import {
  ACESFilmicToneMapping,
  AmbientLight,
  Bone,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  Color,
  DataTexture,
  DirectionalLight,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshStandardNodeMaterial,
  NoColorSpace,
  PerspectiveCamera,
  PlaneGeometry,
  PointLight,
  RepeatWrapping,
  RGBAFormat,
  Scene,
  Skeleton,
  SkinnedMesh,
  SRGBColorSpace,
  StorageInstancedBufferAttribute,
  UnsignedByteType,
  Vector2,
  type WebGPURenderer,
} from 'three/webgpu';
import type { CourtyardView } from './courtyard-camera.ts';

export interface ThreeCourtyardOptions {
  /** Walking characters (default 64). */
  characters?: number;
  /** Small point lights (default 2048). */
  lights?: number;
  /** Fluid particles (default 0: none). */
  fluid?: number;
  /** The small lights' ranges, drawn uniformly from [min, max] (default [1.5, 4.5]). */
  lightRange?: readonly [number, number];
  seed?: number;
  /** Side of the sun's shadow map in texels (default 2048, render's default). */
  shadowMapSize?: number;
  /** Lights, crowd and fluid through @cuttle/three's adapters instead of three's own ways (default false). */
  adapters?: boolean;
}

export interface ThreeCourtyard {
  scene: Scene;
  camera: PerspectiveCamera;
  /** The renderer's lighting, set by buildThreeCourtyard: three's clustered lighting, or the culled lights adapter. */
  lighting: ClusteredLighting | CulledLighting;
  /** The small lights, in the order (and places) of the render courtyard's. */
  pointLights: PointLight[];
  /** three's SkinnedMeshes (none with adapters: the crowd is one SkinnedCrowd). */
  characters: SkinnedMesh[];
  /** The simulation the particles are drawn from (not stepped here, as in frame.gpu.ts). */
  fluid: FluidSimulation | undefined;
  /** Half the courtyard's side. */
  extent: number;
  /**
   * How many lights three's ClusteredLighting put into its clusters in the last frame (the rest,
   * the sun and the ambient light, it shades the default way).
   */
  clusteredLightCount(): number;
  /** Moves the characters along their paths and the lights on their orbits to `time` (seconds). */
  animate(time: number): void;
  /** Before each render, after setView: the culled lights adapter's depth prepass and culling (nothing for three's own lighting). */
  beforeRender(): void;
  /** Points the camera as `view` says (the render courtyard's lookAt and perspective). */
  setView(view: CourtyardView): void;
  destroy(): void;
}

const EXTENT = 20;
/** Where the render courtyard's shadow bounds sit (scene.setShadowBounds([0, 2, 0], EXTENT * 1.5)). */
const SHADOW_CENTER = [0, 2, 0] as const;
const SHADOW_RADIUS = EXTENT * 1.5;
const SUN_DIRECTION = [0.35, -1, 0.45] as const;
/** @cuttle/render's default ambient light (RendererOptions.ambient). */
const AMBIENT = [0.03, 0.03, 0.04] as const;
/** Floats per particle in the simulation's position buffer (vec4). */
const PARTICLE_FLOATS = 4;

/** A scale-then-translate matrix: the render courtyard's `translate(x, y, z, sx, sy, sz)`. */
function placed(x: number, y: number, z: number, sx = 1, sy = 1, sz = 1): Matrix4 {
  return new Matrix4().makeScale(sx, sy, sz).setPosition(x, y, z);
}

/** One InstancedMesh for every placement of `geometry` with `material`: the three way to draw repeated props. */
function instanced(geometry: BufferGeometry, material: MeshStandardNodeMaterial, placements: readonly Matrix4[], shadows: { cast: boolean; receive: boolean }): InstancedMesh {
  const mesh = new InstancedMesh(geometry, material, placements.length);
  placements.forEach((matrix, i) => {
    mesh.setMatrixAt(i, matrix);
  });
  mesh.instanceMatrix.needsUpdate = true;
  mesh.castShadow = shadows.cast;
  mesh.receiveShadow = shadows.receive;
  return mesh;
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}.`);
}

/**
 * Builds the courtyard into a new Scene for `renderer` (initialized, on WebGPU) and sets the
 * renderer up for it: ClusteredLighting for the small lights, PCF shadows with transmitted
 * (tinted) glass shadows, ACES tone mapping, sRGB output.
 */
export function buildThreeCourtyard(renderer: WebGPURenderer, options: ThreeCourtyardOptions = {}): ThreeCourtyard {
  const characterCount = options.characters ?? 64;
  const lightCount = options.lights ?? 2048;
  const particles = options.fluid ?? 0;
  checkCount('characters', characterCount);
  checkCount('lights', lightCount);
  checkCount('fluid', particles);
  const [rangeMin, rangeMax] = options.lightRange ?? [1.5, 4.5];
  if (!(rangeMin > 0 && rangeMax >= rangeMin && Number.isFinite(rangeMax))) {
    throw new RangeError(`lightRange must be [min, max] with 0 < min <= max, got [${rangeMin}, ${rangeMax}].`);
  }
  // The render courtyard's xorshift, seeded the same, drawn in the same order: statues, lights, paths.
  let x = (options.seed ?? 3) >>> 0 || 1;
  const random = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };

  // ClusteredLighting keeps every light in one row of a float texture, maxLights texels wide:
  // 4,096 fit the 8,192 texels WebGPU guarantees, so one ClusteredLighting takes them all.
  const adapters = options.adapters ?? false;
  const lighting = adapters ? new CulledLighting(renderer, { maxLights: Math.max(1, lightCount) }) : new ClusteredLighting(Math.max(1, lightCount));
  renderer.lighting = lighting;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.transmitted = true;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1;
  renderer.outputColorSpace = SRGBColorSpace;

  const scene = new Scene();
  // render's sky: black (nothing is drawn where no surface is).
  scene.background = new Color(0, 0, 0);
  const disposables: { dispose(): void }[] = [];
  const standard = (parameters: ConstructorParameters<typeof MeshStandardNodeMaterial>[0]): MeshStandardNodeMaterial => {
    const material = new MeshStandardNodeMaterial({ metalness: 0, ...parameters });
    disposables.push(material);
    return material;
  };
  const stone = standard({ color: new Color(0.55, 0.5, 0.45), roughness: 0.85 });
  const plaster = standard({ color: new Color(0.75, 0.7, 0.62), roughness: 0.9 });
  const bronze = standard({ color: new Color(0.8, 0.55, 0.3), metalness: 1, roughness: 0.35 });
  const glass = ([[0.95, 0.15, 0.1], [0.1, 0.8, 0.25], [0.15, 0.3, 0.95], [0.95, 0.8, 0.1]] as const).map(([r, g, b]) => {
    const material = standard({ color: new Color(r, g, b), roughness: 0.05, transparent: true, opacity: 0.55 });
    // The sun's shadow through the pane: its colour, as opaque as the pane.
    material.castShadowNode = vec4(r, g, b, 0.55);
    return material;
  });
  const ripples = rippleNormalMap();
  const normalMap = new DataTexture(ripples.data, ripples.width, ripples.height, RGBAFormat, UnsignedByteType);
  normalMap.wrapS = normalMap.wrapT = RepeatWrapping;
  normalMap.colorSpace = NoColorSpace;
  normalMap.needsUpdate = true;
  disposables.push(normalMap);
  const water = standard({ color: new Color(0.35, 0.6, 0.8), roughness: 0.05, transparent: true, opacity: 0.35, normalMap, normalScale: new Vector2(0.6, 0.6) });
  const tile = standard({ color: new Color(0.3, 0.55, 0.6), roughness: 0.5 });

  const cube = new BoxGeometry(1, 1, 1);
  disposables.push(cube);
  const floorGeometry = new PlaneGeometry(EXTENT * 2, EXTENT * 2).rotateX(-Math.PI / 2);
  disposables.push(floorGeometry);
  const floor = new Mesh(floorGeometry, stone);
  floor.receiveShadow = true;
  scene.add(floor);
  // Walls, with a gap in the middle of each side; columns under the pergola.
  const plasterPlacements: Matrix4[] = [];
  for (const side of [-1, 1]) {
    for (const half of [-1, 1]) {
      plasterPlacements.push(placed(half * EXTENT * 0.55, 3, side * EXTENT, EXTENT * 0.8, 6, 0.8));
      plasterPlacements.push(placed(side * EXTENT, 3, half * EXTENT * 0.55, 0.8, 6, EXTENT * 0.8));
    }
  }
  for (let i = -3; i <= 3; i++) {
    for (const z of [-12, -4]) plasterPlacements.push(placed(i * 4, 2.5, z, 0.6, 5, 0.6));
  }
  scene.add(instanced(cube, plaster, plasterPlacements, { cast: true, receive: true }));
  // The pergola's glass, one InstancedMesh per colour.
  const panes: Matrix4[][] = glass.map(() => []);
  for (let i = -3; i < 3; i++) {
    for (let j = 0; j < 2; j++) panes[(i + 3 + j) % glass.length]!.push(placed(i * 4 + 2, 5.1, -10 + j * 4, 3.8, 0.08, 3.8));
  }
  glass.forEach((material, k) => scene.add(instanced(cube, material, panes[k]!, { cast: true, receive: false })));
  // The pool: tiled bottom and sides, rippling water.
  const tiles = [placed(8, -0.03, 8, 10, 0.1, 8), ...([[8, 4, 10, 0.3], [8, 12, 10, 0.3], [3, 8, 0.3, 8], [13, 8, 0.3, 8]] as const).map(([px, pz, sx, sz]) => placed(px, 0.3, pz, sx, 0.6, sz))];
  scene.add(instanced(cube, tile, tiles, { cast: true, receive: true }));
  const waterGeometry = new PlaneGeometry(9.6, 9.6).rotateX(-Math.PI / 2);
  disposables.push(waterGeometry);
  const pool = new Mesh(waterGeometry, water);
  pool.position.set(8, 0.45, 8);
  pool.receiveShadow = true;
  scene.add(pool);
  // Bronze statues on stone plinths.
  const plinths: Matrix4[] = [], statues: Matrix4[] = [];
  for (let k = 0; k < 6; k++) {
    const px = -14 + random() * 10, pz = 2 + random() * 14;
    plinths.push(placed(px, 0.5, pz, 1.2, 1, 1.2));
    statues.push(placed(px, 1.8, pz, 0.6, 1.6, 0.6));
  }
  scene.add(instanced(cube, stone, plinths, { cast: true, receive: true }));
  scene.add(instanced(cube, bronze, statues, { cast: true, receive: true }));

  // The sun, its shadow camera fitted around the render courtyard's shadow bounds the way render
  // fits its own (an orthographic box of the sphere's radius, from twice the radius away).
  const sun = new DirectionalLight(new Color(1, 0.95, 0.85), 2.4);
  const length = Math.hypot(...SUN_DIRECTION);
  const [dx, dy, dz] = SUN_DIRECTION.map((v) => v / length) as [number, number, number];
  sun.position.set(SHADOW_CENTER[0] - dx * 2 * SHADOW_RADIUS, SHADOW_CENTER[1] - dy * 2 * SHADOW_RADIUS, SHADOW_CENTER[2] - dz * 2 * SHADOW_RADIUS);
  sun.target.position.set(...SHADOW_CENTER);
  sun.castShadow = true;
  const shadowMapSize = options.shadowMapSize ?? 2048;
  sun.shadow.mapSize.set(shadowMapSize, shadowMapSize);
  Object.assign(sun.shadow.camera, { left: -SHADOW_RADIUS, right: SHADOW_RADIUS, top: SHADOW_RADIUS, bottom: -SHADOW_RADIUS, near: SHADOW_RADIUS * 0.5, far: SHADOW_RADIUS * 3.5 });
  sun.shadow.camera.updateProjectionMatrix();
  sun.shadow.bias = -0.0005;
  sun.shadow.normalBias = 0.02;
  scene.add(sun, sun.target);
  scene.add(new AmbientLight(new Color(...AMBIENT), Math.PI));

  // Small lights: lanterns along the walls and fireflies over the floor.
  const lightBase = new Float32Array(lightCount * 3);
  const pointLights: PointLight[] = [];
  for (let i = 0; i < lightCount; i++) {
    const onWall = random() < 0.4;
    const px = onWall ? (random() < 0.5 ? -1 : 1) * (EXTENT - 1.2) : (random() * 2 - 1) * (EXTENT - 2);
    const pz = onWall ? (random() * 2 - 1) * (EXTENT - 2) : (random() * 2 - 1) * (EXTENT - 2);
    const py = onWall ? 2.5 + random() * 2 : 0.4 + random() * 3;
    lightBase.set([px, py, pz], i * 3);
    const hue = random() * Math.PI * 2;
    const range = rangeMin + random() * (rangeMax - rangeMin);
    const light = new PointLight(new Color(0.6 + 0.4 * Math.cos(hue), 0.6 + 0.4 * Math.cos(hue - 2.1), 0.6 + 0.4 * Math.cos(hue + 2.1)), 3, range, 2);
    light.position.set(px, py, pz);
    pointLights.push(light);
  }
  if (pointLights.length > 0) scene.add(...pointLights);

  // Walking characters on circles: three's SkinnedMesh, one per character.
  const characters: SkinnedMesh[] = [];
  const characterBones: Bone[][] = [];
  const paths = new Float32Array(characterCount * 4);
  let character: ProceduralCharacter | undefined;
  let pose: Pose | undefined;
  let crowd: { skinning: GpuSkinning; walkers: SkinnedInstance[]; palette: Float32Array; scratch: ReturnType<typeof createPaletteScratch> } | undefined;
  if (characterCount > 0 && adapters) {
    character = createProceduralCharacter();
    const { skeleton } = character;
    for (let c = 0; c < characterCount; c++) paths.set([-10 + random() * 8, -2 + random() * 12, 1.5 + random() * 4, random() * Math.PI * 2], c * 4);
    const { vertices } = buildSkinnedVertices(character.vertices, { format: 'f32', paletteSize: skeleton.jointCount });
    const skinning = new GpuSkinning(deviceOf(renderer), { format: 'f32', maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * characterCount, maxBones: skeleton.jointCount * characterCount, maxInstances: characterCount });
    const mesh = skinning.addMesh(vertices);
    const walkers = Array.from({ length: characterCount }, () => skinning.addInstance({ mesh, palette: skinning.createPalette(skeleton.jointCount) }));
    const skinned = new SkinnedCrowd(renderer, skinning, walkers, character.indices, { material: standard({ color: new Color(0.7, 0.35, 0.25), roughness: 0.6 }) });
    skinned.castShadow = true;
    skinned.receiveShadow = true;
    scene.add(skinned);
    disposables.push({ dispose: () => { skinning.destroy(); } });
    crowd = { skinning, walkers, palette: new Float32Array(skeleton.jointCount * 12), scratch: createPaletteScratch(skeleton) };
    pose = createPose(skeleton);
  } else if (characterCount > 0) {
    character = createProceduralCharacter();
    const { skeleton } = character;
    const { positions, normals, joints, weights } = character.vertices;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(Float32Array.from(positions), 3));
    geometry.setAttribute('normal', new BufferAttribute(Float32Array.from(normals!), 3));
    geometry.setAttribute('skinIndex', new BufferAttribute(Uint16Array.from(joints), 4));
    geometry.setAttribute('skinWeight', new BufferAttribute(Float32Array.from(weights), 4));
    geometry.setIndex(new BufferAttribute(character.indices, 1));
    disposables.push(geometry);
    const material = standard({ color: new Color(0.7, 0.35, 0.25), roughness: 0.6 });
    // Inverse bind matrices are read-only to three: every skeleton shares the one array.
    const inverses = Array.from({ length: skeleton.jointCount }, (_, j) => new Matrix4().fromArray(skeleton.inverseBindMatrices, j * 16));
    for (let c = 0; c < characterCount; c++) paths.set([-10 + random() * 8, -2 + random() * 12, 1.5 + random() * 4, random() * Math.PI * 2], c * 4);
    for (let c = 0; c < characterCount; c++) {
      const bones = Array.from({ length: skeleton.nodeCount }, () => new Bone());
      for (let n = 0; n < skeleton.nodeCount; n++) {
        const parent = skeleton.parents[n]!;
        if (parent >= 0) bones[parent]!.add(bones[n]!);
      }
      const mesh = new SkinnedMesh(geometry, material);
      mesh.castShadow = true;
      mesh.receiveShadow = true;
      // Most of the crowd is on screen, and a SkinnedMesh's bounds come from skinning every vertex on the CPU.
      mesh.frustumCulled = false;
      for (let n = 0; n < skeleton.nodeCount; n++) if (skeleton.parents[n]! < 0) mesh.add(bones[n]!);
      mesh.bind(new Skeleton(Array.from(skeleton.joints, (node) => bones[node]!), inverses), new Matrix4());
      scene.add(mesh);
      characters.push(mesh);
      characterBones.push(bones);
    }
    pose = createPose(skeleton);
  }

  // The fluid: the same simulation the render courtyard makes (same bounds, spacing and dam-break
  // emission, not stepped), on the renderer's own device, drawn by three straight from the
  // simulation's position buffer (adopted as a storage attribute, no copy), so every column of
  // the benchmark draws the very same particles.
  let fluid: FluidSimulation | undefined;
  if (particles > 0) {
    const side = Math.ceil(Math.cbrt(particles / (8 * 0.4 * 2 * 0.7)));
    const scale = 6 / (2 * side);
    fluid = new FluidSimulation(deviceOf(renderer), { capacity: particles, parameters: { bounds: { min: [-16, 0, 10], max: [-16 + 2 * side * scale * 2, side * scale * 2, 10 + side * scale * 2] }, h: scale * 2 } });
    fluid.emit(damBreakPositions(particles, fluid.parameters));
    const radius = scale * 0.9;
    if (adapters) {
      const sprites = new FluidMesh(renderer, fluid, { radius, shape: 'sprite', material: standard({ color: new Color(0.15, 0.4, 0.85), roughness: 0.15 }) });
      sprites.receiveShadow = true;
      scene.add(sprites);
    } else {
      const positions = new StorageInstancedBufferAttribute(new Float32Array(PARTICLE_FLOATS), PARTICLE_FLOATS);
      adoptGpuBuffer(renderer, positions, fluid.positionBuffer);
      const material = standard({ color: new Color(0.15, 0.4, 0.85), roughness: 0.15 });
      // instanceIndex is TSL's shared node constant; @types/three types it as a class it was not constructed by.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
      const centre = storage(positions, 'vec4', fluid.capacity).element(instanceIndex).xyz;
      // A quad facing the camera (its corners along the camera's right and up), lit as the sphere
      // it stands for: the view-space normal rises out of the quad towards the camera.
      material.positionNode = centre.add(cameraWorldMatrix.mul(vec4(positionLocal.xy.mul(radius), 0, 0)).xyz);
      const corner = uv().mul(2).sub(1);
      const squared = corner.dot(corner);
      material.normalNode = vec3(corner, sqrt(float(1).sub(squared).max(0)));
      material.maskNode = squared.lessThanEqual(1);
      const quad = new PlaneGeometry(2, 2);
      disposables.push(quad);
      const spheres = new Mesh(quad, material);
      spheres.count = fluid.count;
      // Where the particles are is known only on the GPU: no bounds to cull by.
      spheres.frustumCulled = false;
      spheres.receiveShadow = true;
      scene.add(spheres);
    }
  }

  const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 100);
  return {
    scene,
    camera,
    lighting,
    pointLights,
    characters,
    fluid,
    extent: EXTENT,
    // The count the node uploaded for the frame (its `_lightsCount` uniform): its public light
    // lists are restored to the previous frame's after each render (Lighting.finishRender).
    clusteredLightCount: () => (lighting instanceof CulledLighting ? lighting.stats.culledLights : (lighting.getNode(scene) as unknown as { _lightsCount: { value: number } })._lightsCount.value),
    beforeRender() {
      if (lighting instanceof CulledLighting) lighting.update(scene, camera);
    },
    animate(time) {
      for (let i = 0; i < lightCount; i++) {
        const phase = i * 0.7;
        pointLights[i]!.position.set(lightBase[i * 3]! + Math.sin(time * 0.6 + phase) * 0.4, lightBase[i * 3 + 1]! + Math.sin(time * 1.1 + phase) * 0.2, lightBase[i * 3 + 2]! + Math.cos(time * 0.5 + phase) * 0.4);
      }
      if (!character || !pose) return;
      const { skeleton, walk } = character;
      if (crowd) {
        // render's root transform: a turn of -angle about y, then the point on the circle.
        const root = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
        for (let c = 0; c < characterCount; c++) {
          const cx = paths[c * 4]!, cz = paths[c * 4 + 1]!, radius = paths[c * 4 + 2]!, start = paths[c * 4 + 3]!;
          const angle = start + (time * 1.2) / radius;
          const s = Math.sin(-angle), k = Math.cos(-angle);
          sampleClip(walk, time + c * 0.13, pose);
          root[0] = k;
          root[2] = -s;
          root[8] = s;
          root[10] = k;
          root[12] = cx + Math.cos(angle) * radius;
          root[14] = cz + Math.sin(angle) * radius;
          computePalette(skeleton, pose, crowd.palette, { scratch: crowd.scratch, rootTransform: root });
          crowd.skinning.writePalette(crowd.walkers[c]!.palette, crowd.palette);
        }
        const device = deviceOf(renderer);
        const encoder = device.createCommandEncoder({ label: 'courtyard.skinning' });
        crowd.skinning.skin(encoder);
        device.queue.submit([encoder.finish()]);
        return;
      }
      for (let c = 0; c < characterCount; c++) {
        const cx = paths[c * 4]!, cz = paths[c * 4 + 1]!, radius = paths[c * 4 + 2]!, start = paths[c * 4 + 3]!;
        const angle = start + (time * 1.2) / radius;
        sampleClip(walk, time + c * 0.13, pose);
        const bones = characterBones[c]!;
        for (let n = 0; n < skeleton.nodeCount; n++) {
          const bone = bones[n]!;
          bone.position.fromArray(pose.translations, n * 3);
          bone.quaternion.fromArray(pose.rotations, n * 4);
          bone.scale.fromArray(pose.scales, n * 3);
        }
        // render's root transform: a turn of -angle about y, then the point on the circle.
        const mesh = characters[c]!;
        mesh.position.set(cx + Math.cos(angle) * radius, 0, cz + Math.sin(angle) * radius);
        mesh.rotation.set(0, -angle, 0);
      }
    },
    setView(view) {
      camera.fov = (view.fovY * 180) / Math.PI;
      camera.aspect = view.width / view.height;
      camera.near = view.near;
      camera.position.set(...view.eye);
      camera.up.set(0, 1, 0);
      camera.lookAt(...view.target);
      camera.updateProjectionMatrix();
    },
    destroy() {
      for (const each of disposables) each.dispose();
      lighting.dispose();
      fluid?.destroy();
    },
  };
}

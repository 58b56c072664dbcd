// Lights culled by @cuttle/gpu-culling and shaded by three's materials from the tiles, against the
// same lights shaded by three its own way (every light in every pixel): the same pixels.
import { entitiesPerShadedPixel } from '@cuttle/gpu-culling';
import { gpuTest } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { BoxGeometry, Color, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, PlaneGeometry, PointLight, RenderTarget, Scene, SpotLight, type Camera } from 'three/webgpu';
import { CulledLighting, isCulledLight, ThreeError, type CulledLightingOptions } from '../src/index.ts';
import { nodeThree, type NodeThree } from './three-node.ts';

const [WIDTH, HEIGHT] = [128, 96];

/** A floor, boxes, a dark point light without range (three's own), 60 small point lights and 3 spot lights, all seeded; a glass pane if asked. */
function litYard(lights = 60, withGlass = false): { scene: Scene; camera: PerspectiveCamera } {
  let x = 7;
  const random = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const scene = new Scene();
  scene.background = new Color(0x101418);
  const floor = new Mesh(new PlaneGeometry(20, 20), new MeshStandardNodeMaterial({ color: 0x9a9088, roughness: 0.7 }));
  floor.rotation.x = -Math.PI / 2;
  scene.add(floor);
  for (let i = 0; i < 6; i++) {
    const box = new Mesh(new BoxGeometry(1, 1 + i * 0.3, 1), new MeshStandardNodeMaterial({ color: 0x7088a0, roughness: 0.4, metalness: 0.2 }));
    box.position.set(-5 + i * 2, 0.5, -2 + (i % 3));
    scene.add(box);
  }
  if (withGlass) {
    const glass = new Mesh(new PlaneGeometry(4, 2), new MeshStandardNodeMaterial({ color: 0x80c0ff, transparent: true, opacity: 0.3 }));
    glass.position.set(1, 1.2, 3);
    scene.add(glass);
  }
  // Without a range: three shades it its own way, next to the culled lights.
  scene.add(new PointLight(0x202020, 0.5, 0));
  for (let i = 0; i < lights; i++) {
    const light = new PointLight(new Color().setHSL(random(), 0.8, 0.6), 2 + random() * 3, 1.5 + random() * 2.5, 2);
    light.position.set((random() * 2 - 1) * 8, 0.2 + random() * 1.5, (random() * 2 - 1) * 7);
    scene.add(light);
  }
  for (let i = 0; i < 3; i++) {
    const spot = new SpotLight(0xfff0d0, 12, 9, 0.5, 0.3, 2);
    spot.position.set(-4 + i * 4, 4, 1);
    spot.target.position.set(-4 + i * 4, 0, 0);
    scene.add(spot, spot.target);
  }
  const camera = new PerspectiveCamera(55, WIDTH / HEIGHT, 0.1, 60);
  camera.position.set(0, 6, 11);
  camera.lookAt(0, 0, 0);
  return { scene, camera };
}

async function frame(three: NodeThree, scene: Scene, camera: Camera, lighting?: CulledLighting): Promise<Uint8Array> {
  lighting?.update(scene, camera);
  three.render(scene, camera);
  return three.read();
}

/** Pixels whose colour differs by more than `tolerance` levels in any channel, and pixels lit above black. */
function compare(a: Uint8Array, b: Uint8Array, tolerance = 2): { differing: number; lit: number } {
  let differing = 0, lit = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i]! + a[i + 1]! + a[i + 2]! > 60) lit++;
    if ([0, 1, 2].some((c) => Math.abs(a[i + c]! - b[i + c]!) > tolerance)) differing++;
  }
  return { differing, lit };
}

async function culledAgainstThree(device: GPUDevice, options: CulledLightingOptions): Promise<{ ours: Uint8Array; theirs: Uint8Array; lighting: CulledLighting }> {
  const plain = await nodeThree(device, WIDTH, HEIGHT);
  const yard = litYard(60, true);
  const theirs = await frame(plain, yard.scene, yard.camera);
  await plain.dispose();
  const three = await nodeThree(device, WIDTH, HEIGHT);
  const lighting = new CulledLighting(three.renderer, options);
  three.renderer.lighting = lighting;
  const again = litYard(60, true);
  const ours = await frame(three, again.scene, again.camera, lighting);
  return { ours, theirs, lighting };
}

for (const [name, options] of [['flat-bits', { technique: 'flat-bits' }], ['flat-bits without lists', { technique: 'flat-bits', tileLists: false }], ['compaction', { technique: 'compaction' }]] as const) {
  gpuTest(`${name}: three's materials, opaque and transparent, shade the culled lights as three shades the same lights itself`, async ({ device }) => {
    const { ours, theirs, lighting } = await culledAgainstThree(device, { ...options, maxLights: 256 });
    if (options.technique === 'flat-bits') {
      // 10 words a tile: up to 8 lights make a list, fuller tiles keep bits (unless lists are off).
      const { tiles, entitiesPerTile } = await lighting.culler.read();
      const forms = new Set(Array.from(entitiesPerTile, (n, t) => (n === 0 ? 'empty' : tiles[t * lighting.culler.wordsPerTile]! >>> 31 ? 'list' : 'bits')));
      expect([...forms].sort()).toEqual('tileLists' in options ? ['bits', 'empty'] : ['bits', 'empty', 'list']);
    }
    expect(lighting.stats).toEqual({ culledLights: 63, tilesX: 8, tilesY: 6 });
    const { differing, lit } = compare(ours, theirs);
    // Most of the frame is lit by the small lights: a missing light would show.
    expect(lit).toBeGreaterThan(WIDTH * HEIGHT * 0.3);
    // Sums in another order round differently in a few pixels; nothing else may differ.
    expect(differing).toBeLessThanOrEqual(WIDTH * HEIGHT * 0.002);
    // The culling does work: a shaded pixel walks a few of the 63 lights, not all.
    const perPixel = entitiesPerShadedPixel(await lighting.culler.read());
    expect(perPixel).toBeGreaterThan(1);
    expect(perPixel).toBeLessThan(20);
    lighting.dispose();
  });
}

gpuTest('lights that move are culled where they are now', async ({ device }) => {
  const three = await nodeThree(device, WIDTH, HEIGHT);
  const lighting = new CulledLighting(three.renderer, { maxLights: 64 });
  three.renderer.lighting = lighting;
  const { scene, camera } = litYard(1);
  for (const object of [...scene.children]) if (object instanceof SpotLight) scene.remove(object);
  const light = scene.children.find((object): object is PointLight => object instanceof PointLight && object.distance > 0)!;
  light.intensity = 30;
  light.distance = 3;
  light.position.set(-4, 0.5, 2);
  const brightness = (pixels: Uint8Array, px: number, py: number): number => {
    const i = (py * WIDTH + px) * 4;
    return pixels[i]! + pixels[i + 1]! + pixels[i + 2]!;
  };
  // Where (-4, 0, 2) and (4, 0, 2) on the floor land in the frame.
  const left = camera.clone(), project = (x: number, z: number): [number, number] => {
    const p = left.position.clone().set(x, 0, z).project(camera);
    return [Math.round((p.x * 0.5 + 0.5) * WIDTH), Math.round((0.5 - p.y * 0.5) * HEIGHT)];
  };
  const before = await frame(three, scene, camera, lighting);
  const [lx, ly] = project(-4, 2), [rx, ry] = project(4, 2);
  light.position.set(4, 0.5, 2);
  const after = await frame(three, scene, camera, lighting);
  expect(brightness(before, lx, ly)).toBeGreaterThan(brightness(after, lx, ly) + 60);
  expect(brightness(after, rx, ry)).toBeGreaterThan(brightness(before, rx, ry) + 60);
  lighting.dispose();
  await three.dispose();
});

gpuTest('transparent objects stay out of the depth the opaque tiles are culled against, and get tiles of their own', async ({ device }) => {
  const three = await nodeThree(device, WIDTH, HEIGHT);
  const lighting = new CulledLighting(three.renderer, { maxLights: 256 });
  three.renderer.lighting = lighting;
  const tileDepths = async (withGlass: boolean): Promise<Float32Array> => {
    const { scene, camera } = litYard(60, withGlass);
    await frame(three, scene, camera, lighting);
    return (await lighting.culler.read()).tileInfo.slice();
  };
  const open = await tileDepths(false), glazed = await tileDepths(true);
  expect(glazed).toEqual(open);
  // The glass's tiles: nearer than the floor behind it where the pane covers them.
  const glassTiles = (await lighting.transparentCuller!.read()).tileInfo;
  let nearer = 0;
  for (let t = 0; t < glassTiles.length; t += 12) if (glassTiles[t + 3]! < open[t + 3]! - 0.5) nearer++;
  expect(nearer).toBeGreaterThanOrEqual(2);
  lighting.dispose();
  await three.dispose();
});

gpuTest('a larger frame gets a larger tile grid, and materials bind the new tiles', async ({ device }) => {
  const three = await nodeThree(device, WIDTH, HEIGHT);
  const lighting = new CulledLighting(three.renderer, { maxLights: 256 });
  three.renderer.lighting = lighting;
  const { scene, camera } = litYard();
  await frame(three, scene, camera, lighting);
  const large = new RenderTarget(WIDTH * 2, HEIGHT * 2);
  three.renderer.setRenderTarget(large);
  lighting.update(scene, camera);
  three.renderer.render(scene, camera);
  expect(lighting.stats).toMatchObject({ tilesX: 16, tilesY: 12 });
  const pixels = new Uint8Array((await three.renderer.readRenderTargetPixelsAsync(large, 0, 0, WIDTH * 2, HEIGHT * 2)).buffer);
  // Against three shading the same lights itself at the larger size.
  const plain = await nodeThree(device, WIDTH * 2, HEIGHT * 2);
  const yard = litYard();
  const theirs = await frame(plain, yard.scene, yard.camera);
  const { differing } = compare(pixels, theirs);
  expect(differing).toBeLessThanOrEqual(WIDTH * HEIGHT * 4 * 0.002);
  await plain.dispose();
  lighting.dispose();
  large.dispose();
  await three.dispose();
});

gpuTest('lights the culling cannot stand in for stay with three; too many lights are refused before anything renders', async ({ device }) => {
  const shadowed = new PointLight(0xffffff, 1, 5);
  shadowed.castShadow = true;
  expect(isCulledLight(shadowed)).toBe(false);
  expect(isCulledLight(new PointLight(0xffffff, 1, 0))).toBe(false);
  expect(isCulledLight(new SpotLight(0xffffff, 1, 5, Math.PI / 2))).toBe(false);
  expect(isCulledLight(new PointLight(0xffffff, 1, 5))).toBe(true);
  expect(isCulledLight(new SpotLight(0xffffff, 1, 5, 0.6))).toBe(true);

  const three = await nodeThree(device, WIDTH, HEIGHT);
  expect(() => new CulledLighting(three.renderer, { maxLights: 0 })).toThrow(ThreeError);
  expect(() => new CulledLighting(three.renderer, { technique: 'lists' as 'compaction' })).toThrow(/technique/);
  const lighting = new CulledLighting(three.renderer, { maxLights: 32 });
  three.renderer.lighting = lighting;
  const { scene, camera } = litYard();
  const target = three.renderer.getRenderTarget();
  expect(() => { lighting.update(scene, camera); }).toThrow(/63 point and spot lights to cull, more than maxLights \(32\)/);
  // Nothing changed: the scene and the renderer's target are as they were.
  expect(three.renderer.getRenderTarget()).toBe(target);
  expect(scene.overrideMaterial).toBeNull();
  expect(scene.children.every((object) => object.visible)).toBe(true);
  expect(lighting.stats.culledLights).toBe(0);
  // The lights node hands three the lights it keeps.
  const node = lighting.createNode([shadowed, new PointLight(0xffffff, 1, 5)]);
  expect(node.getBuiltinLights()).toEqual([shadowed]);
  lighting.dispose();
  await three.dispose();
});

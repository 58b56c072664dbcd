// Emissive and occlusion textures (glTF's emissiveTexture and occlusionTexture): glow only where
// the emissive texture is coloured, occlusion darkening ambient light but not a light's, the
// ORM packing (one texture as occlusion and metallic-roughness), forward and deferred shading
// agreeing, and refused inputs changing nothing.
import { describe, expect, it } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { planeMesh, RenderError, RenderScene, type MaterialInput, type Renderer } from '../src/index.ts';
import { MATERIAL_FLAG, packMaterial } from '../src/scene/materials.ts';
import { camera, newRenderer, renderFrame, type Frame } from './helpers.ts';

const SIZE = 16;
/** Left of the plane (u < 0.5) and right of it, well away from the seam. */
const LEFT: [number, number, number] = [-1.8, 0, 0.5];
const RIGHT: [number, number, number] = [1.8, 0, 0.5];
const VIEW = camera([0, 5, 5], [0, 0, 0]);

/** A SIZE x SIZE RGBA8 texture: `left` texels where u < 0.5, `right` ones elsewhere. */
function halves(left: readonly number[], right: readonly number[]): { width: number; height: number; data: Uint8Array<ArrayBuffer> } {
  const data = new Uint8Array(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) data.set(x < SIZE / 2 ? left : right, (y * SIZE + x) * 4);
  return { width: SIZE, height: SIZE, data };
}

/** One plane (uv 0..1 over x and z from -4 to 4) with the material `make` returns. */
function plane(device: GPUDevice, make: (scene: RenderScene) => MaterialInput): { scene: RenderScene; material: number } {
  const scene = new RenderScene(device);
  const material = scene.addMaterial(make(scene));
  scene.addInstance(scene.addMesh(planeMesh(8, 1)), material);
  return { scene, material };
}

function maxDifference(a: Frame, b: Frame): number {
  let most = 0;
  for (let i = 0; i < a.pixels.length; i++) most = Math.max(most, Math.abs(a.pixels[i]! - b.pixels[i]!));
  return most;
}

type Lighting = 'ambient' | 'sun';

/** Renders `scene` lit by ambient light alone or by the sun alone, with the given shading. */
async function render(device: GPUDevice, renderer: Renderer, scene: RenderScene, opaqueShading: 'deferred' | 'forward', lighting: Lighting): Promise<Frame> {
  renderer.opaqueShading = opaqueShading;
  renderer.ambient = lighting === 'ambient' ? [0.6, 0.6, 0.6] : [0, 0, 0];
  scene.setSun(lighting === 'sun' ? { direction: [0, -1, -0.2], color: [1, 1, 1], intensity: 1.5 } : undefined);
  return renderFrame(device, renderer, scene, VIEW);
}

describe('emissive textures', () => {
  gpuTest('glow only where the texture is coloured, the same forward and deferred; factor 0 gives none', async ({ device }) => {
    const renderer = newRenderer(device, { ssao: false, ambient: [0, 0, 0] });
    const { scene } = plane(device, (s) => ({
      baseColor: [0, 0, 0, 1],
      emissive: [1, 1, 1],
      emissiveTexture: s.addTexture(halves([0, 0, 0, 255], [255, 140, 30, 255]), { srgb: true, mipmaps: false }),
    }));
    expect(scene.hasEmissive).toBe(true);
    const frames: Frame[] = [];
    for (const shading of ['deferred', 'forward'] as const) {
      renderer.opaqueShading = shading;
      const frame = await renderFrame(device, renderer, scene, VIEW);
      const dark = frame.at(LEFT), glow = frame.at(RIGHT);
      expect(Math.max(...dark), `${shading}: no glow where the texture is black`).toBeLessThan(4);
      expect(glow[0], `${shading}: orange glow`).toBeGreaterThan(150);
      expect(glow[0]).toBeGreaterThan(glow[1] + 20);
      expect(glow[1]).toBeGreaterThan(glow[2] + 20);
      frames.push(frame);
    }
    expect(maxDifference(frames[0]!, frames[1]!)).toBeLessThanOrEqual(3);
    // glTF: the texture multiplies the factor, so with no factor it gives no light.
    const texture = scene.material(0).input.emissiveTexture!;
    scene.updateMaterial(0, { baseColor: [0, 0, 0, 1], emissiveTexture: texture });
    expect(scene.hasEmissive).toBe(false);
    for (const shading of ['deferred', 'forward'] as const) {
      renderer.opaqueShading = shading;
      expect(Math.max(...(await renderFrame(device, renderer, scene, VIEW)).at(RIGHT))).toBeLessThan(4);
    }
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('blended and masked materials glow through the texture too', async ({ device }) => {
    const renderer = newRenderer(device, { ssao: false, ambient: [0, 0, 0] });
    for (const alphaMode of ['blend', 'mask'] as const) {
      const { scene } = plane(device, (s) => ({
        baseColor: [0, 0, 0, alphaMode === 'blend' ? 0.5 : 1],
        alphaMode,
        emissive: [1, 1, 1],
        emissiveTexture: s.addTexture(halves([0, 0, 0, 255], [40, 255, 60, 255]), { srgb: true, mipmaps: false }),
      }));
      const frame = await renderFrame(device, renderer, scene, VIEW);
      expect(Math.max(...frame.at(LEFT)), alphaMode).toBeLessThan(4);
      expect(frame.at(RIGHT)[1], alphaMode).toBeGreaterThan(frame.at(RIGHT)[0] + 40);
      scene.destroy();
    }
    renderer.destroy();
  });
});

describe('occlusion textures', () => {
  // Red 64 (occlusion 0.25) on the left, 255 (none) on the right; linear data.
  const OCCLUSION = halves([64, 255, 255, 255], [255, 255, 255, 255]);
  const BASE: MaterialInput = { baseColor: [0.8, 0.8, 0.8, 1], roughness: 1, metallic: 0 };

  gpuTest('darken ambient light but not the sun, forward and deferred alike; strength 0 is no texture', async ({ device }) => {
    const renderer = newRenderer(device, { ssao: false });
    const plain = plane(device, () => BASE).scene;
    const occluded = plane(device, (s) => ({ ...BASE, occlusionTexture: s.addTexture(OCCLUSION, { mipmaps: false }) }));
    expect(occluded.scene.hasGlowTarget).toBe(true);
    expect(occluded.scene.hasEmissive).toBe(false);
    for (const lighting of ['ambient', 'sun'] as const) {
      const frames: Frame[] = [];
      for (const shading of ['deferred', 'forward'] as const) {
        const reference = await render(device, renderer, plain, shading, lighting);
        const frame = await render(device, renderer, occluded.scene, shading, lighting);
        const lit = reference.at(LEFT);
        expect(lit[0], `${shading}, ${lighting}: the plane is lit`).toBeGreaterThan(60);
        // Unoccluded texels match the plain material; occluded ones are darker in ambient light only.
        expect(Math.abs(frame.at(RIGHT)[0] - reference.at(RIGHT)[0])).toBeLessThanOrEqual(2);
        if (lighting === 'ambient') expect(frame.at(LEFT)[0], `${shading}: ambient occluded`).toBeLessThan(lit[0] * 0.7);
        else expect(maxDifference(frame, reference), `${shading}: the sun is not occluded`).toBeLessThanOrEqual(1);
        frames.push(frame);
      }
      expect(maxDifference(frames[0]!, frames[1]!), `${lighting}: forward matches deferred`).toBeLessThanOrEqual(3);
    }
    // Strength 0: the same frame as no texture at all; 0.5 between.
    const texture = occluded.scene.material(occluded.material).input.occlusionTexture!;
    occluded.scene.updateMaterial(occluded.material, { ...BASE, occlusionTexture: texture, occlusionStrength: 0 });
    expect(occluded.scene.hasGlowTarget).toBe(false);
    for (const shading of ['deferred', 'forward'] as const) {
      expect(maxDifference(await render(device, renderer, occluded.scene, shading, 'ambient'), await render(device, renderer, plain, shading, 'ambient'))).toBe(0);
    }
    occluded.scene.updateMaterial(occluded.material, { ...BASE, occlusionTexture: texture, occlusionStrength: 0.5 });
    const full = (await render(device, renderer, plain, 'deferred', 'ambient')).at(LEFT)[0];
    const halfway = (await render(device, renderer, occluded.scene, 'deferred', 'ambient')).at(LEFT)[0];
    expect(halfway).toBeLessThan(full - 5);
    expect(halfway).toBeGreaterThan(full * 0.55);
    renderer.destroy();
    plain.destroy();
    occluded.scene.destroy();
  });

  gpuTest('one ORM texture as occlusion and metallic-roughness draws what two textures do', async ({ device }) => {
    const renderer = newRenderer(device, { ssao: false });
    // Red: occlusion; green: roughness (rougher on the right); blue: metallic (none).
    const orm = halves([64, 200, 0, 255], [255, 255, 0, 255]);
    const packed = plane(device, (s) => {
      const id = s.addTexture(orm, { mipmaps: false });
      return { ...BASE, metallicRoughnessTexture: id, occlusionTexture: id };
    }).scene;
    const separate = plane(device, (s) => ({
      ...BASE,
      metallicRoughnessTexture: s.addTexture(halves([0, 200, 0, 255], [0, 255, 0, 255]), { mipmaps: false }),
      occlusionTexture: s.addTexture(OCCLUSION, { mipmaps: false }),
    })).scene;
    for (const shading of ['deferred', 'forward'] as const) {
      for (const lighting of ['ambient', 'sun'] as const) {
        const a = await render(device, renderer, packed, shading, lighting);
        const b = await render(device, renderer, separate, shading, lighting);
        expect(maxDifference(a, b), `${shading}, ${lighting}`).toBe(0);
        if (lighting === 'ambient') expect(a.at(LEFT)[0]).toBeLessThan(a.at(RIGHT)[0] * 0.7);
      }
    }
    renderer.destroy();
    packed.destroy();
    separate.destroy();
  });
});

describe('material texture inputs', () => {
  gpuTest('an unknown texture or a strength out of 0..1 throws a RenderError and changes nothing', ({ device }) => {
    const scene = new RenderScene(device);
    const texture = scene.addTexture(halves([0, 0, 0, 255], [255, 255, 255, 255]));
    const material = scene.addMaterial({ baseColor: [0.5, 0.5, 0.5, 1] });
    const input = scene.material(material).input;
    const bad: [MaterialInput, RegExp][] = [
      [{ emissive: [1, 1, 1], emissiveTexture: 7 }, /emissiveTexture 7 is not a texture of this scene \(add it with addTexture first\)/],
      [{ occlusionTexture: 7 }, /occlusionTexture 7 is not a texture of this scene/],
      [{ occlusionTexture: texture, occlusionStrength: 1.5 }, /occlusionStrength must be in 0\.\.1, got 1\.5/],
      [{ occlusionTexture: texture, occlusionStrength: -0.1 }, /occlusionStrength must be in 0\.\.1/],
      [{ occlusionTexture: texture, occlusionStrength: Number.NaN }, /occlusionStrength must be in 0\.\.1/],
    ];
    for (const [given, message] of bad) {
      expect(() => scene.addMaterial(given)).toThrow(RenderError);
      expect(() => scene.addMaterial(given)).toThrow(message);
      expect(() => { scene.updateMaterial(material, given); }).toThrow(message);
    }
    expect(() => scene.material(material + 1)).toThrow(/does not exist \(there are 1\)/);
    expect(scene.material(material).input).toEqual(input);
    expect(scene.hasGlowTarget).toBe(false);
    expect(scene.hasEmissive).toBe(false);
    scene.destroy();
    return Promise.resolve();
  });

  it('the material block: flags keep their bits, textures flagged only where they change something', () => {
    expect(MATERIAL_FLAG).toMatchObject({ baseColorTexture: 1, metallicRoughnessTexture: 2, normalTexture: 4, mask: 8, blend: 16, doubleSided: 32, caustics: 64 });
    const flags = (input: MaterialInput): number => new Uint32Array(packMaterial(input).buffer)[11]!;
    const strength = (input: MaterialInput): number => packMaterial(input)[12]!;
    expect(flags({ emissiveTexture: 0 }) & MATERIAL_FLAG.emissiveTexture).toBe(0);
    expect(flags({ emissiveTexture: 0, emissive: [0, 0.5, 0] }) & MATERIAL_FLAG.emissiveTexture).toBe(MATERIAL_FLAG.emissiveTexture);
    expect(flags({ occlusionTexture: 0 }) & MATERIAL_FLAG.occlusionTexture).toBe(MATERIAL_FLAG.occlusionTexture);
    expect(flags({ occlusionTexture: 0, occlusionStrength: 0 }) & MATERIAL_FLAG.occlusionTexture).toBe(0);
    expect(strength({})).toBe(1);
    expect(strength({ occlusionTexture: 0, occlusionStrength: 0.25 })).toBe(0.25);
  });
});

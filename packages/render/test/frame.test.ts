// Whole frames: the sun and its shadow, 0, 1 and 4,096 culled lights, a reference picture,
// alpha-masked materials, motion vectors, pass timings, and bad input.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { decodePng, encodePng } from '@cuttle/gui';
import { boxMesh, PASSES, planeMesh, RenderError, RenderScene, sphereMesh } from '../src/index.ts';
import { brightness, camera, floorAndBox, HEIGHT, newRenderer, renderFrame, translation, WIDTH } from './helpers.ts';

/** An f16's value from its bits. */
function half(h: number): number {
  return (h & 0x7fff) === 0 ? 0 : (h & 0x8000 ? -1 : 1) * 2 ** (((h >> 10) & 31) - 15) * (1 + (h & 1023) / 1024);
}

describe('a frame', () => {
  gpuTest('the sun lights the floor and the box casts a shadow', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1], intensity: 3 });
    const renderer = newRenderer(device);
    const frame = await renderFrame(device, renderer, scene);
    const open = frame.at([3, 0, 2]);
    const shadow = frame.at([-0.9, 0, -0.75]);
    expect(brightness(open)).toBeGreaterThan(100);
    expect(brightness(shadow)).toBeLessThan(brightness(open) * 0.4);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('0, 1 and 4,096 culled lights draw without errors, each adding light', async ({ device }) => {
    const light: number[] = [];
    for (const lights of [0, 1, 4096]) {
      const { scene } = floorAndBox(device);
      if (lights === 1) scene.lights.addPointLight({ position: [0, 0.8, 2], range: 3, color: [1, 0.6, 0.3], intensity: 5 });
      for (let i = 0; i < lights && lights > 1; i++) {
        scene.lights.addPointLight({ position: [((i * 7919) % 200) / 10 - 10, 0.3 + (i % 5) * 0.2, ((i * 104729) % 200) / 10 - 10], range: 0.5 + (i % 7) * 0.4, color: [1, 0.6, 0.3], intensity: 3 });
      }
      const renderer = newRenderer(device, { maxLights: 4096 });
      const frame = await renderFrame(device, renderer, scene);
      light.push(frame.pixels.reduce((sum, v, i) => (i % 4 === 3 ? sum : sum + v), 0));
      renderer.destroy();
      scene.destroy();
    }
    // No sun: ambient alone, then one light, then thousands.
    expect(light[1]).toBeGreaterThan(light[0]! * 1.02);
    expect(light[2]).toBeGreaterThan(light[0]! * 2);
  });

  gpuTest('a fixed scene matches its reference picture', async ({ device }) => {
    const scene = new RenderScene(device);
    const floor = scene.addMesh(planeMesh(20, 4));
    const box = scene.addMesh(boxMesh(0.5, 1, 0.5));
    const ball = scene.addMesh(sphereMesh(0.7));
    const pane = scene.addMesh(boxMesh(1, 1, 0.05));
    const grey = scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 });
    const gold = scene.addMaterial({ baseColor: [1, 0.8, 0.3, 1], metallic: 1, roughness: 0.3 });
    const red = scene.addMaterial({ baseColor: [1, 0.1, 0.1, 0.5], alphaMode: 'blend', roughness: 0.1 });
    scene.addInstance(floor, grey);
    scene.addInstance(box, grey, translation(0, 1, 0));
    scene.addInstance(ball, gold, translation(2, 0.7, 1));
    scene.addInstance(pane, red, translation(-2, 1.5, 1));
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 0.95, 0.9], intensity: 3 });
    scene.addShadowSpot({ position: [3, 4, -2], direction: [-0.6, -1, 0.4], range: 12, outerAngle: 0.5, color: [0.3, 0.5, 1], intensity: 30 });
    for (let i = 0; i < 40; i++) scene.lights.addPointLight({ position: [Math.sin(i) * 6, 0.5, Math.cos(i * 1.3) * 6], range: 3, color: [0.5 + 0.5 * Math.sin(i), 0.5 + 0.5 * Math.cos(i), 0.6], intensity: 4 });
    const renderer = newRenderer(device);
    const frame = await renderFrame(device, renderer, scene, camera([4, 5, 9], [0, 0.5, 0]));
    const path = new URL('fixtures/frame.png', import.meta.url);
    if (process.env.CUTTLE_UPDATE_REFERENCES || !existsSync(path)) {
      mkdirSync(new URL('fixtures/', import.meta.url), { recursive: true });
      writeFileSync(path, await encodePng({ width: WIDTH, height: HEIGHT, channels: 4, data: frame.pixels }));
      if (!process.env.CUTTLE_UPDATE_REFERENCES) throw new Error('test/fixtures/frame.png was missing and has been written: look at it, then run again.');
    }
    const reference = await decodePng(readFileSync(path));
    let total = 0, far = 0;
    for (let i = 0; i < frame.pixels.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(frame.pixels[i + c]! - reference.data[i + c]!);
        total += d;
        if (d > 24) far++;
      }
    }
    expect(total / (WIDTH * HEIGHT * 3), 'mean difference per channel').toBeLessThan(1.5);
    expect(far, 'channels more than 24 levels off').toBeLessThan(WIDTH * HEIGHT * 3 * 0.005);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('masked materials cut holes by their alpha', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const pixels = new Uint8Array(4 * 4 * 4);
    for (let i = 0; i < 16; i++) pixels.set([255, 255, 255, i % 2 === 0 ? 255 : 0], i * 4);
    const checker = scene.addTexture({ width: 4, height: 4, data: pixels });
    const fence = scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: checker, alphaMode: 'mask', alphaCutoff: 0.5, doubleSided: true });
    // A single quad standing up (a box would show its back face through the front's holes).
    const panel = scene.addMesh(planeMesh(4, 1));
    scene.addInstance(panel, fence, new Float32Array([1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 2, 3, 1]));
    scene.setSun({ direction: [0, -1, -1], color: [1, 1, 1], intensity: 2 });
    const renderer = newRenderer(device);
    const frame = await renderFrame(device, renderer, scene, camera([0, 2, 8], [0, 2, 0]));
    // Four 1-unit columns alternate between the fence and what is behind it: three edges.
    const row = Array.from({ length: 40 }, (_, k) => brightness(frame.at([-1.9 + k * 0.095, 2.5, 3])));
    let changes = 0;
    for (let k = 1; k < row.length; k++) if (Math.abs(row[k]! - row[k - 1]!) > 30) changes++;
    expect(changes).toBeGreaterThanOrEqual(3);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('a moving box writes motion vectors; a still floor none', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1] });
    const renderer = newRenderer(device);
    await renderFrame(device, renderer, scene);
    scene.setTransform(1, translation(0.5, 1, 0));
    await renderFrame(device, renderer, scene);
    // rgba16float: 8 bytes a texel, motion in x and y.
    const texels = new Uint16Array((await readTexture(device, renderer.targets!.motion, 8)).buffer);
    const [bx, by] = [Math.floor(WIDTH / 2), Math.floor(HEIGHT * 0.45)];
    const boxMotion = half(texels[(by * WIDTH + bx) * 4]!);
    const floorMotion = half(texels[((HEIGHT - 5) * WIDTH + 5) * 4]!);
    expect(boxMotion).toBeGreaterThan(0.005);
    expect(Math.abs(floorMotion)).toBeLessThan(1e-4);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('still surfaces seen from a moving camera take the camera\'s motion (computed from the depth)', async ({ device }) => {
    // The same two frames twice: the floor and box still, then nudged by a micron in the second
    // frame so the opaque pass writes their motion itself, from their vertices.
    const motions: Float32Array[] = [];
    for (const nudge of [false, true]) {
      const { scene } = floorAndBox(device);
      scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1] });
      const renderer = newRenderer(device);
      await renderFrame(device, renderer, scene, camera([0, 6, 10]));
      if (nudge) {
        scene.setTransform(0, translation(0, 1e-6, 0));
        scene.setTransform(1, translation(0, 1 + 1e-6, 0));
      }
      await renderFrame(device, renderer, scene, camera([2, 7, 8.5], [0.5, 0, 0.3]));
      const texels = new Uint16Array((await readTexture(device, renderer.targets!.motion, 8)).buffer);
      motions.push(Float32Array.from({ length: WIDTH * HEIGHT * 2 }, (_, k) => half(texels[(k >> 1) * 4 + (k & 1)]!)));
      renderer.destroy();
      scene.destroy();
    }
    const [still, drawn] = motions as [Float32Array, Float32Array];
    let surface = 0, worst = 0, total = 0;
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      const magnitude = Math.hypot(drawn[i * 2]!, drawn[i * 2 + 1]!);
      if (magnitude === 0) continue;
      surface++;
      total += magnitude;
      worst = Math.max(worst, Math.hypot(still[i * 2]! - drawn[i * 2]!, still[i * 2 + 1]! - drawn[i * 2 + 1]!));
    }
    expect(surface).toBeGreaterThan(WIDTH * HEIGHT * 0.5);
    expect(total / surface, 'mean motion (UV units)').toBeGreaterThan(0.03);
    // f16 storage and the depth's reprojection against the vertices' own: a hundredth of a pixel.
    expect(worst).toBeLessThan(1e-3);
  });

  gpuTest('every pass is timed when the device has timestamp-query', async ({ device, hasTimestamps }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1] });
    const renderer = newRenderer(device);
    await renderFrame(device, renderer, scene);
    const timings = await renderer.readTimings();
    if (hasTimestamps) {
      // Tiny passes may read 0 where timestamps are coarse; every pass reads a number, the big ones more than 0.
      for (const pass of PASSES) expect(timings[pass], pass).toBeGreaterThanOrEqual(0);
      for (const pass of ['shadows', 'opaque', 'lighting'] as const) expect(timings[pass], pass).toBeGreaterThan(0);
    } else {
      expect(timings).toEqual({});
    }
    renderer.destroy();
    scene.destroy();
  });
});

describe('bad input', () => {
  gpuTest('is refused with a RenderError before anything changes', async ({ device }) => {
    const scene = new RenderScene(device);
    expect(() => scene.addMesh({ positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, NaN, 0]), normals: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) })).toThrow(/NaN/);
    expect(() => scene.addMesh({ positions: new Float32Array(9), normals: new Float32Array(9), indices: new Uint32Array([0, 1, 3]) })).toThrow(/past the last vertex/);
    expect(() => scene.addMaterial({ roughness: 2 })).toThrow(/roughness must be in 0..1/);
    expect(() => scene.addMaterial({ baseColorTexture: 3 })).toThrow(/not a texture/);
    expect(() => scene.addMaterial({ caustics: true })).toThrow(/blend/);
    expect(() => scene.addInstance(0, 0)).toThrow(RenderError);
    expect(() => { scene.setSun({ direction: [0, 0, 0], color: [1, 1, 1] }); }).toThrow(/zero/);
    for (let i = 0; i < 4; i++) scene.addShadowSpot({ position: [0, 1, 0], direction: [0, -1, 0], range: 5, outerAngle: 0.5, color: [1, 1, 1] });
    expect(() => scene.addShadowSpot({ position: [0, 1, 0], direction: [0, -1, 0], range: 5, outerAngle: 0.5, color: [1, 1, 1] })).toThrow(/at most 4/);
    expect(() => newRenderer(device, { shadowMapSize: 3 })).toThrow(/shadowMapSize/);
    const renderer = newRenderer(device);
    const other = new RenderScene(device);
    const target = device.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    expect(() => { renderer.render(device.createCommandEncoder(), other, camera(), { view: target.createView(), width: 0, height: 4 }); }).toThrow(/positive integers/);
    expect(() => { renderer.render(device.createCommandEncoder(), other, { view: new Float32Array(16), projection: new Float32Array(16) }, { view: target.createView(), width: 4, height: 4 }); }).toThrow();
    expect(() => { renderer.render(device.createCommandEncoder(), other, camera(), { view: target.createView(), texture: target, width: 8, height: 4 }); }).toThrow(/target.texture is 4x4 rgba8unorm; it must be the 8x4/);
    renderer.destroy();
    scene.destroy();
    other.destroy();
    await device.queue.onSubmittedWorkDone();
  });
});

describe('tone mapping', () => {
  gpuTest('into a storage texture by compute: the same picture as the full-screen draw, and timed', async ({ device, hasTimestamps }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1], intensity: 3 });
    const renderer = newRenderer(device);
    const pictures: Uint8Array[] = [];
    for (const storage of [false, true]) {
      // Without RENDER_ATTACHMENT the storage target could not take the draw: the compute pass wrote it.
      const usage = GPUTextureUsage.COPY_SRC | (storage ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.RENDER_ATTACHMENT);
      const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage });
      const encoder = device.createCommandEncoder();
      renderer.render(encoder, scene, camera(), { view: target.createView(), texture: target, width: WIDTH, height: HEIGHT });
      device.queue.submit([encoder.finish()]);
      pictures.push(await readTexture(device, target, 4));
      target.destroy();
    }
    let largest = 0;
    let lit = 0;
    for (let i = 0; i < pictures[0]!.length; i++) {
      largest = Math.max(largest, Math.abs(pictures[0]![i]! - pictures[1]![i]!));
      if (i % 4 === 0 && pictures[1]![i]! > 60) lit++;
    }
    expect(largest).toBeLessThanOrEqual(1);
    expect(lit).toBeGreaterThan(WIDTH * HEIGHT * 0.3);
    if (hasTimestamps) expect((await renderer.readTimings()).tonemap).toBeGreaterThan(0);
    renderer.destroy();
    scene.destroy();
  });
});

describe('GUI on top', () => {
  gpuTest('a @cuttle/gui overlay draws over the tone-mapped frame', async ({ device }) => {
    const { Gui, GuiRenderer } = await import('@cuttle/gui');
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1] });
    const gui = new Gui();
    gui.create('rect', { x: 10, y: 10, width: 30, height: 20, color: 0x00ff00ff });
    const guiRenderer = new GuiRenderer(device, 'rgba8unorm');
    const renderer = newRenderer(device);
    const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene, camera(), { view: target.createView(), width: WIDTH, height: HEIGHT }, [{ gui, renderer: guiRenderer }]);
    device.queue.submit([encoder.finish()]);
    const pixels = await readTexture(device, target, 4);
    const o = (20 * WIDTH + 25) * 4;
    expect([pixels[o], pixels[o + 1], pixels[o + 2]]).toEqual([0, 255, 0]);
    guiRenderer.destroy();
    renderer.destroy();
    scene.destroy();
  });
});

describe('SSAO in the frame', () => {
  gpuTest('ambient light dims in the crease at the foot of the box, not in the open', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const renderer = newRenderer(device, { ambient: [0.6, 0.6, 0.6] });
    const view = camera([3, 3, 4], [0, 0.5, 0]);
    const withAo = await renderFrame(device, renderer, scene, view);
    renderer.ssao = false;
    const without = await renderFrame(device, renderer, scene, view);
    const crease: [number, number, number] = [0.55, 0, 0.3];
    const open: [number, number, number] = [3, 0, -1];
    expect(brightness(withAo.at(crease))).toBeLessThan(brightness(without.at(crease)) * 0.92);
    expect(Math.abs(brightness(withAo.at(open)) - brightness(without.at(open)))).toBeLessThanOrEqual(3);
    renderer.ssaoNormals = 'naive';
    expect(renderer.ssaoPass.normals).toBe('naive');
    renderer.destroy();
    scene.destroy();
  });
});

gpuTest('blended surfaces follow doubleSided like the rest: a single-sided pane is not seen from behind', async ({ device }) => {
  const reds: number[] = [];
  for (const doubleSided of [false, true]) {
    const scene = new RenderScene(device);
    // A plane facing up, seen from below.
    const pane = scene.addMesh(planeMesh(6, 1));
    scene.addInstance(pane, scene.addMaterial({ baseColor: [1, 0.1, 0.1, 0.6], alphaMode: 'blend', doubleSided }), translation(0, 2, 0));
    scene.setSun({ direction: [0, 1, 0.2], color: [1, 1, 1], intensity: 2 });
    const renderer = newRenderer(device, { ambient: [0.3, 0.3, 0.3] });
    const frame = await renderFrame(device, renderer, scene, camera([0, -3, 1], [0, 2, 0]));
    const [r, g] = frame.at([0, 2, 0]);
    reds.push(r - g);
    renderer.destroy();
    scene.destroy();
  }
  expect(reds[0]).toBeLessThan(5);
  expect(reds[1]).toBeGreaterThan(30);
});

gpuTest('the sky stays black where an earlier frame drew a surface (the G-buffer is not cleared)', async ({ device }) => {
  const { scene, box } = floorAndBox(device);
  scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1], intensity: 3 });
  // A tall box whose top stands against the sky, seen from low down.
  const tower = scene.addInstance(box, scene.addMaterial({ baseColor: [0.9, 0.9, 0.9, 1] }), new Float32Array([1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0, 4, -2, 1]));
  const view = camera([0, 1, 8], [0, 3, 0]);
  const renderer = newRenderer(device);
  const first = await renderFrame(device, renderer, scene, view);
  const top: [number, number, number] = [0, 7.5, -1.5];
  expect(Math.max(...first.at(top))).toBeGreaterThan(20);
  scene.setVisible(tower, false);
  const second = await renderFrame(device, renderer, scene, view);
  expect(second.at(top)).toEqual([0, 0, 0]);
  // The whole frame matches what a renderer that never saw the tower draws.
  const fresh = newRenderer(device);
  expect(second.pixels).toEqual((await renderFrame(device, fresh, scene, view)).pixels);
  renderer.destroy();
  fresh.destroy();
  scene.destroy();
});

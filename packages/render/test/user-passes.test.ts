// User passes in the Renderer's frame graph: the two examples (a sky written into 'hdr' in
// compute, an outline drawn over 'target'), declarations refused before any command, passes
// nobody needs culled, and a user's texture sharing the G-buffer's once the G-buffer is done.
import { gpuTest, readDepth, readTexture } from '@cuttle/test-utils';
import { describe, expect } from 'vitest';
import { FrameGraphError, outlinePass, RenderError, Renderer, skyPass, type RendererOptions, type UserPass } from '../src/index.ts';
import { camera, floorAndBox, HEIGHT, WIDTH } from './helpers.ts';

// Looking along the floor towards the horizon: sky above, floor and box below.
const VIEW = camera([0, 1.5, 9], [0, 1.2, 0]);

async function draw(device: GPUDevice, options: Partial<RendererOptions>, passes: UserPass[]): Promise<{ pixels: Uint8Array; depth: Float32Array; renderer: Renderer }> {
  const { scene } = floorAndBox(device);
  scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 1, 1], intensity: 3 });
  const renderer = new Renderer(device, { format: 'rgba8unorm', shadowMapSize: 256, ...options });
  for (const pass of passes) renderer.addPass(pass);
  const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  renderer.render(encoder, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT });
  device.queue.submit([encoder.finish()]);
  const pixels = await readTexture(device, target, 4);
  const depth = await readDepth(device, renderer.targets!.depth);
  target.destroy();
  scene.destroy();
  return { pixels, depth, renderer };
}

describe('the example passes', () => {
  for (const opaqueShading of ['deferred', 'forward'] as const) {
    gpuTest(`the sky pass (${opaqueShading}) colours exactly the pixels nothing was drawn on, blue above the horizon`, async ({ device }) => {
      const plain = await draw(device, { opaqueShading }, []);
      const sky = skyPass(device);
      const withSky = await draw(device, { opaqueShading }, [sky]);
      let skyPixels = 0;
      for (let i = 0; i < WIDTH * HEIGHT; i++) {
        const same = [0, 1, 2].every((c) => plain.pixels[i * 4 + c] === withSky.pixels[i * 4 + c]);
        if (plain.depth[i] === 0) {
          skyPixels++;
          expect(same).toBe(false);
        } else expect(same).toBe(true);
      }
      expect(skyPixels).toBeGreaterThan(WIDTH * HEIGHT * 0.2);
      // The top row: sky, bluer than it is red.
      expect(withSky.pixels[2]!).toBeGreaterThan(withSky.pixels[0]! + 20);
      for (const { renderer } of [plain, withSky]) renderer.destroy();
      sky.destroy();
    });
  }

  gpuTest('the outline pass darkens the box\'s silhouette and leaves the open floor alone', async ({ device }) => {
    const plain = await draw(device, {}, []);
    const outline = outlinePass(device);
    const outlined = await draw(device, {}, [outline]);
    let darker = 0, changed = 0;
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      const a = plain.pixels[i * 4]! + plain.pixels[i * 4 + 1]! + plain.pixels[i * 4 + 2]!;
      const b = outlined.pixels[i * 4]! + outlined.pixels[i * 4 + 1]! + outlined.pixels[i * 4 + 2]!;
      if (a !== b) changed++;
      if (b < a - 60) darker++;
    }
    // A few hundred pixels of outline (the box's edges and the horizon), not the whole frame.
    expect(darker).toBeGreaterThan(100);
    expect(changed).toBeLessThan(WIDTH * HEIGHT * 0.15);
    // The floor just in front of the camera, far from any edge, is untouched.
    const floor = ((HEIGHT - 4) * WIDTH + WIDTH / 2) * 4;
    expect([...outlined.pixels.subarray(floor, floor + 3)]).toEqual([...plain.pixels.subarray(floor, floor + 3)]);
    for (const { renderer } of [plain, outlined]) renderer.destroy();
    outline.destroy();
  });
});

describe('declarations', () => {
  gpuTest('a user pass reading what the frame does not have is refused before any command is recorded', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const renderer = new Renderer(device, { format: 'rgba8unorm', opaqueShading: 'forward' });
    renderer.addPass({ name: 'debug-gbuffer', point: 'after-opaque', reads: [{ resource: 'gbuffer-surfaces', use: 'sampled' }], writes: [{ resource: 'hdr', use: 'storage' }], execute: () => undefined });
    const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    const encoder = device.createCommandEncoder();
    expect(() => { renderer.render(encoder, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT }); }).toThrow(FrameGraphError);
    expect(() => { renderer.render(encoder, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT }); }).toThrow(/pass "debug-gbuffer" reads "gbuffer-surfaces", which no pass before it writes/);
    device.queue.submit([encoder.finish()]);
    expect((await readTexture(device, target, 4)).every((byte) => byte === 0)).toBe(true);
    // On the deferred path the G-buffer exists, and the same pass runs.
    renderer.opaqueShading = 'deferred';
    const again = device.createCommandEncoder();
    renderer.render(again, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT });
    device.queue.submit([again.finish()]);
    expect(renderer.describeFrame()).toMatch(/debug-gbuffer +reads gbuffer-surfaces; writes hdr +\[at after-opaque\]/);
    renderer.destroy();
    target.destroy();
    scene.destroy();
  });

  gpuTest('two user passes writing one resource at one point need an order; bad points and duplicate names are refused', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const renderer = new Renderer(device, { format: 'rgba8unorm' });
    const writer = (name: string, after?: string[]): UserPass => ({ name, point: 'before-tonemap', writes: [{ resource: 'hdr', use: 'storage' }], ...(after ? { after } : {}), execute: () => undefined });
    renderer.addPass(writer('bloom'));
    renderer.addPass(writer('grade'));
    const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const frame = (): void => { renderer.render(device.createCommandEncoder(), scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT }); };
    expect(frame).toThrow(/passes "bloom" and "grade" of point "before-tonemap" both write "hdr" and nothing orders them/);
    expect(renderer.removePass('grade')).toBe(true);
    expect(renderer.removePass('grade')).toBe(false);
    renderer.addPass(writer('grade', ['bloom']));
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT });
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const order = renderer.lastFrameGraph!.compile().order.map((pass) => pass.name);
    expect(order.slice(order.indexOf('transparent'), order.indexOf('tonemap') + 1)).toEqual(['transparent', 'bloom', 'grade', 'tonemap']);
    expect(() => { renderer.addPass({ ...writer('x'), point: 'somewhere' as 'overlay' }); }).toThrow(RenderError);
    expect(() => { renderer.addPass(writer('bloom')); }).toThrow(/a pass named "bloom" was already added/);
    renderer.destroy();
    target.destroy();
    scene.destroy();
  });
});

describe('culling and sharing in the real frame', () => {
  gpuTest('a user pass nobody needs is culled; a user texture made after the lighting shares the G-buffer\'s emission texture', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const renderer = new Renderer(device, { format: 'rgba8unorm' });
    const hdrSized = { kind: 'texture' as const, width: WIDTH, height: HEIGHT, format: 'rgba16float' as const };
    renderer.addPass({ name: 'unused-debug', point: 'after-opaque', creates: { debug: hdrSized }, writes: [{ resource: 'debug', use: 'storage' }], execute: () => { throw new Error('a culled pass must not run'); } });
    renderer.addPass({ name: 'blur-x', point: 'before-tonemap', reads: [{ resource: 'hdr', use: 'sampled' }], creates: { blurred: hdrSized }, writes: [{ resource: 'blurred', use: 'storage' }], execute: () => undefined });
    renderer.addPass({ name: 'blur-back', point: 'before-tonemap', after: ['blur-x'], reads: [{ resource: 'blurred', use: 'sampled' }], writes: [{ resource: 'hdr', use: 'storage' }], execute: () => undefined });
    const target = device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene, VIEW, { view: target.createView(), width: WIDTH, height: HEIGHT });
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const text = renderer.describeFrame();
    expect(text).toMatch(/- unused-debug +culled: nothing that runs needs what it writes/);
    expect(text).toMatch(/blurred +\d+x\d+ rgba16float +passes \d+\.\.\d+ +object \d+ \(shared with gbuffer-emissive\)/);
    const { unshared, shared } = renderer.lastFrameGraph!.compile().transientBytes;
    expect(unshared - shared).toBe(WIDTH * HEIGHT * 8);
    renderer.destroy();
    target.destroy();
    scene.destroy();
  });
});

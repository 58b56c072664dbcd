// Meshes quantised offline (as a data compiler writes them) draw what the same float meshes draw,
// and bad quantised input is refused before anything is uploaded.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { boxMesh, packSnorm8x4, planeMesh, quantizePositions, quantizeUvs, RenderError, RenderScene, type MeshInput, type QuantizedMeshInput } from '../src/index.ts';
import { newRenderer, renderFrame, translation } from './helpers.ts';

function quantized(mesh: MeshInput): QuantizedMeshInput {
  const positions = quantizePositions(mesh.positions);
  const uvs = quantizeUvs(mesh.uvs!);
  return { positions: positions.values, positionRange: positions.range, normals: packSnorm8x4(mesh.normals, 3), uvs: uvs.values, uvRange: uvs.range, indices: mesh.indices };
}

/** A checker-textured floor with uvs tiled 4 times, and a grey box standing on it. */
function build(device: GPUDevice, add: (scene: RenderScene, mesh: MeshInput) => number): RenderScene {
  const scene = new RenderScene(device);
  const plane = planeMesh(20, 4);
  const floor = add(scene, { ...plane, uvs: plane.uvs!.map((uv) => uv * 4) });
  const box = add(scene, boxMesh(0.5, 1, 0.5));
  const data = new Uint8Array(8 * 8 * 4);
  for (let i = 0; i < 64; i++) data.set(((i >> 3) + i) % 2 === 0 ? [230, 40, 40, 255] : [40, 40, 230, 255], i * 4);
  const checker = scene.addTexture({ width: 8, height: 8, data }, { srgb: true });
  scene.addInstance(floor, scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: checker, roughness: 0.9 }));
  scene.addInstance(box, scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 }), translation(0, 1, 0));
  scene.setSun({ direction: [-0.3, -1, -0.2], color: [1, 1, 1], intensity: 2 });
  return scene;
}

describe('quantised meshes', () => {
  gpuTest('draw the same pixels as the float meshes they came from', async ({ device }) => {
    const renderer = newRenderer(device);
    const floats = await renderFrame(device, renderer, build(device, (scene, mesh) => scene.addMesh(mesh)));
    const quantised = await renderFrame(device, renderer, build(device, (scene, mesh) => scene.addQuantizedMesh(quantized(mesh))));
    let worst = 0, red = 0, blue = 0;
    for (let i = 0; i < floats.pixels.length; i += 4) {
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(floats.pixels[i + c]! - quantised.pixels[i + c]!));
      if (quantised.pixels[i]! > quantised.pixels[i + 2]! + 40) red++;
      if (quantised.pixels[i + 2]! > quantised.pixels[i]! + 40) blue++;
    }
    // The checker's both colours are there (the uvs map back), and nothing moved.
    expect(red).toBeGreaterThan(500);
    expect(blue).toBeGreaterThan(500);
    expect(worst).toBeLessThanOrEqual(1);
  });

  gpuTest('bad quantised input is refused by name and adds nothing', ({ device }) => {
    const scene = new RenderScene(device);
    const good = quantized(boxMesh());
    const cases: [Partial<QuantizedMeshInput>, RegExp][] = [
      [{ positions: new Uint16Array(6) }, /positions must be a Uint16Array of xyzw/],
      [{ normals: new Int8Array(3) }, /normals must be an Int8Array/],
      [{ uvs: new Uint16Array(2) }, /uvs must be a Uint16Array/],
      [{ uvRange: undefined }, /uvs need their uvRange/],
      [{ positionRange: [0, 0, 0, 0] }, /positionRange must be four finite numbers with positive scales/],
      [{ uvRange: [0, 0, Number.NaN, 1] }, /uvRange must be four finite numbers/],
      [{ tangents: new Int8Array(4) }, /tangents must be an Int8Array/],
      [{ indices: Uint16Array.of(0, 1, 999) }, /index 999 at 2 is past the last vertex/],
    ];
    for (const [change, message] of cases) {
      expect(() => scene.addQuantizedMesh({ ...good, ...change })).toThrow(RenderError);
      expect(() => scene.addQuantizedMesh({ ...good, ...change })).toThrow(message);
    }
    // Nothing was added: the next good mesh is the first.
    expect(scene.addQuantizedMesh(good)).toBe(0);
    return Promise.resolve();
  });
});

// Distance-field labels drawn by TextLabels (one instanced mesh, our node material) against the
// same glyphs drawn by three its own way: one Mesh per glyph, a BufferGeometry quad with the
// glyph's page rectangle as uvs, and three's MeshBasicNodeMaterial with the page as its map
// (alpha = distance) and alphaTest 0.5, i.e. the same threshold without antialiasing. The font
// is DejaVu Sans built from the TTF, written as an AngelCode .fnt + PNG page and read back.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { coverageOf, decodePng, distanceFieldFontFromTtf, encodePng, GuiFont, layoutText, parseBMFont, QUAD_FLOATS, writeBMFontText, type GuiImage } from '@cuttle/gui';
import { gpuTest } from '@cuttle/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';
import { BufferAttribute, BufferGeometry, Color, DataTexture, DoubleSide, LinearFilter, Mesh, MeshBasicNodeMaterial, OrthographicCamera, PerspectiveCamera, Quaternion, RGBAFormat, Scene, Vector3 } from 'three/webgpu';
import { ThreeError, TEXT_ATTRIBUTES, TextLabels, type TextLabel } from '../src/index.ts';
import { nodeThree } from './three-node.ts';

const TTF = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', new URL('../../../apps/engine/sample/fonts/DejaVuSans.ttf', import.meta.url).pathname].find((p) => existsSync(p));
const W = 256;
const H = 160;

let font: GuiFont;
let pages: GuiImage[];

beforeAll(async () => {
  if (!TTF) throw new Error('DejaVu Sans is missing: install fonts-dejavu-core (bash tooling/scripts/setup.sh test).');
  const built = distanceFieldFontFromTtf(readFileSync(TTF), { size: 32, spread: 4 });
  // Through the AngelCode files, as a user with a .fnt and its page would load them.
  const fnt = writeBMFontText(built.font);
  font = new GuiFont(parseBMFont(fnt));
  pages = [];
  for (const page of built.pages) pages.push(await decodePng(await encodePng(page)));
  // Two 256x256 pages at 32 px: the material samples a texture array by each glyph's page.
  expect(font.pageCount).toBe(2);
});

const tilt = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.25);
const LABELS: TextLabel[] = [
  { text: 'Hello, three.js!', position: { x: 8, y: 136, z: 0 }, size: 22 },
  { text: 'AVAWAY To kerning', position: { x: 8, y: 112, z: 0 }, size: 14 },
  { text: 'centre', position: { x: 200, y: 88, z: 0 }, size: 18, align: 'center' },
  { text: 'right', position: { x: 248, y: 154, z: 0 }, size: 12, align: 'right', anchorY: 'top' },
  { text: 'wrapped into two lines', position: { x: 8, y: 90, z: 0 }, size: 13, maxWidth: 110, anchorY: 'top' },
  { text: 'Tilted 42', position: { x: 150, y: 20, z: 0 }, size: 20, rotation: tilt, color: 0xffffff },
  { text: 'Big', position: { x: 30, y: 14, z: 0 }, size: 40 },
];

/** Three's own way: a Mesh per glyph, placed by the Object3D transform, alpha-tested map. */
function threeGlyphMeshes(labels: readonly TextLabel[], maps: readonly DataTexture[]): Mesh[] {
  const meshes: Mesh[] = [];
  for (const label of labels) {
    const layout = layoutText(font, label.text, { size: label.size, align: label.align ?? 'left', maxWidth: label.maxWidth });
    const scale = label.size / font.emSize;
    const box = label.maxWidth ?? 0;
    const align = label.align ?? 'left';
    const dx = box > 0 ? (align === 'center' ? -box / 2 : align === 'right' ? -box : 0) : 0;
    const anchorY = label.anchorY ?? 'baseline';
    const dy = anchorY === 'top' ? 0 : anchorY === 'baseline' ? font.base * scale : anchorY === 'middle' ? layout.height / 2 : layout.height;
    const materials = maps.map((map) => new MeshBasicNodeMaterial({ map, alphaTest: 0.5, color: new Color(label.color ?? 0xffffff), side: DoubleSide }));
    for (let g = 0; g < layout.count; g++) {
      const q = layout.quads.subarray(g * QUAD_FLOATS, (g + 1) * QUAD_FLOATS);
      const [x0, y0, x1, y1, u0, v0, u1, v1] = [q[0]! + dx, dy - q[3]!, q[2]! + dx, dy - q[1]!, q[4]!, q[5]!, q[6]!, q[7]!];
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(new Float32Array([x0, y0, 0, x1, y0, 0, x0, y1, 0, x1, y1, 0]), 3));
      geometry.setAttribute('uv', new BufferAttribute(new Float32Array([u0, v1, u1, v1, u0, v0, u1, v0]), 2));
      geometry.setIndex([0, 1, 2, 2, 1, 3]);
      const mesh = new Mesh(geometry, materials[q[8]!]);
      mesh.position.set(label.position.x, label.position.y, label.position.z);
      if (label.rotation) mesh.quaternion.set(label.rotation.x, label.rotation.y, label.rotation.z, label.rotation.w);
      meshes.push(mesh);
    }
  }
  return meshes;
}

/** A page as RGBA for three's map: white, alpha = distance. */
function pageTexture(page: GuiImage): DataTexture {
  const rgba = new Uint8Array(page.width * page.height * 4);
  const field = coverageOf(page);
  for (let i = 0; i < page.width * page.height; i++) {
    rgba.fill(255, i * 4, i * 4 + 3);
    rgba[i * 4 + 3] = field[i]!;
  }
  const texture = new DataTexture(rgba, page.width, page.height, RGBAFormat);
  texture.minFilter = LinearFilter;
  texture.magFilter = LinearFilter;
  texture.needsUpdate = true;
  return texture;
}

const pixelCamera = (): OrthographicCamera => {
  const camera = new OrthographicCamera(0, W, H, 0, -10, 10);
  camera.position.z = 5;
  return camera;
};

/** Rows bottom first as written to a PNG for a person to look at (CUTTLE_TEXT_PNG=dir). */
async function dump(name: string, frame: Uint8Array): Promise<void> {
  const dir = process.env.CUTTLE_TEXT_PNG;
  if (!dir) return;
  // Opaque, so that a viewer shows the colours over black as they were drawn.
  const opaque = frame.slice();
  for (let i = 3; i < opaque.length; i += 4) opaque[i] = 255;
  writeFileSync(`${dir}/${name}.png`, await encodePng({ width: W, height: H, channels: 4, data: opaque }));
}

describe('the pixels', () => {
  gpuTest('labels in one draw call: the pixels of a Mesh per glyph with three\'s alpha-tested map, but antialiased edges', async ({ device }) => {
    const three = await nodeThree(device, W, H);
    const camera = pixelCamera();
    const frames: Uint8Array[] = [];
    // Ours.
    const labels = new TextLabels(font, pages, { capacity: 16 });
    for (const label of LABELS) labels.addLabel(label);
    const ours = new Scene();
    ours.add(labels);
    three.render(ours, camera);
    expect(three.renderer.info.render.drawCalls).toBe(1);
    frames.push(await three.read());
    // Three's own way.
    const maps = pages.map(pageTexture);
    const theirs = new Scene();
    const meshes = threeGlyphMeshes(LABELS, maps);
    theirs.add(...meshes);
    three.render(theirs, camera);
    expect(three.renderer.info.render.drawCalls).toBe(meshes.length);
    frames.push(await three.read());
    await dump('ours', frames[0]!);
    await dump('three', frames[1]!);
    expect(meshes.length).toBe(labels.glyphCount);

    // Our edges are antialiased over one pixel, three's are a hard step at the same 0.5
    // threshold: binarised at half coverage (128) the two agree except where the distance sits
    // within a rounding of the threshold. Allowed: 1% of the ink pixels, and only edge pixels
    // of ours (neither background nor full ink: 8..247), i.e. a one-pixel-wide tie-break.
    let ink = 0, differ = 0, differInside = 0;
    for (let i = 0; i < W * H; i++) {
      const a = frames[0]![i * 4]!;
      const b = frames[1]![i * 4]!;
      if (b > 0) ink++;
      if ((a >= 128) !== (b >= 128)) {
        differ++;
        if (a < 8 || a > 247) differInside++;
      }
    }
    expect(ink).toBeGreaterThan(1500);
    expect(differ).toBeLessThanOrEqual(ink * 0.01);
    expect(differInside).toBe(0);
    labels.dispose();
    for (const map of maps) map.dispose();
    await three.dispose();
  });

  gpuTest('billboards face the camera: the pixels of glyph meshes turned to the camera', async ({ device }) => {
    const three = await nodeThree(device, W, H);
    const camera = new PerspectiveCamera(50, W / H, 0.1, 100);
    camera.position.set(3, 2, 6);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    const board: TextLabel[] = [
      { text: 'Billboard', position: { x: -2.2, y: 0.3, z: 0 }, size: 1, billboard: true, color: 0xffd040 },
      { text: 'sign', position: { x: 0.5, y: -1.2, z: -1 }, size: 0.9, billboard: true },
    ];
    const labels = new TextLabels(font, pages);
    for (const label of board) labels.addLabel(label);
    const ours = new Scene();
    ours.add(labels);
    three.render(ours, camera);
    const a = await three.read();
    const theirs = new Scene();
    const maps = pages.map(pageTexture);
    // Three's way for a billboard: the glyph meshes take the camera's orientation.
    const meshes = threeGlyphMeshes(board.map((l) => ({ ...l, rotation: camera.quaternion })), maps);
    theirs.add(...meshes);
    three.render(theirs, camera);
    const b = await three.read();
    await dump('billboard-ours', a);
    await dump('billboard-three', b);
    let ink = 0, differ = 0;
    for (let i = 0; i < W * H; i++) {
      // Red: 255 in both colours, so half coverage is 128 for both.
      if (b[i * 4]! > 0) ink++;
      if ((a[i * 4]! >= 128) !== (b[i * 4]! >= 128)) differ++;
    }
    expect(ink).toBeGreaterThan(500);
    expect(differ).toBeLessThanOrEqual(ink * 0.01);
    // The colour is the label's, as three's material shows 0xffd040: same solid pixels.
    let solid = 0;
    for (let i = 0; i < W * H; i++) {
      if (b[i * 4]! > 0 && b[i * 4 + 2]! > 0 && b[i * 4 + 2]! < 200 && (a[i * 4 + 3] ?? 0) === 255 && Math.abs(a[i * 4]! - b[i * 4]!) <= 1 && Math.abs(a[i * 4 + 1]! - b[i * 4 + 1]!) <= 1 && Math.abs(a[i * 4 + 2]! - b[i * 4 + 2]!) <= 1) solid++;
    }
    expect(solid).toBeGreaterThan(100);
    labels.dispose();
    for (const map of maps) map.dispose();
    await three.dispose();
  });

  gpuTest('updating one label redraws only that label: its glyphs change, every other pixel stays', async ({ device }) => {
    const three = await nodeThree(device, W, H);
    const camera = pixelCamera();
    const labels = new TextLabels(font, pages, { outline: { width: 1.5, color: 0x2040ff } });
    const ids = LABELS.map((label) => labels.addLabel(label));
    const scene = new Scene();
    scene.add(labels);
    three.render(scene, camera);
    const before = await three.read();
    const anchor = labels.geometry.getAttribute(TEXT_ATTRIBUTES.anchor).array.slice();
    const rect = labels.geometry.getAttribute(TEXT_ATTRIBUTES.rect).array.slice();
    // Same length, another text and colour: rewritten in place; only its run is uploaded.
    const target = ids[1]!;
    const range = labels.glyphRange(target);
    labels.updateLabel(target, { ...LABELS[1]!, text: 'AVAWAY To KERNING', color: 0xff4020 });
    expect(labels.glyphRange(target)).toEqual(range);
    expect(labels.flush()).toEqual(range);
    const rectAfter = labels.geometry.getAttribute(TEXT_ATTRIBUTES.rect).array;
    const anchorAfter = labels.geometry.getAttribute(TEXT_ATTRIBUTES.anchor).array;
    for (let i = 0; i < rect.length; i++) {
      const inside = i >= range.first * 4 && i < (range.first + range.count) * 4;
      if (!inside) {
        expect(rectAfter[i]).toBe(rect[i]);
        expect(anchorAfter[i]).toBe(anchor[i]);
      }
    }
    three.render(scene, camera);
    const after = await three.read();
    // Changed pixels all lie in the updated label's line (y 112 - 14 .. 112 + 6 in the label's
    // units: rows from the top H - 118 .. H - 96 with the quads' padding).
    let changed = 0, outside = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = ((H - 1 - y) * W + x) * 4;
        if (Math.abs(before[i]! - after[i]!) + Math.abs(before[i + 1]! - after[i + 1]!) + Math.abs(before[i + 2]! - after[i + 2]!) > 0) {
          changed++;
          if (y < 112 - 14 - 4 || y > 112 + 14 + 4) outside++;
        }
      }
    }
    await dump('update-before', before);
    await dump('update-after', after);
    expect(changed).toBeGreaterThan(50);
    expect(outside).toBe(0);
    // Removing it leaves a hole that draws nothing; a label of the same length takes it.
    labels.removeLabel(target);
    const again = labels.addLabel({ ...LABELS[1]!, text: 'AVAWAY To kerninG' });
    expect(labels.glyphRange(again)).toEqual(range);
    expect(labels.hasLabel(target)).toBe(false);
    labels.dispose();
    await three.dispose();
  });
});

describe('the bookkeeping', () => {
  test('runs grow, holes are reused and compacted, counts follow', () => {
    const labels = new TextLabels(font, pages, { capacity: 4 });
    const at = (i: number): TextLabel => ({ text: `label ${i}`, position: { x: i, y: 0, z: 0 }, size: 1 });
    const ids = Array.from({ length: 100 }, (_, i) => labels.addLabel(at(i)));
    expect(labels.labelCount).toBe(100);
    expect(labels.capacity).toBeGreaterThanOrEqual(labels.glyphCount);
    const visible = labels.glyphCount;
    for (let i = 0; i < 100; i += 2) labels.removeLabel(ids[i]!);
    expect(labels.labelCount).toBe(50);
    expect(labels.glyphCount).toBeLessThan(visible);
    // Holes pass half: the runs were moved down, in order, with their glyphs.
    const first = labels.glyphRange(ids[1]!);
    expect(first.first).toBe(0);
    const anchor = labels.geometry.getAttribute(TEXT_ATTRIBUTES.anchor).array;
    expect(anchor[0]).toBe(1);
    const last = labels.glyphRange(ids[99]!);
    expect(anchor[last.first * 4]).toBe(99);
    expect(labels.flush().count).toBeGreaterThan(0);
    expect(labels.geometry.instanceCount).toBe(labels.glyphCount);
    labels.clearLabels();
    expect(labels.labelCount).toBe(0);
    expect(labels.hasLabel(ids[1]!)).toBe(false);
    labels.dispose();
  });

  test('bad input is refused with a ThreeError naming it, and nothing changes', () => {
    const labels = new TextLabels(font, pages);
    const good: TextLabel = { text: 'ok', position: { x: 0, y: 0, z: 0 }, size: 1 };
    const id = labels.addLabel(good);
    const anchor = labels.geometry.getAttribute(TEXT_ATTRIBUTES.anchor).array.slice();
    const bad: [Partial<TextLabel>, RegExp][] = [
      [{ size: 0 }, /label\.size must be a positive number, got 0/],
      [{ size: Number.NaN }, /label\.size/],
      [{ position: { x: 0, y: Number.POSITIVE_INFINITY, z: 0 } }, /label\.position must have finite x, y and z/],
      [{ text: 5 as unknown as string }, /label\.text must be a string, got number/],
      [{ color: 0x1000000 }, /label\.color must be 0xRRGGBB/],
      [{ opacity: 2 }, /label\.opacity must be between 0 and 1, got 2/],
      [{ align: 'middle' as 'left' }, /label\.align must be 'left', 'center' or 'right', got "middle"/],
      [{ anchorY: 'centre' as 'top' }, /label\.anchorY/],
      [{ maxWidth: -1 }, /label\.maxWidth must be a positive number/],
      [{ rotation: { x: 0, y: 0, z: 0, w: 2 } }, /label\.rotation must be a unit quaternion, got length 2/],
    ];
    for (const [change, message] of bad) {
      expect(() => labels.addLabel({ ...good, ...change })).toThrow(message);
      expect(() => { labels.updateLabel(id, { ...good, ...change }); }).toThrow(ThreeError);
    }
    expect(labels.labelCount).toBe(1);
    expect(Array.from(labels.geometry.getAttribute(TEXT_ATTRIBUTES.anchor).array)).toEqual(Array.from(anchor));
    labels.removeLabel(id);
    expect(() => { labels.removeLabel(id); }).toThrow(/removeLabel: \d+ is not a label of this TextLabels/);
    expect(() => { labels.updateLabel(12345, good); }).toThrow(ThreeError);
    expect(() => { labels.setOutline({ width: 9 }); }).toThrow(/outline\.width must be between 0 and the font's spread \(4 texels\), got 9/);
    labels.dispose();
  });

  test('fonts and pages that cannot be drawn are refused by name', async () => {
    // A real AngelCode .fnt from a game (a bitmap font: no distance field).
    const bitmap = new GuiFont(parseBMFont(readFileSync(new URL('../../gui/bench/fnt/bmfontrs-anton-latin.fnt', import.meta.url))));
    expect(() => new TextLabels(bitmap, [])).toThrow(/no distance field/);
    expect(() => new TextLabels(font, [])).toThrow(/the font has 2 page\(s\) but 0 page image\(s\) were given/);
    const small: GuiImage = { width: 8, height: 8, channels: 1, data: new Uint8Array(64) };
    expect(() => new TextLabels(font, [small, small])).toThrow(/page 0 is 8x8, the font's pages are 256x256/);
    expect(() => new TextLabels(font, pages, { capacity: 0 })).toThrow(/capacity must be a whole number of glyphs >= 1, got 0/);
    expect(() => new TextLabels(font, pages, { outline: { width: 1, color: -1 } })).toThrow(/outline\.color must be 0xRRGGBB/);
    expect(() => new TextLabels(JSON.parse('{}') as GuiFont, pages)).toThrow(/needs a GuiFont/);
    await Promise.resolve();
  });
});

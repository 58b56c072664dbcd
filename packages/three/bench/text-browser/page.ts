// Bundled into a page by run.ts: 10,000 labels of DejaVu Sans as our TextLabels (three's
// WebGPURenderer) and as troika-three-text (three's WebGLRenderer: its materials patch GLSL),
// built from the same strings, in the same page, alternated by the runner.
import { distanceFieldFontFromTtf, GuiFont, type GuiImage } from '@cuttle/gui';
import { Scene as GlScene, WebGLRenderer } from 'three';
import { BatchedText, configureTextBuilder, Text } from 'troika-three-text';
import { OrthographicCamera, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { TextLabels, type TextLabel, type TextLabelId } from '../../src/text-labels.ts';

const COUNT = 10_000;
const WORDS = ['alpha', 'bravo', 'Charlie', 'delta', 'Echo', 'foxtrot', 'golf', 'Hotel', 'india', 'Juliet', 'kilo', 'Lima', 'mike', 'November', 'oscar', 'Papa', 'quebec', 'Romeo', 'sierra', 'Tango', 'uniform', 'Victor', 'whiskey', 'X-ray', 'yankee', 'Zulu'];
const FONT_SIZE = 32; // our font's em in page pixels; troika makes 64x64 fields per glyph

/** Fresh strings for each seed: ~16 characters, as the @cuttle/gui label benchmark. */
function labelTexts(seed: number): string[] {
  let x = seed * 2654435761 >>> 0 || 1;
  const random = (): number => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return Array.from({ length: COUNT }, (_, i) => `${WORDS[Math.floor(random() * WORDS.length)]!} ${(i * 7 + seed) % 1000} ${WORDS[Math.floor(random() * WORDS.length)]!.slice(0, 4)}`);
}

const placeOf = (i: number): { x: number; y: number } => ({ x: (i % 100) * 12 - 600, y: Math.floor(i / 100) * 2 - 100 });

let ttf: Uint8Array;
let fontBase = '';
let oursFont: { font: GuiFont; pages: GuiImage[] } | undefined;
let gpu: WebGPURenderer;
let gl: WebGLRenderer;
/** Whatever the last build made, kept alive for the memory measurement, disposed before the next. */
let kept: { dispose(): void } | undefined;

function ourFont(): { font: GuiFont; pages: GuiImage[] } {
  const { font, pages } = distanceFieldFontFromTtf(ttf, { size: FONT_SIZE, spread: 4 });
  return { font: new GuiFont(font), pages };
}

function ourLabels(texts: readonly string[], font: { font: GuiFont; pages: GuiImage[] }): { labels: TextLabels; ids: TextLabelId[] } {
  // The default capacity (1024 glyphs), doubling as labels come: what a user gets.
  const labels = new TextLabels(font.font, font.pages);
  const label: TextLabel = { text: '', position: { x: 0, y: 0, z: 0 }, size: 1, color: 0xffffff };
  const ids: TextLabelId[] = [];
  for (let i = 0; i < texts.length; i++) {
    label.text = texts[i]!;
    label.position = { ...placeOf(i), z: 0 };
    ids.push(labels.addLabel(label));
  }
  labels.flush();
  return { labels, ids };
}

function troikaText(text: string, x: number, y: number, size: number, font: string): Text {
  const t = new Text();
  t.text = text;
  t.font = font;
  t.fontSize = size;
  t.anchorX = 'left';
  t.anchorY = 'top-baseline';
  t.color = 0xffffff;
  t.position.set(x, y, 0);
  return t;
}

function syncAll(texts: readonly Text[]): Promise<void> {
  return new Promise((resolve) => {
    let left = texts.length;
    for (const t of texts) t.sync(() => { if (--left === 0) resolve(); });
  });
}

interface Built { ms: number; glyphs: number; perLabel: number[] }

async function troikaLabels(texts: readonly string[], font: string, batched: boolean): Promise<{ objects: Text[]; root: Text | GlScene; batch?: BatchedText }> {
  const objects = texts.map((s, i) => troikaText(s, placeOf(i).x, placeOf(i).y, 1, font));
  if (batched) {
    const batch = new BatchedText();
    batch.add(...objects);
    await new Promise<void>((resolve) => { batch.sync(() => { resolve(); }); });
    return { objects, root: batch, batch };
  }
  await syncAll(objects);
  const scene = new GlScene();
  scene.add(...objects);
  return { objects, root: objects[0]! };
}

function troikaGlyphs(objects: readonly Text[]): number[] {
  return objects.map((t) => t.textRenderInfo?.glyphAtlasIndices.length ?? -1);
}


/** GPU bytes a set of three objects needs: every distinct attribute array and index, and the textures named. */
function geometryBytes(geometries: Iterable<{ attributes: Record<string, { array: ArrayLike<number> & { byteLength: number } }>; index: { array: { byteLength: number } } | null }>): number {
  const seen = new Set<object>();
  let bytes = 0;
  for (const g of geometries) {
    for (const a of Object.values(g.attributes)) if (!seen.has(a.array)) { seen.add(a.array); bytes += a.array.byteLength; }
    if (g.index && !seen.has(g.index.array)) { seen.add(g.index.array); bytes += g.index.array.byteLength; }
  }
  return bytes;
}

declare global {
  interface Window {
    textBench: {
      init(ttfBytes: number[], fontBase: string): Promise<string>;
      ours(seed: number, cold: boolean): Built;
      troika(seed: number, cold: boolean, batched: boolean): Promise<Built>;
      /** After a build, kept alive: draw calls for one frame, and GPU bytes. */
      drawOurs(): { drawCalls: number; gpuBytes: number; glyphs: number };
      drawTroika(batched: boolean): { drawCalls: number; gpuBytes: number; glyphs: number };
      release(): void;
      sideBySide(): Promise<void>;
      troikaOnWebGpu(): Promise<string>;
    };
  }
}

function srgb(c: number): number {
  return c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
}

function show(id: string, source: HTMLCanvasElement): void {
  (document.getElementById(id) as HTMLCanvasElement).getContext('2d')!.drawImage(source, 0, 0);
}

let lastOurs: TextLabels | undefined;
let lastTroika: { objects: Text[]; batch?: BatchedText } | undefined;

const camera2d = (w: number, h: number): OrthographicCamera => {
  const c = new OrthographicCamera(-w / 2, w / 2, h / 2, -h / 2, -10, 10);
  c.position.z = 5;
  return c;
};

window.textBench = {
  async init(bytes, base) {
    ttf = new Uint8Array(bytes);
    fontBase = base;
    configureTextBuilder({ useWorker: true });
    oursFont = ourFont();
    // The renderers draw into canvases of their own; the page shows copies (drawImage right
    // after each render), so both pictures go through the same path to the screenshot.
    const a = document.createElement('canvas');
    const b = document.createElement('canvas');
    a.width = b.width = 640;
    a.height = b.height = 360;
    gpu = new WebGPURenderer({ canvas: a, antialias: false });
    await gpu.init();
    gl = new WebGLRenderer({ canvas: b, antialias: false });
    return `${(gpu.backend as unknown as { isWebGPUBackend?: boolean }).isWebGPUBackend === true ? 'WebGPU' : 'WebGL2 fallback'} / ${gl.getContext().getParameter(gl.getContext().VERSION) as string}`;
  },
  ours(seed, cold) {
    window.textBench.release();
    const texts = labelTexts(seed);
    const start = performance.now();
    const font = cold ? ourFont() : oursFont!;
    const { labels, ids } = ourLabels(texts, font);
    const ms = performance.now() - start;
    lastOurs = labels;
    kept = labels;
    return { ms, glyphs: labels.glyphCount, perLabel: ids.map((id) => labels.glyphRange(id).count) };
  },
  async troika(seed, cold, batched) {
    window.textBench.release();
    const texts = labelTexts(seed);
    // A font URL troika has not seen makes it parse the font and generate every glyph's field again.
    const font = cold ? `${fontBase}?cold=${seed}-${batched ? 'b' : 't'}` : `${fontBase}?warm`;
    const start = performance.now();
    const built = await troikaLabels(texts, font, batched);
    const ms = performance.now() - start;
    lastTroika = built;
    kept = { dispose: () => { for (const t of built.objects) t.dispose(); built.batch?.dispose(); } };
    const perLabel = troikaGlyphs(built.objects);
    return { ms, glyphs: perLabel.reduce((s, n) => s + n, 0), perLabel };
  },
  drawOurs() {
    const labels = lastOurs!;
    const scene = new Scene();
    scene.add(labels);
    // Into a target: drawn to the canvas, three adds its output pass, one draw for any scene.
    const target = new RenderTarget(1400, 300);
    gpu.setRenderTarget(target);
    gpu.render(scene, camera2d(1400, 300));
    const drawCalls = gpu.info.render.drawCalls;
    gpu.setRenderTarget(null);
    target.dispose();
    return { drawCalls, gpuBytes: labels.gpuBytes, glyphs: labels.glyphCount };
  },
  drawTroika(batched) {
    const { objects, batch } = lastTroika!;
    const scene = new GlScene();
    if (batch) scene.add(batch);
    else scene.add(...objects);
    gl.info.reset();
    gl.info.autoReset = false;
    gl.render(scene, camera2d(1400, 300));
    const drawCalls = gl.info.render.calls;
    gl.info.autoReset = true;
    const sdf = objects[0]!.textRenderInfo!.sdfTexture.image as { width: number; height: number };
    let bytes = geometryBytes((batched ? [batch!] : objects).map((t) => t.geometry as never)) + sdf.width * sdf.height * 4;
    // BatchedText keeps 32 floats per member in a float texture (RGBA32F, 8 texels each).
    if (batch) bytes += objects.length * 32 * 4;
    return { drawCalls, gpuBytes: bytes, glyphs: objects.reduce((s, t) => s + (t.textRenderInfo?.glyphAtlasIndices.length ?? 0), 0) };
  },
  release() {
    kept?.dispose();
    kept = undefined;
    lastOurs = undefined;
    lastTroika = undefined;
  },
  async sideBySide() {
    const lines: [string, number][] = [['Distance-field text, 12 px: AVAWAY To kerning 0123456789', 12], ['18 px: The quick brown fox jumps over the lazy dog.', 18], ['28 px: Sphinx of black quartz, judge my vow', 28], ['48 px: @cuttle/three', 48], ['96 px: Rag&', 96]];
    const w = 640, h = 360;
    const place = (i: number): { x: number; y: number } => ({ x: -w / 2 + 10, y: h / 2 - 24 - [0, 22, 50, 94, 190][i]! });
    const labels = new TextLabels(oursFont!.font, oursFont!.pages);
    lines.forEach(([text, size], i) => labels.addLabel({ text, size, position: { ...place(i), z: 0 } }));
    const scene = new Scene();
    scene.add(labels);
    const target = new RenderTarget(w, h);
    gpu.setRenderTarget(target);
    gpu.render(scene, camera2d(w, h));
    const linear = new Uint8Array((await gpu.readRenderTargetPixelsAsync(target, 0, 0, w, h)).buffer);
    gpu.setRenderTarget(null);
    target.dispose();
    labels.dispose();
    // The target holds three's working (linear) colours; its output pass to a canvas encodes
    // sRGB, which troika's WebGL canvas gets too: encode the same way here.
    const image = new ImageData(w, h);
    for (let i = 0; i < linear.length; i++) image.data[i] = (i & 3) === 3 ? 255 : Math.round(255 * srgb(linear[i]! / 255));
    (document.getElementById('ours') as HTMLCanvasElement).getContext('2d')!.putImageData(image, 0, 0);
    const texts = lines.map(([text, size], i) => troikaText(text, place(i).x, place(i).y, size, `${fontBase}?warm`));
    await syncAll(texts);
    const glScene = new GlScene();
    glScene.add(...texts);
    gl.setSize(w, h, false);
    gl.render(glScene, camera2d(w, h));
    show('troika', gl.domElement);
    for (const t of texts) t.dispose();
  },
  async troikaOnWebGpu() {
    // A troika Text on the left half and, as a control, one of our labels on the right.
    const t = troikaText('troika on WebGPU', -300, 0, 40, `${fontBase}?warm`);
    await syncAll([t]);
    const control = new TextLabels(oursFont!.font, oursFont!.pages);
    control.addLabel({ text: 'ours, control', position: { x: 20, y: 0, z: 0 }, size: 40 });
    const scene = new Scene();
    scene.add(t, control);
    const messages: string[] = [];
    const warn = console.warn, error = console.error;
    console.warn = (...args: unknown[]): void => { messages.push(args.map(String).join(' ')); };
    console.error = console.warn;
    const target = new RenderTarget(640, 360);
    let pixels: Uint8Array = new Uint8Array(0);
    try {
      gpu.setRenderTarget(target);
      gpu.render(scene, camera2d(640, 360));
      pixels = new Uint8Array((await gpu.readRenderTargetPixelsAsync(target, 0, 0, 640, 360)).buffer);
      gpu.setRenderTarget(null);
    } catch (e) {
      messages.push(`threw: ${String(e)}`);
    } finally {
      console.warn = warn;
      console.error = error;
    }
    target.dispose();
    let left = 0, right = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > 128) { if ((i / 4) % 640 < 320) left++; else right++; }
    control.dispose();
    t.dispose();
    return `troika's half: ${left} bright pixels, our control label's half: ${right}; ${messages.length} message(s)${messages.length ? ': ' + messages.slice(0, 3).join(' | ').slice(0, 400) : ''}`;
  },
};

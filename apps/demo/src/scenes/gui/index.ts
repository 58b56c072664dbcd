// @cuttle/gui's showcase: 10,000 labels in retained or immediate mode (switch on the canvas),
// the draw calls that costs, and a zoom on distance-field text with outline and glow that stays
// sharp from 16 to 200 pixels. The controls are the package's own immediate-mode widgets.
import { Gui, GuiRenderer, layoutText, TextLayout, Ui, type GuiId, type UiInput } from '@cuttle/gui';
import type { SceneDefinition } from '../../scene-api.ts';
import { loadDemoFont } from './demo-font.ts';
import { LabelWall, LABELS } from './label-wall.ts';

const CLEAR = { r: 0.035, g: 0.04, b: 0.06, a: 1 };

export const scene: SceneDefinition = {
  id: 'gui',
  title: 'Dual-mode GUI',
  package: '@cuttle/gui',
  description: "BitSquid's dual-mode GUI: 10,000 labels in retained or immediate mode, draw calls per (layer, material), distance-field text with outline and glow.",
  async create({ device, format, canvas, panel, hasTimestamps }) {
    const { font, pages } = await loadDemoFont();
    const renderer = new GuiRenderer(device, format);
    const plain = renderer.createTextMaterial(font, pages);
    const fancy = renderer.createTextMaterial(font, pages, { outline: { width: 1.6, color: 0x102040ff }, glow: { width: 2.4, color: 0x4fb0ffd0 }, shadow: { offsetX: 1.2, offsetY: 1.2, softness: 1, color: 0x00000080 } });
    let wall = new LabelWall(font, plain, 'retained', 8);
    const zoom = new Gui();
    const backdrop: GuiId = zoom.create('roundedRect', { x: 0, y: 0, width: 1, height: 1, radius: 12, color: 0x0a0e18e0 });
    const zoomText: GuiId = zoom.create('text', { x: 0, y: 0, text: '', font, material: fancy, layer: 1 });
    const ui = new Ui(new Gui({ mode: 'immediate' }), { font, textMaterial: plain, fontSize: 14 });
    const settings = { immediate: false, animate: true, size: 96, text: 'Sharp at any size' };
    const measure = new TextLayout();
    let guiMs = 0;
    let drawCalls = 0;
    // GPU time of the GUI's render pass (timestamp queries, read back a frame later).
    const querySet = hasTimestamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : undefined;
    const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    let readbackState: 'idle' | 'copied' | 'mapping' = 'idle';
    let gpuMs = Number.NaN;
    let destroyed = false;

    // Pointer and keys in canvas pixels, for the widgets.
    const input: UiInput & { keys: string[] } = { pointerX: -1, pointerY: -1, pointerDown: false, wheelY: 0, keys: [] };
    const toCanvas = (event: PointerEvent): void => {
      const rect = canvas.getBoundingClientRect();
      input.pointerX = ((event.clientX - rect.left) * canvas.width) / Math.max(1, rect.width);
      input.pointerY = ((event.clientY - rect.top) * canvas.height) / Math.max(1, rect.height);
    };
    const onMove = (event: PointerEvent): void => { toCanvas(event); };
    const onDown = (event: PointerEvent): void => { toCanvas(event); input.pointerDown = true; };
    const onUp = (event: PointerEvent): void => { toCanvas(event); input.pointerDown = false; };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Tab' || event.key === ' ' || event.key.startsWith('Arrow')) event.preventDefault();
      input.keys.push(event.key);
      input.shift = event.shiftKey;
    };
    canvas.tabIndex = 0;
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerdown', onDown);
    window.addEventListener('pointerup', onUp);
    canvas.addEventListener('keydown', onKey);

    const note = document.createElement('p');
    note.textContent = `${LABELS.toLocaleString('en')} labels in one Gui. Tick "Immediate mode" on the canvas to rebuild them every frame instead of updating a tenth of them; the draw calls stay one per (layer, material). Tab, Space and the arrow keys drive the widgets too; click the text field to type the zoomed text.`;
    panel.append(note);

    return {
      frame({ time, width, height, encoder, target }) {
        if (readbackState === 'copied') {
          readbackState = 'mapping';
          readback.mapAsync(GPUMapMode.READ).then(
            () => {
              const [begin, end] = new BigUint64Array(readback.getMappedRange());
              gpuMs = Number(end! - begin!) / 1e6;
              readback.unmap();
              readbackState = 'idle';
            },
            (error: unknown) => {
              // Leaving the scene destroys the buffer under a pending map: nothing to read then.
              if (!destroyed) console.error(`GUI timing readback failed: ${String(error)}`);
            },
          );
        }
        const start = performance.now();
        if (settings.immediate !== (wall.mode === 'immediate')) wall = new LabelWall(font, plain, settings.immediate ? 'immediate' : 'retained', 8);
        wall.frame();
        guiMs += (performance.now() - start - guiMs) * 0.1;

        // The zoom: one label whose size sweeps from 16 px to the canvas width (at most 200 px), drawn from the same 32 px field.
        const text = settings.text || ' ';
        const largest = Math.max(24, Math.min(200, (width - 48) / layoutText(font, text, { size: 1 }, measure).width));
        const size = settings.animate ? 16 + (0.5 - 0.5 * Math.cos(time * 0.8)) * (largest - 16) : Math.min(settings.size, largest);
        if (settings.animate) settings.size = size;
        const w = layoutText(font, text, { size }, measure).width;
        const x = Math.max(8, (width - w) / 2);
        const y = height * 0.55 - size * 0.6;
        zoom.update(backdrop, { x: x - 16, y: y - 8, width: w + 32, height: size * 1.35 + 16, radius: 12, color: 0x0a0e18e0 });
        zoom.update(zoomText, { x, y, text, font, material: fancy, size, color: 0xfff4d0ff, layer: 1 });

        ui.beginFrame({ ...input, keys: [...input.keys] });
        input.keys.length = 0;
        input.wheelY = 0;
        ui.beginPanel('@cuttle/gui', width - 300, 10, 290, 268);
        settings.immediate = ui.checkbox('Immediate mode', settings.immediate);
        settings.animate = ui.checkbox('Animate zoom', settings.animate);
        settings.size = ui.slider('Zoom px', settings.size, 16, 200, 1);
        settings.text = ui.textInput('Text', settings.text);
        ui.label(`${wall.mode}: ${LABELS.toLocaleString('en')} labels`);
        ui.label(`labels: ${wall.gui.drawCalls} draw call(s), ${guiMs.toFixed(2)} ms CPU`);
        ui.label(`frame: ${drawCalls} draw calls in all`);
        if (Number.isFinite(gpuMs)) ui.label(`GPU: ${gpuMs.toFixed(2)} ms for the GUI pass`);
        ui.endPanel();
        ui.endFrame();

        const timed = querySet !== undefined && readbackState === 'idle';
        const pass = encoder.beginRenderPass({
          label: 'gui scene',
          colorAttachments: [{ view: target, clearValue: CLEAR, loadOp: 'clear', storeOp: 'store' }],
          ...(timed ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {}),
        });
        drawCalls = renderer.draw(pass, wall.gui, width, height) + renderer.draw(pass, zoom, width, height) + renderer.draw(pass, ui.gui, width, height);
        pass.end();
        if (timed) {
          encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, readback, 0, 16);
          readbackState = 'copied';
        }
      },
      stats: () => ({
        mode: wall.mode,
        labels: LABELS.toLocaleString('en'),
        'draw calls': String(drawCalls),
        'label draw calls': String(wall.gui.drawCalls),
        'GUI CPU': `${guiMs.toFixed(2)} ms`,
        ...(Number.isFinite(gpuMs) ? { 'GUI GPU': `${gpuMs.toFixed(2)} ms` } : {}),
      }),
      destroy() {
        canvas.removeEventListener('pointermove', onMove);
        canvas.removeEventListener('pointerdown', onDown);
        window.removeEventListener('pointerup', onUp);
        canvas.removeEventListener('keydown', onKey);
        destroyed = true;
        renderer.destroy();
        querySet?.destroy();
        resolve.destroy();
        readback.destroy();
      },
    };
  },
};

import { FrameSampler, type FrameProbe } from './frame-probe.ts';
import { initGpu, WebGpuUnavailableError, type DemoGpu } from './gpu.ts';
import { showNoWebGpu } from './no-webgpu.ts';
import { StatusOverlay } from './scenes/gui/status-overlay.ts';
import { findScene, scenes } from './scene-registry.ts';
import { renderSiteHomeLink, renderSiteLinks } from './site-links.ts';
import type { SceneDefinition, SceneInstance } from './scene-api.ts';

declare global {
  interface Window {
    __cuttle?: FrameProbe;
    /** The status line drawn on the canvas by @cuttle/gui (the smoke test checks it). */
    __cuttleStatus?: { text: string; drawCalls: number; frames: number };
  }
}

const canvas = document.querySelector<HTMLCanvasElement>('#view')!;
const panel = document.querySelector<HTMLElement>('#panel')!;
const status = document.querySelector<HTMLElement>('#status')!;
const nav = document.querySelector<HTMLElement>('#scene-list')!;

function resizeCanvas(gpu: DemoGpu): void {
  const limit = gpu.device.limits.maxTextureDimension2D;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.min(limit, Math.round(canvas.clientWidth * ratio)));
  canvas.height = Math.max(1, Math.min(limit, Math.round(canvas.clientHeight * ratio)));
}

function renderNav(current: SceneDefinition): void {
  nav.replaceChildren(
    ...scenes.map((scene) => {
      const link = document.createElement('a');
      link.href = `#${scene.id}`;
      link.textContent = scene.title;
      link.title = `${scene.package}: ${scene.description}`;
      if (scene.id === current.id) link.setAttribute('aria-current', 'page');
      return link;
    }),
  );
}

async function main(): Promise<void> {
  let gpu: DemoGpu;
  try {
    gpu = await initGpu(canvas);
  } catch (error) {
    showNoWebGpu(error instanceof WebGpuUnavailableError ? error.message : `WebGPU failed to start: ${String(error)}`);
    renderSiteHomeLink();
    return;
  }
  const sampler = new FrameSampler();
  const { subgroupMinSize, subgroupMaxSize } = gpu.adapterInfo;
  const subgroups = gpu.device.features.has('subgroups') ? `subgroups ${subgroupMinSize}–${subgroupMaxSize}` : '';
  const adapterName = [gpu.adapterInfo.vendor, gpu.adapterInfo.architecture, gpu.adapterInfo.description, subgroups].filter(Boolean).join(' / ');
  const probe: FrameProbe = {
    framesDrawn: 0,
    adapter: adapterName,
    scene: '',
    frameStamps: [],
    scenes: scenes.map((scene) => scene.id),
    sample: (points) => sampler.request(points),
  };
  window.__cuttle = probe;

  void gpu.device.lost.then((info) => {
    probe.error = `device lost: ${info.message}`;
    status.textContent = `GPU device lost (${info.reason}): ${info.message}. Reload the page.`;
  });
  gpu.device.addEventListener('uncapturederror', (event) => {
    probe.error = event.error.message;
    console.error(probe.error);
  });

  // The status line is also GUI text on the canvas, in every scene (the DOM line stays too).
  let overlay: StatusOverlay | undefined;
  const overlayProbe = { text: '', drawCalls: 0, frames: 0 };
  window.__cuttleStatus = overlayProbe;
  StatusOverlay.create(gpu.device, gpu.format)
    .then((created) => { overlay = created; })
    .catch((error: unknown) => { console.error(`status overlay: ${String(error)}`); });

  resizeCanvas(gpu);
  new ResizeObserver(() => { resizeCanvas(gpu); }).observe(canvas);

  let scene: SceneInstance | undefined;
  let sceneStart = performance.now();
  let frame = 0;
  let loading = false;

  async function openScene(id: string): Promise<void> {
    const definition = findScene(id) ?? scenes[0];
    if (!definition) {
      status.textContent = 'No scenes registered.';
      return;
    }
    loading = true;
    scene?.destroy();
    scene = undefined;
    panel.replaceChildren();
    renderNav(definition);
    renderSiteLinks(definition);
    scene = await definition.create({ device: gpu.device, canvas, format: gpu.format, panel, hasTimestamps: gpu.hasTimestamps });
    probe.scene = definition.id;
    sceneStart = performance.now();
    frame = 0;
    loading = false;
  }

  window.addEventListener('hashchange', () => { void openScene(location.hash.slice(1)); });
  await openScene(location.hash.slice(1));

  let last = performance.now();
  let smoothedMs = 16.7;
  let lastStatus = 0;
  let statusLine = '';
  const tick = (now: number): void => {
    requestAnimationFrame(tick);
    // Keep the latest few thousand frame stamps (dropping the oldest half when full).
    if (probe.frameStamps.push(now) > 4096) probe.frameStamps.splice(0, 2048);
    if (loading || !scene) return;
    const dt = Math.min(0.1, (now - last) / 1000);
    smoothedMs += ((now - last) - smoothedMs) * 0.05;
    last = now;
    const texture = gpu.context.getCurrentTexture();
    const encoder = gpu.device.createCommandEncoder({ label: 'demo frame' });
    const target = texture.createView();
    scene.frame({ time: (now - sceneStart) / 1000, dt, frame: frame++, width: canvas.width, height: canvas.height, target, encoder });
    if (overlay && statusLine !== '') {
      overlay.draw(encoder, target, canvas.width, canvas.height, statusLine);
      overlayProbe.text = overlay.text;
      overlayProbe.drawCalls = overlay.drawCalls;
      overlayProbe.frames++;
    }
    const afterSubmit = sampler.record(gpu.device, encoder, texture);
    gpu.device.queue.submit([encoder.finish()]);
    afterSubmit?.();
    probe.framesDrawn++;
    if (now - lastStatus > 250) {
      lastStatus = now;
      const stats = Object.entries(scene.stats?.() ?? {}).map(([key, value]) => `${key}: ${value}`);
      statusLine = [`${(1000 / smoothedMs).toFixed(0)} fps`, `${smoothedMs.toFixed(1)} ms`, `${canvas.width}×${canvas.height}`, ...stats, adapterName].join('  ·  ');
      status.textContent = statusLine;
    }
  };
  requestAnimationFrame(tick);
}

void main();

import { lookAt, perspective } from '@cuttle/gpu-culling';
import { buildCourtyard, outlinePass, PASSES, Renderer, RenderScene, skyPass, type Courtyard, type PassName } from '@cuttle/render';
import { checkbox, choice, control, slider } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';

export const scene: SceneDefinition = {
  id: 'render',
  title: 'Courtyard (renderer)',
  package: '@cuttle/render',
  description: 'Everything in one frame: coloured glass casting tinted shadows, a pool with caustics, walking characters, thousands of small lights, fluid in a tank, opaque surfaces lit in compute from a G-buffer with the culled lights of each tile (or forward+ after a depth prepass), characters rasterized in compute while they are small on screen and by the raster hardware once they are large (or either, chosen), per-pass GPU timings. Each frame is a frame graph: two user passes join it (a sky written into the HDR target in compute, an outline after tone mapping), and the graph prints itself below.',
  create({ device, format, panel, hasTimestamps }) {
    const renderScene = new RenderScene(device);
    const yard: Courtyard = buildCourtyard(renderScene, { characters: 48, lights: 2048, fluid: 6000 });
    let renderer: Renderer | undefined;
    let timings: Partial<Record<PassName, number>> = {};
    let failure = '';
    const transparent = control(panel, 'transparent shadows', choice(['simple', 'separate-depth']));
    const ssao = control(panel, 'SSAO', checkbox(true));
    const normals = control(panel, 'SSAO normals from depth', choice(['improved', 'naive']));
    const caustics = control(panel, 'caustics strength', slider(0, 4, 0.1, 1.5));
    const shading = control(panel, 'opaque shading', choice(['deferred', 'forward']));
    const raster = control(panel, 'characters rasterized', choice(['auto', 'compute', 'hardware']));
    const animate = control(panel, 'characters and lights move', checkbox(true));
    const orbit = control(panel, 'camera orbits', checkbox(true));
    // User passes in the renderer's frame graph: a compute pass into the HDR target, a post effect.
    const sky = skyPass(device);
    const outline = outlinePass(device);
    const skyToggle = control(panel, 'user pass: sky (compute, writes hdr)', checkbox(false));
    const outlineToggle = control(panel, 'user pass: outline (after tone mapping)', checkbox(false));
    const graphView = document.createElement('details');
    const graphText = document.createElement('pre');
    graphText.id = 'frame-graph';
    graphText.style.fontSize = '11px';
    graphView.append(Object.assign(document.createElement('summary'), { textContent: 'frame graph' }), graphText);
    panel.append(graphView);
    const syncPasses = (): void => {
      if (!renderer) return;
      for (const [pass, toggle] of [[sky, skyToggle], [outline, outlineToggle]] as const) {
        const added = renderer.userPasses.some((p) => p.name === pass.name);
        if (toggle.checked && !added) renderer.addPass(pass);
        if (!toggle.checked && added) renderer.removePass(pass.name);
      }
    };

    function rebuild(): void {
      renderer?.destroy();
      renderer = new Renderer(device, { format, maxLights: 2112, transparentShadows: transparent.value as 'simple' | 'separate-depth', caustics: Number(caustics.value) });
      renderer.ssao = ssao.checked;
      renderer.ssaoNormals = normals.value as 'improved' | 'naive';
      renderer.opaqueShading = shading.value as 'deferred' | 'forward';
      renderer.skinnedRaster = raster.value as 'auto' | 'compute' | 'hardware';
      syncPasses();
    }
    rebuild();
    skyToggle.addEventListener('change', syncPasses);
    outlineToggle.addEventListener('change', syncPasses);
    transparent.addEventListener('change', rebuild);
    caustics.addEventListener('input', () => { if (renderer) renderer.caustics = Number(caustics.value); });
    ssao.addEventListener('change', () => { if (renderer) renderer.ssao = ssao.checked; });
    normals.addEventListener('change', () => { if (renderer) renderer.ssaoNormals = normals.value as 'improved' | 'naive'; });
    shading.addEventListener('change', () => { if (renderer) renderer.opaqueShading = shading.value as 'deferred' | 'forward'; });
    raster.addEventListener('change', () => { if (renderer) renderer.skinnedRaster = raster.value as 'auto' | 'compute' | 'hardware'; });

    let pending = false;
    let moment = 0;
    return {
      frame({ encoder, target, width, height, dt }) {
        if (!renderer || failure) return;
        if (pending) {
          pending = false;
          renderer.readTimings().then((read) => { timings = read; }, (error: unknown) => { failure = String(error); });
        }
        if (animate.checked) moment += dt;
        yard.animate(moment);
        const angle = orbit.checked ? moment * 0.08 : 0.6;
        const camera = {
          view: lookAt([Math.sin(angle) * 26, 10, Math.cos(angle) * 26], [0, 1, 0]),
          projection: perspective({ fovY: 0.85, aspect: width / height, near: 0.1, far: Infinity, reversedZ: true }),
        };
        renderer.render(encoder, renderScene, camera, { view: target, width, height });
        pending = hasTimestamps;
        // The graph as text, now and then (it is the same frame after frame until a setting changes).
        if (graphView.open || graphText.textContent === '') graphText.textContent = renderer.describeFrame();
      },
      stats: () => {
        const passes = PASSES.filter((pass) => (timings[pass] ?? 0) > 0).map((pass) => `${pass} ${timings[pass]!.toFixed(2)}`);
        const total = PASSES.reduce((sum, pass) => sum + (timings[pass] ?? 0), 0);
        return {
          characters: '48',
          lights: '2,048',
          SSAO: ssao.checked ? normals.value : 'off',
          ...(passes.length > 0 ? { 'GPU ms': `${total.toFixed(2)} (${passes.join(', ')})` } : {}),
          ...(failure ? { error: failure } : {}),
        };
      },
      destroy() {
        renderer?.destroy();
        sky.destroy();
        outline.destroy();
        yard.destroy();
        renderScene.destroy();
      },
    };
  },
};

import { gpuTextureOf } from '@cuttle/three';
import { AmbientLight, BoxGeometry, Color, DirectionalLight, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import type { SceneDefinition } from '../../scene-api.ts';
import { Blit } from './blit.ts';
import { BOXES_OPTIONS, EcsBoxes } from './boxes.ts';
import { CROWD_OPTIONS, WalkingCrowd } from './crowd.ts';
import { FluidTank } from './fluid.ts';
import { SceneLabels } from './labels.ts';
import { FloorLights, LIGHTING_OPTIONS } from './lights.ts';
import { urlChoice, urlToggle } from './settings.ts';

const PARTICLES = 8000;
const WALKERS = 200;
const BOXES = 1000;
const LIGHTS = 1000;
const FLOOR = 60;

const short = (label: string): string => label.replace("three's ", '').split(' ')[0]!;

export const scene: SceneDefinition = {
  id: 'three',
  title: 'three.js + Cuttle',
  package: '@cuttle/three',
  description:
    "A three.js scene on the demo's GPU device, each part drawn by an @cuttle/three adapter, and a select per part that swaps in three's own way: 1,000 small moving point lights shaded through @cuttle/gpu-culling's tiles (CulledLighting; or three's ClusteredLighting), a walking crowd of 200 skinned once a frame in compute (SkinnedCrowd; or a SkinnedMesh per character), a @cuttle/gpu-fluid dam break of 8,000 particles drawn from the simulation's buffer (FluidMesh), 1,000 boxes walked by an @cuttle/ecs system (EcsInstances; or setMatrixAt), and a few hundred distance-field labels in one draw (TextLabels: three has no distance-field text for WebGPURenderer, troika-three-text needs WebGLRenderer, so there is nothing to swap). three renders offscreen; the frame is copied to the canvas. The page's query sets the first choices: ?lights=clustered&crowd=skinned-mesh&boxes=set-matrix&labels=off&fluid=off.",
  async create({ device, format, panel }) {
    // three on our device; it renders into an offscreen target (its canvas is never drawn into).
    const renderer = new WebGPURenderer({ device, canvas: { width: 1, height: 1, style: {} } as unknown as HTMLCanvasElement, antialias: false });
    await renderer.init();
    const lighting = urlChoice(panel, 'lights shaded by', 'lights', LIGHTING_OPTIONS);
    const crowdDrawn = urlChoice(panel, 'crowd drawn by', 'crowd', CROWD_OPTIONS);
    const boxesPlaced = urlChoice(panel, 'boxes placed by', 'boxes', BOXES_OPTIONS);
    const labelsOn = urlToggle(panel, 'labels (TextLabels)', 'labels');
    const fluidOn = urlToggle(panel, 'fluid (FluidMesh)', 'fluid');

    // Dusk, so the small lights show: a dim sun and sky, a floor they pool on.
    const three = new Scene();
    three.background = new Color(0x1c2330);
    three.add(new AmbientLight(0x8090b0, 0.25));
    const sun = new DirectionalLight(0xb0c0e0, 0.5);
    sun.position.set(10, 20, 8);
    three.add(sun);
    const ground = new Mesh(new BoxGeometry(FLOOR, 0.2, FLOOR), new MeshStandardNodeMaterial({ color: 0x8a8478, roughness: 0.8 }));
    ground.position.y = -0.1;
    three.add(ground);

    const lights = new FloorLights(renderer, LIGHTS, FLOOR / 2 - 1);
    const fluid = new FluidTank(renderer, PARTICLES);
    const crowd = new WalkingCrowd(renderer, WALKERS);
    const boxes = new EcsBoxes(BOXES, 16, 27);
    const labels = await SceneLabels.create(WALKERS);
    three.add(lights.group, fluid.mesh, ...crowd.objects, boxes.mesh, labels.mesh);

    const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 200);
    const target = new RenderTarget(1, 1);
    const blit = new Blit(device, format);
    let threeMs = 0;
    let destroyed = false;

    /** The fluid's step, the crowd's skinning, the ECS system and three's render of the next frame (three submits its own work). */
    function renderNext(width: number, height: number, dt: number, time: number): void {
      const t0 = performance.now();
      if (target.width !== width || target.height !== height) target.setSize(width, height);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      camera.position.set(Math.sin(time * 0.05) * 24, 11, Math.cos(time * 0.05) * 24);
      camera.lookAt(0, 1, 0);
      boxes.update(boxesPlaced.key, time);
      crowd.update(crowdDrawn.key, time);
      labels.mesh.visible = labelsOn.checked;
      if (labelsOn.checked) labels.follow(crowd.positions);
      lights.animate(time);
      fluid.update(fluidOn.checked, dt);
      lights.use(lighting.key);
      renderer.setRenderTarget(target);
      lights.beforeRender(three, camera);
      renderer.render(three, camera);
      threeMs += (performance.now() - t0 - threeMs) * 0.1;
    }

    return {
      frame({ encoder, target: view, width, height, dt, time }) {
        // The frame three rendered after the last one was submitted; the next one is rendered
        // once this one is submitted, so the canvas gets its frame in the shell's submit.
        const frame = gpuTextureOf(renderer, target.texture);
        if (frame) blit.draw(encoder, frame, view);
        queueMicrotask(() => { if (!destroyed) renderNext(width, height, dt, time); });
      },
      stats: () => ({
        'three (JS)': `${threeMs.toFixed(1)} ms`,
        lights: `${lights.count.toLocaleString('en')} (${short(lighting.label)})`,
        crowd: `${WALKERS} (${short(crowdDrawn.label)})`,
        boxes: `${BOXES.toLocaleString('en')} placed in ${boxes.placeMs.toFixed(2)} ms (${short(boxesPlaced.label)})`,
        labels: labelsOn.checked ? labels.count.toLocaleString('en') : 'hidden',
        particles: fluidOn.checked ? fluid.count.toLocaleString('en') : 'hidden',
      }),
      destroy() {
        destroyed = true;
        fluid.destroy();
        crowd.destroy();
        boxes.dispose();
        labels.dispose();
        lights.dispose();
        target.dispose();
        void renderer.dispose();
      },
    };
  },
};

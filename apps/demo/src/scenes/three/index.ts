import { Scene as EcsScene, updateTransforms, type Entity } from '@cuttle/ecs';
import { damBreakPositions, FluidSimulation, resolveParameters } from '@cuttle/gpu-fluid';
import { deviceOf, EcsInstances, FluidMesh, gpuTextureOf } from '@cuttle/three';
import { AmbientLight, BoxGeometry, Color, DirectionalLight, InstancedMesh, Matrix4, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, Quaternion, RenderTarget, Scene, Vector3, WebGPURenderer } from 'three/webgpu';
import { checkbox, choice, control } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import { Blit } from './blit.ts';

const CROWD = 2000;
const PARTICLES = 8000;

export const scene: SceneDefinition = {
  id: 'three',
  title: 'three.js + Cuttle',
  package: '@cuttle/three',
  description: "A three.js scene on the demo's GPU device: a @cuttle/gpu-fluid dam break drawn by three straight from the simulation's buffer (FluidMesh), and a crowd of 2,000 boxes walked by an @cuttle/ecs system and placed by EcsInstances (or by three's own setMatrixAt, to compare). three renders offscreen; the frame is copied to the canvas.",
  async create({ device, format, panel }) {
    // three on our device; it renders into an offscreen target (its canvas is never drawn into).
    const renderer = new WebGPURenderer({ device, canvas: { width: 1, height: 1, style: {} } as unknown as HTMLCanvasElement, antialias: false });
    await renderer.init();
    const placement = control(panel, 'crowd placed by', choice(['EcsInstances (@cuttle/three)', "three's setMatrixAt(compose)"]));
    const fluidOn = control(panel, 'fluid (FluidMesh)', checkbox(true));

    const three = new Scene();
    three.background = new Color(0x9db4cc);
    three.add(new AmbientLight(0xffffff, 0.35));
    const sun = new DirectionalLight(0xffffff, 2.5);
    sun.position.set(10, 20, 8);
    three.add(sun);
    const ground = new Mesh(new BoxGeometry(60, 0.2, 60), new MeshStandardNodeMaterial({ color: 0x8a8478, roughness: 0.9 }));
    ground.position.y = -0.1;
    three.add(ground);

    // The fluid: a dam break in a tank at the centre, stepped on the same device three draws with.
    const parameters = resolveParameters({ bounds: { min: [-6, 0, -3], max: [6, 6, 3] } });
    const fluid = new FluidSimulation(deviceOf(renderer), { capacity: PARTICLES, mode: 'counting-sort', parameters });
    const emitted = damBreakPositions(PARTICLES, parameters);
    fluid.emit(emitted);
    const water = new FluidMesh(renderer, fluid, { radius: 0.22, detail: 0 });
    three.add(water);

    // The crowd: entities walk circles in the ECS; each frame their world matrices go to the instances.
    const ecs = new EcsScene();
    const crowd = new InstancedMesh(new BoxGeometry(0.5, 1.6, 0.5), new MeshStandardNodeMaterial({ color: 0xc06a3a, roughness: 0.6 }), CROWD);
    const instances = new EcsInstances(crowd);
    const walkers: { entity: Entity; radius: number; phase: number; speed: number }[] = [];
    for (let i = 0; i < CROWD; i++) {
      const walker = { entity: ecs.createNode(), radius: 9 + (i % 40) * 0.45, phase: (i * 2.399) % (Math.PI * 2), speed: 0.15 + (i % 7) * 0.03 };
      walkers.push(walker);
      instances.bind(walker.entity, i);
    }
    three.add(crowd);
    const scratch = { matrix: new Matrix4(), position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3(1, 1, 1), up: new Vector3(0, 1, 0) };

    const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 200);
    const target = new RenderTarget(1, 1);
    const blit = new Blit(device, format);
    let placeMs = 0;

    /** The fluid's step, the ECS system and three's render of the next frame (three submits its own work). */
    function renderNext(width: number, height: number, dt: number, time: number): void {
      if (target.width !== width || target.height !== height) target.setSize(width, height);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      camera.position.set(Math.sin(time * 0.05) * 26, 12, Math.cos(time * 0.05) * 26);
      camera.lookAt(0, 1, 0);
      // The ECS system: walk the circles.
      const { position, rotation, dirty } = ecs.transforms.fields;
      for (const walker of walkers) {
        const row = ecs.transforms.indexOf(walker.entity);
        const angle = walker.phase + time * walker.speed;
        position[row * 3] = Math.cos(angle) * walker.radius;
        position[row * 3 + 1] = 0.8;
        position[row * 3 + 2] = Math.sin(angle) * walker.radius;
        rotation[row * 4 + 1] = Math.sin(-angle / 2);
        rotation[row * 4 + 3] = Math.cos(-angle / 2);
        dirty[row] = 1;
      }
      updateTransforms(ecs.transforms);
      const t0 = performance.now();
      if (placement.selectedIndex === 0) instances.sync(ecs.transforms);
      else {
        for (let i = 0; i < CROWD; i++) {
          const row = ecs.transforms.indexOf(walkers[i]!.entity);
          scratch.position.fromArray(position, row * 3);
          scratch.quaternion.fromArray(rotation, row * 4);
          crowd.setMatrixAt(i, scratch.matrix.compose(scratch.position, scratch.quaternion, scratch.scale));
        }
        crowd.instanceMatrix.needsUpdate = true;
      }
      placeMs = performance.now() - t0;
      water.visible = fluidOn.checked;
      if (fluidOn.checked && dt > 0) {
        const step = device.createCommandEncoder();
        fluid.step(step);
        device.queue.submit([step.finish()]);
      }
      water.sync();
      renderer.setRenderTarget(target);
      renderer.render(three, camera);
    }
    let destroyed = false;

    return {
      frame({ encoder, target: view, width, height, dt, time }) {
        // The frame three rendered after the last one was submitted; the next one is rendered
        // once this one is submitted, so the canvas gets its frame in the shell's submit.
        const frame = gpuTextureOf(renderer, target.texture);
        if (frame) blit.draw(encoder, frame, view);
        queueMicrotask(() => { if (!destroyed) renderNext(width, height, dt, time); });
      },
      stats: () => ({ crowd: CROWD.toLocaleString('en'), particles: fluid.count.toLocaleString('en'), 'placing the crowd': `${placeMs.toFixed(2)} ms (${placement.value.split(' ')[0]})` }),
      destroy() {
        destroyed = true;
        fluid.destroy();
        target.dispose();
        void renderer.dispose();
      },
    };
  },
};

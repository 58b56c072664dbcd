// A solar system as an @cuttle/ecs scene graph: a sun, 12 planets, 24 moons per planet and 10
// specks per moon (3,181 transforms, four levels deep). Each node also has an 'orbit'
// component (spin speed, size, colour). Every frame a spin system joins orbits to transforms,
// the transform and hierarchy systems run (parents first, one linear pass), and a draw loop
// copies world positions into quads. Every half second a random moon is re-attached to another
// planet with its specks: attach keeps its world placement, so it joins the new orbit from
// where it was.
import { Join, Scene, SchemaComponentManager, type Entity } from '@cuttle/ecs';
import type { SceneDefinition } from '../../scene-api.ts';
import { InstancedQuads } from '../../render/instanced-quads.ts';

const PLANETS = 12;
const MOONS = 24;
const SPECKS = 10;
/** Orbit radius, spin speed (rad/s), quad size and colour per depth. */
const LEVELS = [
  { radius: 0, speed: 0.1, size: 0.06, color: [1, 0.8, 0.3, 1] },
  { radius: 0.5, speed: 0.4, size: 0.025, color: [0.35, 0.6, 0.95, 1] },
  { radius: 0.12, speed: 1.3, size: 0.01, color: [0.85, 0.85, 0.9, 0.9] },
  { radius: 0.03, speed: 3.1, size: 0.004, color: [0.95, 0.45, 0.4, 0.8] },
] as const;

const ORBIT = { speed: 'f32', size: 'f32', color: { type: 'f32', length: 4 } } as const;

export const scene: SceneDefinition = {
  id: 'ecs',
  title: 'ECS scene graph',
  package: '@cuttle/ecs',
  description: 'Wicked Engine style ComponentManagers: 3,181 transforms in a four-level hierarchy updated parents-first in one linear pass; moons hop between planets with attach.',
  create({ device, format }) {
    const graph = new Scene({ seed: 2024 });
    const orbits = graph.library.register('orbit', new SchemaComponentManager(ORBIT));
    const moons: Entity[] = [];
    const planets: Entity[] = [];

    /** A node `radius` away from `parent`'s world position (current as of the last update), attached to it. */
    const spawn = (depth: number, parent: Entity | null, angle: number): Entity => {
      const level = LEVELS[depth]!;
      let x = 0;
      let y = 0;
      if (parent !== null) {
        const t = graph.transforms.indexOf(parent);
        x = graph.transforms.fields.world[t * 16 + 12]! + level.radius * Math.cos(angle);
        y = graph.transforms.fields.world[t * 16 + 13]! + level.radius * Math.sin(angle);
      }
      const e = graph.createNode({ position: [x, y, 0] });
      const row = orbits.create(e);
      orbits.fields.speed[row] = level.speed;
      orbits.fields.size[row] = level.size;
      orbits.fields.color.set(level.color, row * 4);
      if (parent !== null) graph.attach(e, parent);
      return e;
    };
    // Level by level, with an update between, so that attach reads current parent matrices.
    const sun = spawn(0, null, 0);
    graph.update();
    for (let p = 0; p < PLANETS; p++) planets.push(spawn(1, sun, (p / PLANETS) * Math.PI * 2));
    graph.update();
    for (const planet of planets) for (let m = 0; m < MOONS; m++) moons.push(spawn(2, planet, (m / MOONS) * Math.PI * 2));
    graph.update();
    for (const moon of moons) for (let s = 0; s < SPECKS; s++) spawn(3, moon, (s / SPECKS) * Math.PI * 2);
    graph.update();

    const toTransforms = new Join(orbits, graph.transforms);
    const quads = new InstancedQuads(device, format, orbits.count);
    let updateMs = 0;
    let hops = 0;
    let nextHop = 0.5;
    let seed = 1;
    const random = (): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };

    return {
      frame({ encoder, target, width, height, time }) {
        const start = performance.now();
        if (time > nextHop) {
          nextHop += 0.5;
          graph.attach(moons[Math.floor(random() * moons.length)]!, planets[Math.floor(random() * planets.length)]!);
          hops++;
        }
        // Spin system: each orbit turns its transform about z (local rotation quaternion).
        const rows = toTransforms.rows();
        const { speed, size, color } = orbits.fields;
        const { rotation, dirty } = graph.transforms.fields;
        const count = orbits.count;
        for (let i = 0; i < count; i++) {
          const t = rows[i]!;
          const half = 0.5 * time * speed[i]!;
          rotation[t * 4 + 2] = Math.sin(half);
          rotation[t * 4 + 3] = Math.cos(half);
          dirty[t] = 1;
        }
        graph.update();
        updateMs = performance.now() - start;

        const world = graph.transforms.fields.world;
        for (let i = 0; i < count; i++) {
          const t = rows[i]!;
          quads.positions[i * 2] = world[t * 16 + 12]! * 0.9;
          quads.positions[i * 2 + 1] = world[t * 16 + 13]! * 0.9;
          quads.sizes[i] = size[i]!;
          quads.colors.set(color.subarray(i * 4, i * 4 + 4), i * 4);
        }
        quads.draw(encoder, target, count, width / height);
      },
      stats: () => ({ transforms: graph.transforms.count.toLocaleString('en-US'), 'spin + update': `${updateMs.toFixed(2)} ms`, 're-attaches': String(hops) }),
      destroy() {
        quads.destroy();
      },
    };
  },
};
